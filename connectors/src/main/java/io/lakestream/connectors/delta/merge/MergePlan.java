package io.lakestream.connectors.delta.merge;

import java.util.List;

/**
 * What one MERGE batch does to a table snapshot: the files it rewrites (removes), the rows of the
 * new data files (the untouched rows of rewritten files, updated rows and inserted rows), and the
 * change rows for the change data feed.
 *
 * @param readVersion the snapshot version the plan was made on
 * @param filesInTable data files in the snapshot
 * @param candidateFiles files left after partition and statistics pruning (all were read)
 * @param removed the files rewritten (each had at least one updated or deleted row)
 * @param newRows rows of the new data files
 * @param changeRows rows of the change data files, parallel to {@code changeTypes}
 * @param changeTypes {@code update_preimage}, {@code update_postimage}, {@code delete} or {@code
 *     insert}
 * @param rowsUpdated target rows updated
 * @param rowsDeleted target rows deleted
 * @param rowsInserted source rows inserted
 * @param rowsCopied unchanged rows copied from rewritten files
 * @param keyRanges the batch's source keys, for checking concurrent commits
 */
record MergePlan(
    long readVersion,
    int filesInTable,
    int candidateFiles,
    List<TargetFile> removed,
    List<Object[]> newRows,
    List<Object[]> changeRows,
    List<String> changeTypes,
    long rowsUpdated,
    long rowsDeleted,
    long rowsInserted,
    long rowsCopied,
    MergeKeyRanges keyRanges) {

  /** Whether the batch changes the table at all. */
  boolean changesNothing() {
    return removed.isEmpty() && newRows.isEmpty();
  }
}
