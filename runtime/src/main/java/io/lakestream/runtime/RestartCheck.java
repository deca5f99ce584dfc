package io.lakestream.runtime;

import io.lakestream.api.annotation.PublicEvolving;

/**
 * What a restart check found: the new program may take over its checkpoint location (a refusal is a
 * {@link io.lakestream.api.error.LakestreamException} instead, naming what to change).
 *
 * @param queryName the query
 * @param queryId the location's query id (new if the location is unused)
 * @param resumes whether the location already belongs to the query
 * @param newestEpoch the epoch of the location's newest snapshot now (0: none); an upgrade resumes
 *     after the savepoint it takes, which is newer
 * @param dropsReplacedSinkState whether a replaced sink's state is dropped from the savepoint
 */
@PublicEvolving
public record RestartCheck(
    String queryName,
    String queryId,
    boolean resumes,
    long newestEpoch,
    boolean dropsReplacedSinkState) {

  /** One line for the console. */
  public String summary() {
    return "query '"
        + queryName
        + "' ("
        + queryId
        + "): "
        + (resumes
            ? "the new program can restore the running one's savepoint (newest snapshot now: epoch "
                + newestEpoch
                + ")"
            : "the checkpoint location is new: the program starts from scratch")
        + (dropsReplacedSinkState ? "; the replaced sink's state is dropped" : "");
  }
}
