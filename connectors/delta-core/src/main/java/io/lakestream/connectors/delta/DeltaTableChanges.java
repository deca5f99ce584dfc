package io.lakestream.connectors.delta;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.delta.kernel.CommitActions;
import io.delta.kernel.CommitRangeBuilder.CommitBoundary;
import io.delta.kernel.Snapshot;
import io.delta.kernel.Table;
import io.delta.kernel.TableManager;
import io.delta.kernel.data.ColumnVector;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.data.FilteredColumnarBatch;
import io.delta.kernel.data.MapValue;
import io.delta.kernel.data.Row;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.exceptions.KernelException;
import io.delta.kernel.exceptions.TableNotFoundException;
import io.delta.kernel.internal.DeltaLogActionUtils.DeltaAction;
import io.delta.kernel.internal.InternalScanFileUtils;
import io.delta.kernel.internal.fs.Path;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.FileStatus;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The data files a streaming reader of a Delta table admits, in a deterministic order: the files of
 * an initial snapshot (sorted by modification time, then path, as Spark's Delta source does), and
 * the files each later version adds. Flink-free.
 *
 * <p>Per version, as Spark's Delta streaming source: {@code add} actions with {@code
 * dataChange=true} are new data; a version whose actions all have {@code dataChange=false} (a
 * compaction, {@code OPTIMIZE}) contributes nothing. A version with a {@code remove} with {@code
 * dataChange=true} changes existing data: it fails with {@link DeltaChangeCommitException}, unless
 * {@code skipChangeCommits} (the whole version is skipped, its adds too) or {@code ignoreDeletes}
 * and the version adds no data (a pure delete is skipped). A version that changes the table's
 * schema fails with a {@link DeltaTableException} naming the version. Data files with deletion
 * vectors are refused (the message names the file).
 */
public final class DeltaTableChanges {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final DeltaTable table;
  private final String schemaJson;
  private final boolean skipChangeCommits;
  private final boolean ignoreDeletes;

  /**
   * @param table the table
   * @param schemaJson the schema the reader was built for ({@link StructType#toJson()}); a version
   *     that changes it fails
   * @param skipChangeCommits skip versions that remove or rewrite data (Spark's option name)
   * @param ignoreDeletes skip versions that only remove data (Spark's option name)
   */
  public DeltaTableChanges(
      DeltaTable table, String schemaJson, boolean skipChangeCommits, boolean ignoreDeletes) {
    this.table = Objects.requireNonNull(table, "table");
    this.schemaJson = Objects.requireNonNull(schemaJson, "schemaJson");
    this.skipChangeCommits = skipChangeCommits;
    this.ignoreDeletes = ignoreDeletes;
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
   * Every data file of {@code version}, ordered by modification time then path, indexed from 0.
   *
   * @throws DeltaTableException if the version is not available or cannot be read
   */
  public List<DeltaAddedFile> snapshotFiles(long version) {
    Engine engine = table.engine();
    Snapshot snapshot;
    try {
      snapshot = table.kernelTable().getSnapshotAsOfVersion(engine, version);
    } catch (TableNotFoundException e) {
      throw new DeltaTableException(
          DeltaErrorClass.DELTA_TABLE_NOT_FOUND, "No Delta table at " + table.path(), e);
    } catch (KernelException | IllegalArgumentException | UncheckedIOException e) {
      throw new DeltaTableException(
          DeltaErrorClass.DELTA_TABLE_READ_FAILED,
          "Cannot read version " + version + " of the Delta table at " + table.path() + ": " + e,
          e);
    }
    List<long[]> times = new ArrayList<>();
    List<DeltaAddedFile> files = new ArrayList<>();
    try (CloseableIterator<FilteredColumnarBatch> scanFiles =
        snapshot.getScanBuilder().build().getScanFiles(engine, true)) {
      while (scanFiles.hasNext()) {
        try (CloseableIterator<Row> rows = scanFiles.next().getRows()) {
          while (rows.hasNext()) {
            Row scanFile = rows.next();
            FileStatus status = InternalScanFileUtils.getAddFileStatus(scanFile);
            Row add = scanFile.getStruct(scanFile.getSchema().indexOf("add"));
            int stats = add.getSchema().indexOf("stats");
            if (InternalScanFileUtils.getDeletionVectorDescriptorFromRow(scanFile) != null) {
              throw deletionVector(status.getPath(), version);
            }
            files.add(
                new DeltaAddedFile(
                    status.getPath(),
                    version,
                    files.size(),
                    true,
                    InternalScanFileUtils.getPartitionValues(scanFile),
                    status.getSize(),
                    numRecords(stats < 0 || add.isNullAt(stats) ? null : add.getString(stats))));
            times.add(new long[] {status.getModificationTime()});
          }
        }
      }
    } catch (IOException | UncheckedIOException | KernelException e) {
      throw new DeltaTableException(
          DeltaErrorClass.DELTA_TABLE_READ_FAILED,
          "Cannot list the files of version " + version + " of " + table.path() + ": " + e,
          e);
    }
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < files.size(); i++) {
      order.add(i);
    }
    order.sort(
        Comparator.<Integer>comparingLong(i -> times.get(i)[0])
            .thenComparing(i -> files.get(i).path()));
    List<DeltaAddedFile> sorted = new ArrayList<>(files.size());
    for (int i : order) {
      DeltaAddedFile f = files.get(i);
      sorted.add(
          new DeltaAddedFile(
              f.path(),
              version,
              sorted.size(),
              true,
              f.partitionValues(),
              f.size(),
              f.numRecords()));
    }
    return sorted;
  }

  /**
   * The data files versions {@code from..to} (inclusive) add, in version then commit order, each
   * version's files indexed from 0; versions are skipped or refused as the class comment says.
   *
   * @throws DeltaChangeCommitException for a version that changes existing data
   * @throws DeltaTableException if a version changes the schema or cannot be read (e.g. its commit
   *     file was removed by log cleanup)
   */
  public List<DeltaAddedFile> versionFiles(long from, long to) {
    if (from > to) {
      return List.of();
    }
    Engine engine = table.engine();
    List<DeltaAddedFile> out = new ArrayList<>();
    try {
      String root = Table.forPath(engine, table.path()).getPath(engine);
      try (CloseableIterator<CommitActions> commits =
          TableManager.loadCommitRange(root, CommitBoundary.atVersion(from))
              .withEndBoundary(CommitBoundary.atVersion(to))
              .build(engine)
              .getCommitActions(
                  engine, Set.of(DeltaAction.ADD, DeltaAction.REMOVE, DeltaAction.METADATA))) {
        while (commits.hasNext()) {
          try (CommitActions commit = commits.next()) {
            out.addAll(filesOf(root, commit));
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
              + " (commits removed by log cleanup cannot be read: restart from a later"
              + " startingVersion): "
              + e.getMessage(),
          e);
    }
    return out;
  }

  private List<DeltaAddedFile> filesOf(String root, CommitActions commit) throws IOException {
    long version = commit.getVersion();
    List<DeltaAddedFile> adds = new ArrayList<>();
    boolean removesData = false;
    boolean changesMetadata = false;
    try (CloseableIterator<ColumnarBatch> batches = commit.getActions()) {
      while (batches.hasNext()) {
        ColumnarBatch batch = batches.next();
        ColumnVector add = batch.getColumnVector(batch.getSchema().indexOf("add"));
        ColumnVector remove = batch.getColumnVector(batch.getSchema().indexOf("remove"));
        ColumnVector metadata = batch.getColumnVector(batch.getSchema().indexOf("metaData"));
        for (int r = 0; r < batch.getSize(); r++) {
          if (!metadata.isNullAt(r)) {
            changesMetadata = true;
          }
          if (!remove.isNullAt(r) && bool(remove, "dataChange", r)) {
            removesData = true;
          }
          if (!add.isNullAt(r) && bool(add, "dataChange", r)) {
            String path = resolve(root, child(add, "path").getString(r));
            if (!child(add, "deletionVector").isNullAt(r)) {
              throw deletionVector(path, version);
            }
            adds.add(
                new DeltaAddedFile(
                    path,
                    version,
                    adds.size(),
                    false,
                    map(child(add, "partitionValues"), r),
                    child(add, "size").getLong(r),
                    numRecords(stats(add, r))));
          }
        }
      }
    }
    if (changesMetadata) {
      checkSchema(version);
    }
    if (!removesData) {
      return adds;
    }
    if (skipChangeCommits || (ignoreDeletes && adds.isEmpty())) {
      return List.of();
    }
    throw new DeltaChangeCommitException(
        "Version "
            + version
            + " of the Delta table at "
            + table.path()
            + " removes or changes existing data (a remove action with dataChange=true, e.g."
            + " DELETE, UPDATE, MERGE or overwrite); a streaming read of the table is append-only."
            + " Set the source option skipChangeCommits=true to skip such versions entirely, or"
            + " restart the query with a new checkpoint location and startingVersion "
            + (version + 1)
            + " or later.",
        version);
  }

  private void checkSchema(long version) {
    Snapshot snapshot = table.kernelTable().getSnapshotAsOfVersion(table.engine(), version);
    String actual = snapshot.getSchema().toJson();
    if (!actual.equals(schemaJson)) {
      throw new DeltaTableException(
          DeltaErrorClass.DELTA_SCHEMA_CHANGED,
          "Version "
              + version
              + " of the Delta table at "
              + table.path()
              + " changes the table schema to "
              + snapshot.getSchema()
              + "; the stream was started with a different schema. Restart the query so it"
              + " reads the new schema (with a new checkpoint location and startingVersion "
              + version
              + " to continue from this version).");
    }
  }

  private DeltaTableException deletionVector(String path, long version) {
    return new DeltaTableException(
        DeltaErrorClass.DELTA_UNSUPPORTED_FEATURE,
        "Data file "
            + path
            + " (version "
            + version
            + ") of the Delta table at "
            + table.path()
            + " has a deletion vector, which the Delta streaming source does not read; disable"
            + " deletion vectors on the table (delta.enableDeletionVectors=false) and rewrite it"
            + " (REORG TABLE ... APPLY (PURGE)).");
  }

  private static String stats(ColumnVector add, int row) {
    int ordinal = ((StructType) add.getDataType()).indexOf("stats");
    return ordinal < 0 || add.getChild(ordinal).isNullAt(row)
        ? null
        : add.getChild(ordinal).getString(row);
  }

  /** {@code numRecords} of a file's statistics JSON, or -1. */
  private static long numRecords(String stats) {
    if (stats == null || stats.isEmpty()) {
      return -1;
    }
    try {
      JsonNode n = JSON.readTree(stats).get("numRecords");
      return n == null || !n.canConvertToLong() ? -1 : n.asLong();
    } catch (IOException e) {
      return -1;
    }
  }

  private static ColumnVector child(ColumnVector struct, String name) {
    return struct.getChild(((StructType) struct.getDataType()).indexOf(name));
  }

  private static boolean bool(ColumnVector struct, String name, int row) {
    ColumnVector v = child(struct, name);
    return v.isNullAt(row) || v.getBoolean(row); // dataChange defaults to true
  }

  private static Map<String, String> map(ColumnVector vector, int row) {
    Map<String, String> out = new LinkedHashMap<>();
    if (vector.isNullAt(row)) {
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

  /** The absolute path of an add action's (URL-encoded, usually relative) path. */
  private static String resolve(String root, String path) {
    URI uri = URI.create(path);
    return (uri.isAbsolute() ? new Path(uri) : new Path(root, new Path(uri))).toString();
  }
}
