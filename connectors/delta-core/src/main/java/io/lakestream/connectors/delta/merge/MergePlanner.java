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
import io.lakestream.connectors.delta.DeltaTableSchema;
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
 * Plans a copy-on-write MERGE batch on a snapshot (Flink-free, no writes): lists the snapshot's
 * data files with their statistics, keeps the candidates that may hold a source key ({@link
 * MergeKeyRanges}), reads only those, applies the clauses row by row, and collects the files with
 * at least one updated or deleted row (to be rewritten whole), the new rows and the change rows.
 */
final class MergePlanner {
  static final String INSERT = "insert";
  static final String DELETE = "delete";
  static final String PREIMAGE = "update_preimage";
  static final String POSTIMAGE = "update_postimage";

  private final DeltaMerge merge;
  private final MergeKeys keys;

  MergePlanner(DeltaMerge merge) {
    this.merge = merge;
    this.keys = new MergeKeys(merge.schema(), merge.keyColumns());
  }

  MergeKeys keys() {
    return keys;
  }

  /**
   * @throws DuplicateMergeKeyException see {@link DeltaMerge}
   * @throws io.lakestream.api.error.LakestreamException if a source row is too short or an update
   *     changes a key
   * @throws DeltaTableException if a file has a deletion vector or cannot be read
   */
  MergePlan plan(Snapshot snapshot, List<Object[]> sourceRows) {
    DeltaTable table = merge.table();
    DeltaTableSchema schema = merge.schema();
    int width = schema.columns().size();
    MergeSource source = MergeSource.of(merge, keys, sourceRows);
    MergeKeyRanges ranges =
        new MergeKeyRanges(keys, schema.partitionColumns(), source.byKey().keySet());
    List<TargetFile> files = files(table.engine(), snapshot);
    DeltaDataFileReader reader =
        new DeltaDataFileReader(table, snapshot.getSchema().toJson(), schema.partitionColumns());

    List<TargetFile> removed = new ArrayList<>();
    List<List<Object[]>> rewritten = new ArrayList<>();
    List<Object[]> inserts = new ArrayList<>();
    List<Object[]> changeRows = new ArrayList<>();
    List<String> changeTypes = new ArrayList<>();
    Set<List<Object>> matchedKeys = new HashSet<>();
    long updated = 0;
    long deleted = 0;
    long copied = 0;
    int candidates = 0;
    for (TargetFile file : files) {
      if (!ranges.mayContainAny(file.partitionValues(), file.statsJson())) {
        continue;
      }
      candidates++;
      List<Object[]> kept = new ArrayList<>();
      List<Object[]> fileChanges = new ArrayList<>();
      List<String> fileTypes = new ArrayList<>();
      long fileUpdated = 0;
      long fileDeleted = 0;
      try (DeltaDataFileReader.Rows rows =
          reader.open(
              new DeltaAddedFile(
                  file.absolutePath(),
                  snapshot.getVersion(),
                  0,
                  true,
                  file.partitionValues(),
                  file.size(),
                  -1))) {
        while (rows.hasNext()) {
          Object[] target = rows.next();
          List<Object> key = keys.keyOf(target);
          Object[] src = key == null ? null : source.byKey().get(key);
          if (src == null) {
            kept.add(target);
            continue;
          }
          matchedKeys.add(key);
          DeltaMerge.MatchedClause clause = firstApplying(src, target);
          if (clause == null) {
            kept.add(target);
          } else if (clause.action() == DeltaMerge.MatchedAction.DELETE) {
            fileChanges.add(target);
            fileTypes.add(DELETE);
            fileDeleted++;
          } else {
            Object[] after =
                clause.assignment() == null
                    ? Arrays.copyOf(src, width)
                    : checkUpdate(clause.assignment().apply(src, target.clone()), key);
            kept.add(after);
            fileChanges.add(target);
            fileTypes.add(PREIMAGE);
            fileChanges.add(after);
            fileTypes.add(POSTIMAGE);
            fileUpdated++;
          }
        }
      } catch (IOException e) {
        throw new DeltaTableException(
            DeltaErrorClass.DELTA_TABLE_READ_FAILED,
            "Cannot read " + file.absolutePath() + ": " + e,
            e);
      }
      if (fileUpdated + fileDeleted > 0) {
        removed.add(file);
        rewritten.add(kept);
        changeRows.addAll(fileChanges);
        changeTypes.addAll(fileTypes);
        updated += fileUpdated;
        deleted += fileDeleted;
        copied += kept.size() - fileUpdated;
      }
    }
    long inserted = 0;
    if (merge.insertCondition().isPresent()) {
      MergeCondition condition = merge.insertCondition().get();
      List<Object[]> unmatched = new ArrayList<>(source.nullKeyRows());
      for (Map.Entry<List<Object>, Object[]> e : source.byKey().entrySet()) {
        if (!matchedKeys.contains(e.getKey())) {
          unmatched.add(e.getValue());
        }
      }
      for (Object[] src : unmatched) {
        if (condition.test(src, null)) {
          Object[] row = Arrays.copyOf(src, width);
          inserts.add(row);
          changeRows.add(row);
          changeTypes.add(INSERT);
          inserted++;
        }
      }
    }
    return new MergePlan(
        snapshot.getVersion(),
        files.size(),
        candidates,
        removed,
        rewritten,
        inserts,
        changeRows,
        changeTypes,
        updated,
        deleted,
        inserted,
        copied,
        ranges);
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
    if (scanFile.hasDeletionVector()) {
      throw new DeltaTableException(
          DeltaErrorClass.DELTA_UNSUPPORTED_FEATURE,
          "Data file "
              + absolute
              + " has a deletion vector, which the lakestream MERGE does not read. Set"
              + " delta.enableDeletionVectors=false on the table and purge them (REORG"
              + " TABLE ... APPLY (PURGE)) before merging into it.");
    }
    return new TargetFile(
        add.getString(add.getSchema().indexOf("path")),
        absolute,
        scanFile.partitionValues(),
        add.getLong(add.getSchema().indexOf("size")),
        scanFile.stats());
  }
}
