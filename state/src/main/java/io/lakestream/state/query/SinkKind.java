package io.lakestream.state.query;

import io.lakestream.api.annotation.Internal;

/**
 * Kinds of sinks and which of them a query may switch between on restart, following Structured
 * Streaming's matrix: file to Kafka is allowed (Kafka sees only new data), Kafka to file is not;
 * Kafka and foreachBatch may be swapped. Anything else needs a new checkpoint location.
 */
@Internal
public enum SinkKind {
  FILE,
  DELTA,
  KAFKA,
  FOREACH_BATCH,
  LAKEBASE,
  CONSOLE;

  /** Whether a query that wrote to this kind may restart writing to {@code next}. */
  public boolean canRestartAs(SinkKind next) {
    if (this == next) {
      return true;
    }
    switch (this) {
      case FILE:
        return next == KAFKA;
      case KAFKA:
        return next == FOREACH_BATCH;
      case FOREACH_BATCH:
        return next == KAFKA;
      case CONSOLE:
        return true;
      default:
        return false;
    }
  }
}
