package io.lakestream.sql;

import io.lakestream.api.annotation.Internal;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * Sinks a table source writes beside the rows it gives the planner, such as the Kafka table's
 * dead-letter table. The planner keeps only what leads to the statements' own sinks, so a sink a
 * source adds in {@code produceDataStream} would be lost without a word; {@link SqlDataflow} plans
 * inside {@link #collect} and adds the sinks sources {@link #add}ed to the job.
 *
 * <p>Planning runs in the thread that calls the planner, so the sinks are collected per thread. A
 * source planned outside {@link #collect} (a plain {@code TableEnvironment}) fails at {@link #add}
 * instead of losing the records.
 */
@Internal
public final class SideSinks {
  private static final ThreadLocal<List<Transformation<?>>> PLANNING = new ThreadLocal<>();

  private SideSinks() {}

  /**
   * Adds a sink of the statements being planned.
   *
   * @param table the table adding it, for the message
   * @throws IllegalStateException outside {@link #collect}
   */
  public static void add(DataStreamSink<?> sink, String table) {
    List<Transformation<?>> sinks = PLANNING.get();
    if (sinks == null) {
      throw new IllegalStateException(
          "Table "
              + table
              + " writes a second output (its dead letters), which only lakestream's query"
              + " runtime plans: run the statements with SqlDataflow (or lakestream sql).");
    }
    sinks.add(sink.getTransformation());
  }

  /** Runs {@code planning}, then adds every sink sources added meanwhile to {@code env}. */
  static void collect(StreamExecutionEnvironment env, Runnable planning) {
    List<Transformation<?>> outer = PLANNING.get();
    List<Transformation<?>> sinks = new ArrayList<>();
    PLANNING.set(sinks);
    try {
      planning.run();
    } finally {
      PLANNING.set(outer);
    }
    for (Transformation<?> sink : sinks) {
      if (!env.getTransformations().contains(sink)) {
        env.addOperator(sink);
      }
    }
  }
}
