package io.lakestream.state.checkpoint;

import io.lakestream.api.annotation.Internal;
import java.util.List;

/**
 * The schema-change restarts of a query, kept in its checkpoint location ({@code schema-restarts})
 * so that the bound on restarts per hour holds across the jobs of a detached query, each of which
 * is a new program run on the JobManager.
 *
 * @param restartMillis when each restart within the last hour happened (epoch millis, oldest first)
 * @param lastChange the columns the newest restart was for (empty: none yet)
 */
@Internal
public record SchemaRestartLog(List<Long> restartMillis, List<String> lastChange) {
  public SchemaRestartLog {
    restartMillis = restartMillis == null ? List.of() : List.copyOf(restartMillis);
    lastChange = lastChange == null ? List.of() : List.copyOf(lastChange);
  }

  /** No restart yet. */
  public static SchemaRestartLog empty() {
    return new SchemaRestartLog(List.of(), List.of());
  }
}
