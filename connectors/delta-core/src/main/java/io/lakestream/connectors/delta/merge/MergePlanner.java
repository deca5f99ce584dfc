package io.lakestream.connectors.delta.merge;

import io.delta.kernel.Snapshot;
import io.delta.kernel.data.Row;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.exceptions.KernelException;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.delta.DeltaAddedFile;
import io.lakestream.connectors.delta.DeltaDataFileReader;
import io.lakestream.connectors.delta.DeltaErrorClass;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableException;
import io.lakestream.connectors.delta.dv.DeletionVectorStore;
import io.lakestream.connectors.delta.dv.RowIndexBitmap;
import io.lakestream.connectors.delta.kernel.KernelColumnMapping;
import io.lakestream.connectors.delta.kernel.KernelScanFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Plans a MERGE batch on a snapshot (Flink-free, no writes): lists the snapshot's data files with
 * their statistics, keeps the candidates that may hold a source key ({@link MergeKeyRanges}), reads
 * only those (skipping the rows their deletion vectors delete), applies the clauses row by row, and
 * collects the files with at least one updated or deleted row, the new rows and the change rows.
 * Copy-on-write: such a file is rewritten whole (its untouched and updated rows). With deletion
 * vectors: its touched rows join its deletion vector and only the updated rows are written anew.
 * With row tracking enabled, every row written anew from a target file carries its row id (and,
 * when copied unchanged, its commit version) in the materialized columns, so rows keep their ids.
 * The candidate files are read in parallel on the given {@link ParallelFileTasks} (one task per
 * file, outcomes put together in file order, so the plan does not depend on the threads' timing).
 */
final class MergePlanner {
  static final String INSERT = "insert";
  static final String DELETE = "delete";
  static final String PREIMAGE = "update_preimage";
  static final String POSTIMAGE = "update_postimage";

  private final DeltaMerge merge;
  private final MergeKeys keys;
  private final boolean deletionVectors;
  private final List<String> materialized;
  private final ParallelFileTasks tasks;

  /**
   * @param deletionVectors mark matched rows deleted in their files instead of rewriting the files
   * @param materialized the row id and commit version columns rows written anew carry, or empty
   */
  MergePlanner(DeltaMerge merge, boolean deletionVectors, List<String> materialized) {
    this(merge, deletionVectors, materialized, new ParallelFileTasks(1));
  }

  /**
   * @param tasks runs the reading of the candidate files (one task per file)
   */
  MergePlanner(
      DeltaMerge merge,
      boolean deletionVectors,
      List<String> materialized,
      ParallelFileTasks tasks) {
    this.merge = merge;
    this.keys = new MergeKeys(merge.schema(), merge.keyColumns());
    this.deletionVectors = deletionVectors;
    this.materialized = materialized;
    this.tasks = tasks;
  }

  MergeKeys keys() {
    return keys;
  }

  /** What the clauses did to one candidate file. */
  private static final class FileOutcome {
    final List<Object[]> kept = new ArrayList<>(); // copy-on-write: the rewritten file's rows
    final List<Object[]> moved = new ArrayList<>(); // deletion vectors: the updated rows
    final RowIndexBitmap touched = new RowIndexBitmap();
    final List<Object[]> changes = new ArrayList<>();
    final List<String> types = new ArrayList<>();
    final List<List<Object>> matchedKeys = new ArrayList<>(); // source keys found in the file
    RowIndexBitmap vector; // deletion vectors: the file's new vector (null: every row gone)
    long live;
    long updated;
    long deleted;

    boolean changed() {
      return updated + deleted > 0;
    }
  }

  /**
   * Plans the batch on {@code snapshot}, whose data files are {@code files} ({@link #files} or a
   * {@link MergeFileIndex} view of the same version).
   *
   * @throws DuplicateMergeKeyException see {@link DeltaMerge}
   * @throws io.lakestream.api.error.LakestreamException if a source row is too short or an update
   *     changes a key
   * @throws DeltaTableException if a file or deletion vector cannot be read
   */
  MergePlan plan(Snapshot snapshot, List<TargetFile> files, List<Object[]> sourceRows) {
    DeltaTable table = merge.table();
    MergeSource source = MergeSource.of(merge, keys, sourceRows);
    MergeKeyRanges ranges =
        new MergeKeyRanges(keys, merge.schema().partitionColumns(), source.byKey().keySet());
    DeltaDataFileReader reader =
        new DeltaDataFileReader(
            table,
            snapshot.getSchema().toJson(),
            merge.schema().partitionColumns(),
            snapshot.getSchema().fieldNames(),
            KernelColumnMapping.mode(snapshot.getTableProperties()),
            materialized);
    DeletionVectorStore store = new DeletionVectorStore(table);
    MergePlan.Builder plan = new MergePlan.Builder(snapshot.getVersion(), files.size(), ranges);
    List<TargetFile> candidates = new ArrayList<>();
    for (TargetFile file : files) {
      if (ranges.mayContainAny(file.partitionValues(), file.statsJson())) {
        plan.candidate();
        candidates.add(file);
      }
    }
    // One task per candidate file; the outcomes come back in file order, so the plan is the
    // same whatever the threads' timing.
    List<FileOutcome> outcomes =
        tasks.map("read", candidates, file -> apply(reader, snapshot, file, source, store));
    Set<List<Object>> matchedKeys = new HashSet<>();
    for (int i = 0; i < candidates.size(); i++) {
      FileOutcome outcome = outcomes.get(i);
      matchedKeys.addAll(outcome.matchedKeys);
      if (outcome.changed()) {
        addChanged(plan, candidates.get(i), outcome);
      }
    }
    addInserts(plan, source, matchedKeys);
    return plan.build();
  }

  private void addChanged(MergePlan.Builder plan, TargetFile file, FileOutcome outcome) {
    plan.changes(outcome.changes, outcome.types, outcome.updated, outcome.deleted);
    if (!deletionVectors) {
      plan.rewrite(file, outcome.kept, outcome.kept.size() - outcome.updated);
      return;
    }
    plan.markDeleted(file, outcome.vector, outcome.moved);
  }

  /** Deletion vectors: the file's old vector with the rows touched now; null if none is left. */
  private void newVector(DeletionVectorStore store, TargetFile file, FileOutcome outcome) {
    if (!deletionVectors || !outcome.changed()) {
      return;
    }
    RowIndexBitmap vector =
        file.deletionVector() == null ? new RowIndexBitmap() : store.load(file.deletionVector());
    vector.addAll(outcome.touched);
    boolean empty = outcome.live == outcome.touched.cardinality();
    outcome.vector = empty ? null : vector;
  }

  private FileOutcome apply(
      DeltaDataFileReader reader,
      Snapshot snapshot,
      TargetFile file,
      MergeSource source,
      DeletionVectorStore store) {
    FileOutcome out = new FileOutcome();
    DeltaAddedFile added =
        new DeltaAddedFile(
            file.absolutePath(),
            snapshot.getVersion(),
            0,
            true,
            file.partitionValues(),
            file.size(),
            -1,
            file.deletionVector());
    try (DeltaDataFileReader.Rows rows = reader.open(added)) {
      while (rows.hasNext()) {
        Object[] target = rows.next();
        out.live++;
        List<Object> key = keys.keyOf(target);
        Object[] src = key == null ? null : source.byKey().get(key);
        DeltaMerge.MatchedClause clause = src == null ? null : firstApplying(src, target);
        if (src != null) {
          out.matchedKeys.add(key);
        }
        Long rowId = rowId(file, rows);
        if (clause == null) {
          out.kept.add(withIdentity(target, rowId, commitVersion(file, rows)));
        } else {
          applyClause(out, clause, src, target, key, rows.rowIndex(), rowId);
        }
      }
    } catch (IOException e) {
      throw new DeltaTableException(
          DeltaErrorClass.DELTA_TABLE_READ_FAILED,
          "Cannot read " + file.absolutePath() + ": " + e,
          e);
    }
    newVector(store, file, out);
    return out;
  }

  private void applyClause(
      FileOutcome out,
      DeltaMerge.MatchedClause clause,
      Object[] src,
      Object[] target,
      List<Object> key,
      long rowIndex,
      Long rowId) {
    out.touched.add(rowIndex);
    out.changes.add(target);
    if (clause.action() == DeltaMerge.MatchedAction.DELETE) {
      out.types.add(DELETE);
      out.deleted++;
      return;
    }
    int width = merge.schema().columns().size();
    Object[] after =
        clause.assignment() == null
            ? Arrays.copyOf(src, width)
            : checkUpdate(clause.assignment().apply(src, target.clone()), key);
    (deletionVectors ? out.moved : out.kept).add(withIdentity(after, rowId, null));
    out.types.add(PREIMAGE);
    out.changes.add(after);
    out.types.add(POSTIMAGE);
    out.updated++;
  }

  private void addInserts(
      MergePlan.Builder plan, MergeSource source, Set<List<Object>> matchedKeys) {
    if (merge.insertCondition().isEmpty()) {
      return;
    }
    MergeCondition condition = merge.insertCondition().get();
    int width = merge.schema().columns().size();
    List<Object[]> unmatched = new ArrayList<>(source.nullKeyRows());
    for (Map.Entry<List<Object>, Object[]> e : source.byKey().entrySet()) {
      if (!matchedKeys.contains(e.getKey())) {
        unmatched.add(e.getValue());
      }
    }
    for (Object[] src : unmatched) {
      if (condition.test(src, null)) {
        plan.insert(withIdentity(Arrays.copyOf(src, width), null, null));
      }
    }
  }

  /** A target row's stable id: its materialized one, else its file's first id plus its index. */
  private Long rowId(TargetFile file, DeltaDataFileReader.Rows rows) {
    return materialized.isEmpty() ? null : rows.stableRowId(file.baseRowId());
  }

  /** A target row's commit version: its materialized one, else its file's default. */
  private Long commitVersion(TargetFile file, DeltaDataFileReader.Rows rows) {
    return materialized.isEmpty() ? null : rows.rowCommitVersion(file.defaultRowCommitVersion());
  }

  /**
   * {@code row} as a new data file holds it: with row ids materialized, followed by its id and
   * commit version (null: assigned by the new file, as for new rows and, for versions, updates).
   */
  private Object[] withIdentity(Object[] row, Long rowId, Long commitVersion) {
    if (materialized.isEmpty()) {
      return row;
    }
    int width = merge.schema().columns().size();
    Object[] out = Arrays.copyOf(row, width + 2);
    out[width] = rowId;
    out[width + 1] = commitVersion;
    return out;
  }

  private DeltaMerge.MatchedClause firstApplying(Object[] source, Object[] target) {
    for (DeltaMerge.MatchedClause clause : merge.matchedClauses()) {
      if (clause.condition().test(source, target)) {
        return clause;
      }
    }
    return null;
  }

  private Object[] checkUpdate(Object[] after, List<Object> key) {
    int width = merge.schema().columns().size();
    if (after == null || after.length != width) {
      throw new LakestreamException(
          DeltaErrorClass.DELTA_INVALID_MERGE,
          "A whenMatchedUpdate assignment returned "
              + (after == null ? "null" : after.length + " values")
              + " for key "
              + keys.describe(key)
              + "; it must return the table's "
              + width
              + " columns "
              + merge.schema().columnNames());
    }
    if (!key.equals(keys.keyOf(after))) {
      throw new LakestreamException(
          DeltaErrorClass.DELTA_INVALID_MERGE,
          "A whenMatchedUpdate assignment changed the merge key "
              + keys.describe(key)
              + " to "
              + keys.keyOf(after)
              + "; key columns "
              + merge.keyColumns()
              + " must keep their values (delete and insert instead)");
    }
    return after;
  }

  /** The snapshot's data files with their statistics. */
  static List<TargetFile> files(Engine engine, Snapshot snapshot) {
    List<TargetFile> files = new ArrayList<>();
    try {
      KernelScanFile.forEach(
          engine,
          snapshot.getScanBuilder().build(),
          true,
          scanFile -> files.add(targetFile(scanFile)));
    } catch (IOException | UncheckedIOException | KernelException e) {
      throw new DeltaTableException(
          DeltaErrorClass.DELTA_TABLE_READ_FAILED,
          "Cannot list the data files of version " + snapshot.getVersion() + ": " + e.getMessage(),
          e);
    }
    return files;
  }

  private static TargetFile targetFile(KernelScanFile scanFile) {
    Row add = scanFile.addAction();
    String absolute = scanFile.status().getPath();
    return new TargetFile(
        add.getString(add.getSchema().indexOf("path")),
        absolute,
        scanFile.partitionValues(),
        add.getLong(add.getSchema().indexOf("size")),
        scanFile.status().getModificationTime(),
        scanFile.stats(),
        scanFile.deletionVector(),
        scanFile.baseRowId().orElse(null),
        scanFile.defaultRowCommitVersion().orElse(null));
  }
}
