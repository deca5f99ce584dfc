package io.lakestream.runtime;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.state.query.QueryContext;
import java.util.Optional;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * A dataflow that describes what it built as a plan of its own, such as a SQL query's compiled
 * plan, so that a restart can be checked against more than the operators' uids and key types. The
 * runtime keeps the plan of every run in the checkpoint location ({@code plans/<run id>.json}); a
 * restart asks the new plan whether it can take over the state the last run's plan left ({@link
 * DataflowPlan#restartFrom}), before anything runs, and refuses the start with an {@code
 * INCOMPATIBLE_RESTART} error listing the plan's problems beside the fingerprint's.
 *
 * <p>A build that cannot describe itself returns no plan: the restart is then checked by the
 * fingerprint alone, as for any dataflow.
 */
@PublicEvolving
public interface PlannedDataflow extends Dataflow {

  /**
   * Builds the dataflow, as {@link #build} does, and returns the plan of what it built.
   *
   * @return the plan, or empty if this build cannot be described
   */
  Optional<DataflowPlan> buildPlanned(StreamExecutionEnvironment env, QueryContext query);

  @Override
  default void build(StreamExecutionEnvironment env, QueryContext query) {
    buildPlanned(env, query);
  }
}
