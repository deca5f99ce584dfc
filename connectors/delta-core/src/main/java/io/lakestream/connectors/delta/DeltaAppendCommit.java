package io.lakestream.connectors.delta;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.connectors.sink.EpochCommitAction;
import io.lakestream.connectors.sink.EpochCommitOutcome;

/**
 * Commits the files of one epoch as ONE Delta table version that only adds them (output mode
 * append), exactly once per {@code (appId, epoch)}: the commit carries a {@code txn} action {@code
 * (appId, epoch)}, and before committing it reads the table's latest transaction version for {@code
 * appId}; if that is {@code >= epoch}, the epoch is already in the table and nothing is written
 * ({@link EpochCommitOutcome.Status#ALREADY_COMMITTED}). Epochs must be committed in increasing
 * order per appId (as {@link EpochCommitAction} promises).
 *
 * <p>Concurrent blind appends by other writers are reconciled by Delta Kernel (it rebases the
 * commit on the winner); if Kernel still reports a conflict, the whole commit is retried from a
 * fresh snapshot up to {@code maxAttempts} times, then {@link DeltaCommitConflictException} is
 * thrown. After a commit, the post-commit hooks Kernel returns are run (a checkpoint every {@code
 * delta.checkpointInterval} versions); their failures are logged, not thrown.
 *
 * <p>With {@code mergeSchema}, {@link #open()} adds declared columns the table lacks (see {@link
 * DeltaTable#ensureExists(DeltaTableSchema, boolean)}); each commit still requires the table to
 * have exactly the declared columns.
 *
 * <p>The outcome's {@code detail} is {@code "version=N"} (the committed or the already-committed
 * table version's latest, for a replay). An empty epoch commits nothing ({@code EMPTY}).
 */
@PublicEvolving
public final class DeltaAppendCommit extends DeltaEpochCommit {
  private static final long serialVersionUID = 1L;

  /** Default bound on whole-commit retries after Kernel-reported conflicts. */
  public static final int DEFAULT_MAX_ATTEMPTS = 10;

  /**
   * @param table the table to commit to
   * @param schema the table's declaration (created if missing, checked otherwise, in {@link #open})
   * @param appId the stable id of the writing application (for lakestream, bound to the query id)
   */
  public DeltaAppendCommit(DeltaTable table, DeltaTableSchema schema, String appId) {
    this(table, schema, appId, DEFAULT_MAX_ATTEMPTS);
  }

  /**
   * @param maxAttempts how many times a commit is attempted when conflicts keep occurring (>= 1)
   */
  public DeltaAppendCommit(
      DeltaTable table, DeltaTableSchema schema, String appId, int maxAttempts) {
    this(table, schema, appId, maxAttempts, false);
  }

  /**
   * @param mergeSchema whether {@link #open()} may add new nullable declared columns to the table
   */
  public DeltaAppendCommit(
      DeltaTable table,
      DeltaTableSchema schema,
      String appId,
      int maxAttempts,
      boolean mergeSchema) {
    super(table, schema, appId, maxAttempts, mergeSchema);
  }

  @Override
  public String toString() {
    return "DeltaAppendCommit[" + table.path() + ", appId=" + appId + "]";
  }
}
