package io.lakestream.connectors.delta.cdf;

import io.delta.kernel.CommitActions;
import io.delta.kernel.CommitRangeBuilder.CommitBoundary;
import io.delta.kernel.Snapshot;
import io.delta.kernel.Table;
import io.delta.kernel.TableManager;
import io.delta.kernel.data.ColumnVector;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.data.MapValue;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.internal.DeltaLogActionUtils.DeltaAction;
import io.delta.kernel.internal.fs.Path;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.CloseableIterator;
import io.lakestream.connectors.delta.DeltaAddedFile;
import io.lakestream.connectors.delta.DeltaErrorClass;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableChanges;
import io.lakestream.connectors.delta.DeltaTableException;
import io.lakestream.connectors.delta.DeltaTableReader;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The change files of a range of Delta table versions, as Delta's change data feed defines them.
 * Flink-free; shared by the batch {@link DeltaChangeDataFeed} and the streaming CDF source.
 *
 * <p>Per version: if its commit has any {@code cdc} action, only its cdc files (under {@code
 * _change_data/}, rows carry {@code _change_type}) are change files; otherwise each {@code add}
 * with {@code dataChange=true} is a file of inserts and each {@code remove} with {@code
 * dataChange=true} a file of deletes (the removed file is still there until VACUUM). Versions whose
 * actions all have {@code dataChange=false} (OPTIMIZE, compaction) have no change files.
 *
 * <p>Failures, all naming the table: {@link ChangeDataFeedNotEnabledException} for a version at
 * which the metadata in effect does not set {@code delta.enableChangeDataFeed=true}; a {@link
 * DeltaTableException} for a version range outside the table's history, a version that changes the
 * table schema away from the one the reader was built for, a data file with a deletion vector, or
 * an unreadable log.
 */
public final class DeltaChangeLog {
  /** The table property that makes writers record the change data feed. */
  public static final String ENABLE_PROPERTY = "delta.enableChangeDataFeed";

  private final DeltaTable table;
  private final String schemaJson;

  /**
   * @param table the table
   * @param schemaJson the schema rows are read with ({@link StructType#toJson()}); a version in
   *     effect with another schema fails
   */
  public DeltaChangeLog(DeltaTable table, String schemaJson) {
    this.table = Objects.requireNonNull(table, "table");
    this.schemaJson = Objects.requireNonNull(schemaJson, "schemaJson");
  }

  public DeltaTable table() {
    return table;
  }

  /**
   * The latest version of the table.
   *
   * @throws DeltaTableException if there is no table or its log cannot be read
   */
  public long latestVersion() {
    return table
        .latestSnapshot()
        .orElseThrow(
            () ->
                new DeltaTableException(
                    DeltaErrorClass.DELTA_TABLE_NOT_FOUND, "No Delta table at " + table.path()))
        .getVersion();
  }

  /**
   * The change files of versions {@code from..to} (inclusive), in version order, each version's
   * files indexed from 0.
   *
   * @throws ChangeDataFeedNotEnabledException for the first version in the range without the feed
   * @throws DeltaTableException if the range is not in the table's history, see the class comment
   */
  public List<DeltaChangeFile> changeFiles(long from, long to) {
    long latest = latestVersion();
    if (from < 0 || from > to || to > latest) {
      throw new DeltaTableException(
          DeltaErrorClass.DELTA_INVALID_VERSION_RANGE,
          "Change data feed versions "
              + from
              + " to "
              + to
              + " of the Delta table at "
              + table.path()
              + " are not a valid range: the start must be >= 0 and <= the end, and the end <= the"
              + " latest version "
              + latest);
    }
    Engine engine = table.engine();
    checkVersion(from, snapshotAt(from));
    List<DeltaChangeFile> out = new ArrayList<>();
    try {
      String root = Table.forPath(engine, table.path()).getPath(engine);
      try (CloseableIterator<CommitActions> commits =
          TableManager.loadCommitRange(root, CommitBoundary.atVersion(from))
              .withEndBoundary(CommitBoundary.atVersion(to))
              .build(engine)
              .getCommitActions(
                  engine,
                  Set.of(
                      DeltaAction.ADD,
                      DeltaAction.REMOVE,
                      DeltaAction.CDC,
                      DeltaAction.METADATA))) {
        while (commits.hasNext()) {
          try (CommitActions commit = commits.next()) {
            out.addAll(filesOf(root, commit, from));
          }
        }
      }
    } catch (DeltaTableException e) {
      throw e;
    } catch (Exception e) {
      throw new DeltaTableException(
          DeltaErrorClass.DELTA_TABLE_READ_FAILED,
          "Cannot read versions "
              + from
              + " to "
              + to
              + " of the Delta table at "
              + table.path()
              + " (commits removed by log cleanup cannot be read: choose a later start version): "
              + e.getMessage(),
          e);
    }
    return out;
  }

  /**
   * The data files of the table as of {@code version}, as {@link DeltaChangeFile.Kind#ADD} files of
   * that version (their rows are inserts stamped with its commit timestamp), indexed from 0 in the
   * order Spark's Delta source reads an initial snapshot (modification time, then path). This is
   * what a change data feed stream without {@code startingVersion} emits first.
   *
   * @throws DeltaTableException if the version is not in the table's history, has another schema
   *     than the one the feed is read with, or holds a file with a deletion vector
   */
  public List<DeltaChangeFile> snapshotFiles(long version) {
    Snapshot snapshot = snapshotAt(version);
    checkSchema(version, snapshot);
    long timestamp = snapshot.getTimestamp(table.engine());
    List<DeltaAddedFile> added =
        new DeltaTableChanges(table, schemaJson, false, false).snapshotFiles(version);
    List<DeltaChangeFile> out = new ArrayList<>(added.size());
    for (DeltaAddedFile file : added) {
      out.add(
          new DeltaChangeFile(
              file.path(),
              version,
              out.size(),
              timestamp,
              DeltaChangeFile.Kind.ADD,
              file.partitionValues(),
              file.size()));
    }
    return out;
  }

  private List<DeltaChangeFile> filesOf(String root, CommitActions commit, long from)
      throws IOException {
    long version = commit.getVersion();
    long timestamp = commit.getTimestamp();
    List<DeltaChangeFile> cdc = new ArrayList<>();
    List<DeltaChangeFile> others = new ArrayList<>();
    boolean changesMetadata = false;
    try (CloseableIterator<ColumnarBatch> batches = commit.getActions()) {
      while (batches.hasNext()) {
        ColumnarBatch batch = batches.next();
        ColumnVector add = column(batch, DeltaAction.ADD);
        ColumnVector remove = column(batch, DeltaAction.REMOVE);
        ColumnVector change = column(batch, DeltaAction.CDC);
        ColumnVector metadata = column(batch, DeltaAction.METADATA);
        for (int r = 0; r < batch.getSize(); r++) {
          changesMetadata |= !metadata.isNullAt(r);
          if (!change.isNullAt(r)) {
            cdc.add(file(root, change, r, version, timestamp, DeltaChangeFile.Kind.CDC));
          }
          if (!add.isNullAt(r) && dataChange(add, r)) {
            refuseDeletionVector(add, r, root, version);
            others.add(file(root, add, r, version, timestamp, DeltaChangeFile.Kind.ADD));
          }
          if (!remove.isNullAt(r) && dataChange(remove, r)) {
            refuseDeletionVector(remove, r, root, version);
            others.add(file(root, remove, r, version, timestamp, DeltaChangeFile.Kind.REMOVE));
          }
        }
      }
    }
    if (changesMetadata && version != from) {
      checkVersion(version, snapshotAt(version));
    }
    List<DeltaChangeFile> chosen = cdc.isEmpty() ? others : cdc;
    List<DeltaChangeFile> indexed = new ArrayList<>(chosen.size());
    for (DeltaChangeFile f : chosen) {
      indexed.add(
          new DeltaChangeFile(
              f.path(),
              version,
              indexed.size(),
              timestamp,
              f.kind(),
              f.partitionValues(),
              f.size()));
    }
    return indexed;
  }

  /** Fails unless the metadata in effect at {@code version} records the feed with our schema. */
  private void checkVersion(long version, Snapshot snapshot) {
    String enabled = snapshot.getTableProperties().get(ENABLE_PROPERTY);
    if (!"true".equalsIgnoreCase(enabled)) {
      throw new ChangeDataFeedNotEnabledException(
          "The change data feed of the Delta table at "
              + table.path()
              + " is not enabled at version "
              + version
              + " ("
              + ENABLE_PROPERTY
              + "="
              + enabled
              + " in the metadata in effect at that version), so its changes were not recorded."
              + " Set the table property "
              + ENABLE_PROPERTY
              + "=true (e.g. ALTER TABLE ... SET TBLPROPERTIES ('"
              + ENABLE_PROPERTY
              + "'='true')); it applies to versions committed afterwards, so read changes from a"
              + " version after the one that enabled it.",
          version);
    }
    checkSchema(version, snapshot);
  }

  private void checkSchema(long version, Snapshot snapshot) {
    String actual = snapshot.getSchema().toJson();
    if (!actual.equals(schemaJson)) {
      throw new DeltaTableException(
          DeltaErrorClass.DELTA_SCHEMA_CHANGED,
          "Version "
              + version
              + " of the Delta table at "
              + table.path()
              + " has the schema "
              + snapshot.getSchema()
              + ", which differs from the schema the change data feed is read with; read the"
              + " versions before and after the schema change separately (a streaming query"
              + " restarts with a new checkpoint location and startingVersion "
              + version
              + ").");
    }
  }

  private Snapshot snapshotAt(long version) {
    return new DeltaTableReader(table).snapshotAtVersion(version);
  }

  private void refuseDeletionVector(ColumnVector action, int row, String root, long version) {
    ColumnVector dv = child(action, "deletionVector");
    if (dv != null && !dv.isNullAt(row)) {
      throw new DeltaTableException(
          DeltaErrorClass.DELTA_UNSUPPORTED_FEATURE,
          "Data file "
              + resolve(root, child(action, "path").getString(row))
              + " (version "
              + version
              + ") of the Delta table at "
              + table.path()
              + " has a deletion vector, which the change data feed reader does not read; disable"
              + " deletion vectors on the table (delta.enableDeletionVectors=false) and rewrite"
              + " it (REORG TABLE ... APPLY (PURGE)), then read changes of later versions.");
    }
  }

  private static DeltaChangeFile file(
      String root,
      ColumnVector action,
      int row,
      long version,
      long timestamp,
      DeltaChangeFile.Kind kind) {
    ColumnVector size = child(action, "size");
    return new DeltaChangeFile(
        resolve(root, child(action, "path").getString(row)),
        version,
        0,
        timestamp,
        kind,
        map(child(action, "partitionValues"), row),
        size == null || size.isNullAt(row) ? 0 : size.getLong(row));
  }

  private static ColumnVector column(ColumnarBatch batch, DeltaAction action) {
    return batch.getColumnVector(batch.getSchema().indexOf(action.colName));
  }

  private static ColumnVector child(ColumnVector struct, String name) {
    int ordinal = ((StructType) struct.getDataType()).indexOf(name);
    return ordinal < 0 ? null : struct.getChild(ordinal);
  }

  private static boolean dataChange(ColumnVector action, int row) {
    ColumnVector v = child(action, "dataChange");
    return v == null || v.isNullAt(row) || v.getBoolean(row); // defaults to true
  }

  private static Map<String, String> map(ColumnVector vector, int row) {
    Map<String, String> out = new LinkedHashMap<>();
    if (vector == null || vector.isNullAt(row)) {
      return out;
    }
    MapValue value = vector.getMap(row);
    ColumnVector keys = value.getKeys();
    ColumnVector values = value.getValues();
    for (int i = 0; i < value.getSize(); i++) {
      out.put(keys.getString(i), values.isNullAt(i) ? null : values.getString(i));
    }
    return out;
  }

  /** The absolute path of an action's (URL-encoded, usually relative) path. */
  private static String resolve(String root, String path) {
    URI uri = URI.create(path);
    return (uri.isAbsolute() ? new Path(uri) : new Path(root, new Path(uri))).toString();
  }
}
