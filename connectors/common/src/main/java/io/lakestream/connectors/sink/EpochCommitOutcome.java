package io.lakestream.connectors.sink;

import io.lakestream.api.annotation.PublicEvolving;

/**
 * What committing one epoch did, for progress reporting.
 *
 * @param epoch the epoch id
 * @param status committed now, already committed before (a replay), or nothing to commit
 * @param numRows rows made visible by this epoch
 * @param numFiles files made visible by this epoch
 * @param numBytes bytes made visible by this epoch
 * @param detail a short sink-specific note (for example the table version), may be empty
 */
@PublicEvolving
public record EpochCommitOutcome(
    long epoch, Status status, long numRows, long numFiles, long numBytes, String detail) {

  /** The kinds of outcome. */
  public enum Status {
    COMMITTED,
    ALREADY_COMMITTED,
    EMPTY
  }

  public static EpochCommitOutcome empty(long epoch) {
    return new EpochCommitOutcome(epoch, Status.EMPTY, 0, 0, 0, "");
  }
}
