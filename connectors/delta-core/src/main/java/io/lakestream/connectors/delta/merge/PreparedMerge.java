package io.lakestream.connectors.delta.merge;

import io.lakestream.api.annotation.Experimental;
import io.lakestream.connectors.delta.maintenance.PartitionCompaction;
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
  final MergeCommitContent content; // null when there is nothing to commit
  final MergeTableFeatures features;
  final int filesAdded;
  final int changeFilesAdded;
  final DeltaMergeResult.Status status;
  final long seenVersion;
  PartitionCompaction compaction; // null: no auto-compaction after the commit
  int checkpointInterval = 10; // the table's delta.checkpointInterval as planned

  PreparedMerge(
      long epoch,
      MergePlan plan,
      MergeCommitContent content,
      MergeTableFeatures features,
      int filesAdded,
      int changeFilesAdded,
      DeltaMergeResult.Status status,
      long seenVersion) {
    this.epoch = epoch;
    this.plan = plan;
    this.content = content;
    this.features = features;
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

  /**
   * The Delta log JSON lines the commit writes as the next version after the one it was planned on
   * (empty if there is nothing to commit; a commit rebased onto later versions may differ in its
   * row ids and in-commit timestamp).
   */
  public List<String> actions() {
    return content == null ? List.of() : content.lines(seenVersion + 1, features);
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
