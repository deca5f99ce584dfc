package io.lakestream.connectors.delta.merge;

import io.lakestream.api.annotation.PublicEvolving;

/**
 * What committing one MERGE batch did.
 *
 * @param epoch the batch's epoch (the {@code txn} version)
 * @param status whether a version was written
 * @param version the version written, or for {@code ALREADY_COMMITTED} and {@code NO_CHANGE} the
 *     latest version seen
 * @param readVersion the snapshot version the batch was planned on
 * @param filesInTable data files in that snapshot
 * @param candidateFiles files left after partition and statistics pruning (all were read)
 * @param filesRemoved files rewritten (removed)
 * @param filesAdded new data files
 * @param changeFilesAdded new change data ({@code _change_data/}) files
 * @param rowsUpdated target rows updated
 * @param rowsDeleted target rows deleted
 * @param rowsInserted rows inserted
 * @param rowsCopied unchanged rows copied from rewritten files
 * @param attempts commit attempts (more than 1 when concurrent commits won first and the batch was
 *     rebased onto them)
 */
@PublicEvolving
public record DeltaMergeResult(
    long epoch,
    Status status,
    long version,
    long readVersion,
    int filesInTable,
    int candidateFiles,
    int filesRemoved,
    int filesAdded,
    int changeFilesAdded,
    long rowsUpdated,
    long rowsDeleted,
    long rowsInserted,
    long rowsCopied,
    int attempts) {

  /** Whether a version was written. */
  public enum Status {
    /** One new table version holds the batch. */
    COMMITTED,
    /** The table already holds this epoch of this app ({@code txn}); nothing was written. */
    ALREADY_COMMITTED,
    /** The batch changes nothing (empty, or no clause applied); nothing was written. */
    NO_CHANGE
  }
}
