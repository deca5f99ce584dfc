package io.lakestream.state.query;

import io.lakestream.api.annotation.Internal;

/**
 * The {@code metadata} file of a checkpoint location: who the query is and what it was built from.
 *
 * @param formatVersion version of this file's format
 * @param queryId the query id, fixed when the location is first used
 * @param queryName the query name
 * @param createdAt ISO-8601 instant of the first run
 * @param lastRunId the id of the most recent run
 * @param fingerprint the most recent run's fingerprint
 */
@Internal
public record QueryMetadata(
    int formatVersion,
    String queryId,
    String queryName,
    String createdAt,
    String lastRunId,
    QueryFingerprint fingerprint) {

  public static final int FORMAT_VERSION = 1;

  /** The same query, started again as {@code runId} with {@code newFingerprint}. */
  public QueryMetadata nextRun(String runId, QueryFingerprint newFingerprint) {
    return new QueryMetadata(formatVersion, queryId, queryName, createdAt, runId, newFingerprint);
  }
}
