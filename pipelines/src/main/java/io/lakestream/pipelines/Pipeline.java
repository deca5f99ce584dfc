package io.lakestream.pipelines;

import io.lakestream.pipelines.query.Trigger;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * A runnable job: builds its dataflow on an environment that the runner has already configured
 * (checkpointing per trigger, state backend, parallelism). Every stateful operator it adds has an
 * explicit {@code uid}.
 */
public interface Pipeline {

  /** Short name used on the command line. */
  String name();

  /** One line for {@code lakestream --help}. */
  String description();

  /** Trigger used when the command line gives none. */
  default Trigger defaultTrigger() {
    return Trigger.unspecified();
  }

  /**
   * Called once before the job is built; may check or prepare outputs.
   *
   * @throws IllegalArgumentException when an option is invalid, with a message naming it
   */
  default void prepare(RunSettings settings) throws java.io.IOException {}

  /** Adds the sources, operators and sinks. */
  void build(StreamExecutionEnvironment env, RunSettings settings);
}
