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
 * @param rewrittenRows per removed file (same order), the rows of the file(s) that replace it (its
 *     untouched and updated rows), so each rewritten file keeps its key range
 * @param insertedRows inserted rows, written to files of their own so the rewritten files keep
 *     their key ranges (and later batches can still prune by them)
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
    List<List<Object[]>> rewrittenRows,
    List<Object[]> insertedRows,
    List<Object[]> changeRows,
    List<String> changeTypes,
    long rowsUpdated,
    long rowsDeleted,
    long rowsInserted,
    long rowsCopied,
    MergeKeyRanges keyRanges) {

  /** Rows of all new data files. */
  int newRowCount() {
    return rewrittenRows.stream().mapToInt(List::size).sum() + insertedRows.size();
  }

  /** Whether the batch changes the table at all. */
  boolean changesNothing() {
    return removed.isEmpty() && insertedRows.isEmpty();
  }
}
