package io.lakestream.connectors.delta.merge;

import io.lakestream.api.annotation.Experimental;
import java.util.List;

/**
 * A MERGE batch whose data and change data files are written but not yet committed ({@link
 * DeltaMergeCommit#prepare}); {@link DeltaMergeCommit#commitPrepared} commits it. Until then its
 * files are invisible to readers; if it is never committed they are orphans that VACUUM removes.
 */
@Experimental
public final class PreparedMerge {
  final long epoch;
  final MergePlan plan;
  final List<String> actions;
  final int filesAdded;
  final int changeFilesAdded;
  final DeltaMergeResult.Status status;
  final long seenVersion;

  PreparedMerge(
      long epoch,
      MergePlan plan,
      List<String> actions,
      int filesAdded,
      int changeFilesAdded,
      DeltaMergeResult.Status status,
      long seenVersion) {
    this.epoch = epoch;
    this.plan = plan;
    this.actions = List.copyOf(actions);
    this.filesAdded = filesAdded;
    this.changeFilesAdded = changeFilesAdded;
    this.status = status;
    this.seenVersion = seenVersion;
  }

  public long epoch() {
    return epoch;
  }

  /** The snapshot version the batch was planned on. */
  public long readVersion() {
    return seenVersion;
  }

  /** The Delta log JSON lines the commit will write (empty if there is nothing to commit). */
  public List<String> actions() {
    return actions;
  }

  DeltaMergeResult result(DeltaMergeResult.Status status, long version, int attempts) {
    return new DeltaMergeResult(
        epoch,
        status,
        version,
        seenVersion,
        plan == null ? 0 : plan.filesInTable(),
        plan == null ? 0 : plan.candidateFiles(),
        plan == null ? 0 : plan.removed().size(),
        filesAdded,
        changeFilesAdded,
        plan == null ? 0 : plan.rowsUpdated(),
        plan == null ? 0 : plan.rowsDeleted(),
        plan == null ? 0 : plan.rowsInserted(),
        plan == null ? 0 : plan.rowsCopied(),
        attempts);
  }
}
