package io.lakestream.state.query;

import io.lakestream.api.annotation.PublicEvolving;
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
 * @param replay how sources replay epochs a later run already committed, when this run restores an
 *     older snapshot ({@link ReplayPlan#NONE} otherwise)
 * @param realTime the query runs with the realTime trigger: sinks that buffer rows pick their
 *     low-latency defaults (e.g. the Lakebase sink's batch interval)
 */
@PublicEvolving
public record QueryContext(
    String queryId,
    String queryName,
    String runId,
    String appId,
    String checkpointLocation,
    boolean availableNow,
    boolean ignoreRateLimits,
    OutputMode outputMode,
    ReplayPlan replay,
    boolean realTime)
    implements Serializable {

  public QueryContext {
    Objects.requireNonNull(queryId, "queryId");
    Objects.requireNonNull(queryName, "queryName");
    Objects.requireNonNull(runId, "runId");
    Objects.requireNonNull(appId, "appId");
    Objects.requireNonNull(checkpointLocation, "checkpointLocation");
    Objects.requireNonNull(outputMode, "outputMode");
    Objects.requireNonNull(replay, "replay");
  }

  /** A context of a query that does not run in realTime mode. */
  public QueryContext(
      String queryId,
      String queryName,
      String runId,
      String appId,
      String checkpointLocation,
      boolean availableNow,
      boolean ignoreRateLimits,
      OutputMode outputMode,
      ReplayPlan replay) {
    this(
        queryId,
        queryName,
        runId,
        appId,
        checkpointLocation,
        availableNow,
        ignoreRateLimits,
        outputMode,
        replay,
        false);
  }

  /** A context without replay. */
  public QueryContext(
      String queryId,
      String queryName,
      String runId,
      String appId,
      String checkpointLocation,
      boolean availableNow,
      boolean ignoreRateLimits,
      OutputMode outputMode) {
    this(
        queryId,
        queryName,
        runId,
        appId,
        checkpointLocation,
        availableNow,
        ignoreRateLimits,
        outputMode,
        ReplayPlan.NONE);
  }

  /** The transaction app id for a query: stable for its checkpoint location, new for a new one. */
  public static String appIdFor(String queryName, String queryId) {
    return queryName + "-" + queryId;
  }
}
