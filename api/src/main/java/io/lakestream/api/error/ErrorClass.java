package io.lakestream.api.error;

import io.lakestream.api.annotation.PublicEvolving;

/**
 * A stable name for one kind of failure, in Spark's {@code UPPER_SNAKE} style (for example {@code
 * DELTA_CONCURRENT_APPEND} or {@code QUERY_ALREADY_RUNNING}). Users and tests match on it instead
 * of on message text, which may be reworded; a name, once released, never changes meaning.
 *
 * <p>Each module declares its classes in one enum that implements this interface.
 */
@PublicEvolving
public interface ErrorClass {
  /** The error class name, {@code UPPER_SNAKE}. */
  String name();
}
