package io.lakestream.runtime;

import io.lakestream.state.checkpoint.SchemaRestartLog;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Whether a query may restart once more for a schema change, given the restarts before ({@link
 * SchemaRestartLog}): the same rules whether the client restarts an attached query ({@link
 * RestartingQuery}) or the JobManager a detached one ({@link SchemaChangeResubmitter}).
 *
 * <ul>
 *   <li>at most {@link SchemaChangeRestarts#maxPerHour()} restarts within any hour;
 *   <li>a rebuilt run that failed for the same columns again before committing an epoch does not
 *       pick the recorded schema up: restarting again would loop.
 * </ul>
 */
final class SchemaRestartBudget {
  private static final Duration WINDOW = Duration.ofHours(1);

  private final String queryName;
  private final SchemaChangeRestarts policy;

  SchemaRestartBudget(String queryName, SchemaChangeRestarts policy) {
    this.queryName = queryName;
    this.policy = policy;
  }

  /** {@code log} without the restarts older than an hour before {@code now}. */
  static SchemaRestartLog recent(SchemaRestartLog log, Instant now) {
    long since = now.minus(WINDOW).toEpochMilli();
    List<Long> kept = new ArrayList<>();
    for (long at : log.restartMillis()) {
      if (at >= since) {
        kept.add(at);
      }
    }
    return new SchemaRestartLog(kept, log.lastChange());
  }

  /** {@code log} with a restart for {@code columns} at {@code now}. */
  static SchemaRestartLog withRestart(SchemaRestartLog log, List<String> columns, Instant now) {
    List<Long> restarts = new ArrayList<>(recent(log, now).restartMillis());
    restarts.add(now.toEpochMilli());
    return new SchemaRestartLog(restarts, columns);
  }

  /**
   * Why the query must not restart for {@code columns}, if it must not.
   *
   * @param log the restarts so far (older ones than an hour are not counted)
   * @param runCommitted whether the run that just failed committed an epoch
   */
  Optional<String> refusal(
      SchemaRestartLog log, List<String> columns, boolean runCommitted, Instant now) {
    SchemaRestartLog recent = recent(log, now);
    if (!runCommitted && !recent.lastChange().isEmpty() && columns.equals(recent.lastChange())) {
      return Optional.of(
          "Query '"
              + queryName
              + "' was restarted for the schema change of columns "
              + columns
              + " and failed for the same columns again before committing an epoch: the rebuilt"
              + " query does not read the recorded schema, and restarting again would loop. Look"
              + " at the source's schema location and evolution mode (e.g."
              + " cloudFiles.schemaLocation, cloudFiles.schemaEvolutionMode), then run it again.");
    }
    int restarts = recent.restartMillis().size();
    if (restarts >= policy.maxPerHour()) {
      return Optional.of(
          "Query '"
              + queryName
              + "' restarted "
              + restarts
              + " times for schema changes within the last hour, the most"
              + " --max-schema-restarts-per-hour allows; the last change: columns "
              + columns
              + ". Run it again to continue, or raise --max-schema-restarts-per-hour.");
    }
    return Optional.empty();
  }
}
