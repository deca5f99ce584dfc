package io.lakestream.connectors.delta.merge;

import io.lakestream.connectors.delta.dv.RowIndexBitmap;
import java.util.ArrayList;
import java.util.List;

/**
 * What one MERGE batch does to a table snapshot: the files it removes (each had at least one
 * updated or deleted row) and what replaces each, the new rows, and the change rows for the change
 * data feed.
 *
 * @param readVersion the snapshot version the plan was made on
 * @param filesInTable data files in the snapshot
 * @param candidateFiles files left after partition and statistics pruning (all were read)
 * @param removed the files removed (each had at least one updated or deleted row)
 * @param rewrittenRows copy-on-write: per removed file (same order), the rows of the file(s) that
 *     replace it (its untouched and updated rows), so each rewritten file keeps its key range;
 *     empty lists with deletion vectors
 * @param deletionVectors with deletion vectors: per removed file (same order), its new deletion
 *     vector (its old one and the rows updated or deleted now), with which the same file is added
 *     again; null where every row of the file is gone (removed only); empty in copy-on-write
 * @param movedRows with deletion vectors: the updated rows, written to new files
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
    List<RowIndexBitmap> deletionVectors,
    List<Object[]> movedRows,
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
    return rewrittenRows.stream().mapToInt(List::size).sum()
        + movedRows.size()
        + insertedRows.size();
  }

  /** Whether the batch changes the table at all. */
  boolean changesNothing() {
    return removed.isEmpty() && insertedRows.isEmpty();
  }

  /** Whether the plan marks rows deleted with deletion vectors. */
  boolean usesDeletionVectors() {
    return !deletionVectors.isEmpty();
  }

  /** Collects a plan file by file. Not thread-safe. */
  static final class Builder {
    private final long readVersion;
    private final int filesInTable;
    private final MergeKeyRanges keyRanges;
    private int candidates;
    private final List<TargetFile> removed = new ArrayList<>();
    private final List<List<Object[]>> rewritten = new ArrayList<>();
    private final List<RowIndexBitmap> vectors = new ArrayList<>();
    private final List<Object[]> moved = new ArrayList<>();
    private final List<Object[]> inserts = new ArrayList<>();
    private final List<Object[]> changeRows = new ArrayList<>();
    private final List<String> changeTypes = new ArrayList<>();
    private long updated;
    private long deleted;
    private long copied;

    Builder(long readVersion, int filesInTable, MergeKeyRanges keyRanges) {
      this.readVersion = readVersion;
      this.filesInTable = filesInTable;
      this.keyRanges = keyRanges;
    }

    void candidate() {
      candidates++;
    }

    void changes(List<Object[]> rows, List<String> types, long updated, long deleted) {
      changeRows.addAll(rows);
      changeTypes.addAll(types);
      this.updated += updated;
      this.deleted += deleted;
    }

    /** Copy-on-write: {@code file} is replaced by a file of {@code rows}. */
    void rewrite(TargetFile file, List<Object[]> rows, long copiedRows) {
      removed.add(file);
      rewritten.add(rows);
      copied += copiedRows;
    }

    /** Deletion vectors: {@code file} gets {@code vector} (null: gone), {@code updated} move. */
    void markDeleted(TargetFile file, RowIndexBitmap vector, List<Object[]> updatedRows) {
      removed.add(file);
      rewritten.add(List.of());
      vectors.add(vector);
      moved.addAll(updatedRows);
    }

    void insert(Object[] row) {
      inserts.add(row);
      changeRows.add(row);
      changeTypes.add(MergePlanner.INSERT);
    }

    MergePlan build() {
      return new MergePlan(
          readVersion,
          filesInTable,
          candidates,
          removed,
          rewritten,
          vectors,
          moved,
          inserts,
          changeRows,
          changeTypes,
          updated,
          deleted,
          inserts.size(),
          copied,
          keyRanges);
    }
  }
}
