package io.lakestream.runtime;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.SchemaChangeFailure;
import java.util.List;
import java.util.Optional;

/**
 * Whether a query that stops because its input schema changed ({@link SchemaChangeFailure} with the
 * new schema recorded) is rebuilt and restarted by lakestream itself, and how often: at most {@code
 * maxPerHour} restarts in any hour. Default on, 5 per hour, like a Databricks job with retries
 * around an Auto Loader stream.
 *
 * @param enabled whether to restart (CLI {@code --restart-on-schema-change=false} turns it off)
 * @param maxPerHour restarts allowed within any 60 minutes (CLI {@code
 *     --max-schema-restarts-per-hour})
 */
@PublicEvolving
public record SchemaChangeRestarts(boolean enabled, int maxPerHour) {
  public SchemaChangeRestarts {
    if (maxPerHour < 1) {
      throw new io.lakestream.api.error.LakestreamException(
          QueryErrorClass.QUERY_SCHEMA_CHANGE_RESTART_REFUSED,
          "max schema restarts per hour must be >= 1, was "
              + maxPerHour
              + "; turn restarts off with --restart-on-schema-change=false instead");
    }
  }

  /** On, at most 5 restarts per hour. */
  public static SchemaChangeRestarts defaults() {
    return new SchemaChangeRestarts(true, 5);
  }

  /** Off: a schema change ends the query with its failure. */
  public static SchemaChangeRestarts off() {
    return new SchemaChangeRestarts(false, 1);
  }

  /**
   * The changed columns of the schema change in {@code failure}'s cause chain that a rebuilt query
   * can follow, if any. A cause deserialized by another class loader than this one (an
   * application-mode JobManager reads the job's result with the job's) is no {@link
   * SchemaChangeFailure} here, so its message's {@link SchemaChangeFailure#recordedNote} counts
   * too.
   */
  static Optional<List<String>> restartableCause(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof SchemaChangeFailure change && change.recorded()) {
        return Optional.of(change.changedColumns());
      }
      Optional<List<String>> noted = SchemaChangeFailure.recordedIn(String.valueOf(t.getMessage()));
      if (noted.isPresent()) {
        return noted;
      }
    }
    return Optional.empty();
  }
}
