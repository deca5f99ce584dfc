package io.lakestream.state.query;

import java.io.Serializable;
import java.util.Objects;

/**
 * What sources and sinks of a running query need to know about it: its identity, where its
 * checkpoint location is, and how the trigger bounds the run. Immutable and serializable, so it
 * travels inside the job graph.
 *
 * @param queryId the query id from the checkpoint location's metadata (stable across runs)
 * @param queryName the query name
 * @param runId this run's id (new for every start)
 * @param appId the sink transaction app id, derived from the query id
 * @param checkpointLocation the checkpoint location URI (absolute)
 * @param availableNow sources read only what is available at start, then report caught-up
 * @param ignoreRateLimits sources ignore per-epoch rate limits (the deprecated once trigger)
 * @param outputMode what sinks receive each epoch; sinks refuse modes they cannot honour
 */
public record QueryContext(
    String queryId,
    String queryName,
    String runId,
    String appId,
    String checkpointLocation,
    boolean availableNow,
    boolean ignoreRateLimits,
    OutputMode outputMode)
    implements Serializable {

  public QueryContext {
    Objects.requireNonNull(queryId, "queryId");
    Objects.requireNonNull(queryName, "queryName");
    Objects.requireNonNull(runId, "runId");
    Objects.requireNonNull(appId, "appId");
    Objects.requireNonNull(checkpointLocation, "checkpointLocation");
    Objects.requireNonNull(outputMode, "outputMode");
  }

  /** The transaction app id for a query: stable for its checkpoint location, new for a new one. */
  public static String appIdFor(String queryName, String queryId) {
    return queryName + "-" + queryId;
  }
}
