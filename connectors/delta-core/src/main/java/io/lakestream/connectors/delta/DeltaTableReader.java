package io.lakestream.connectors.delta;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.delta.kernel.Scan;
import io.delta.kernel.Snapshot;
import io.delta.kernel.data.ArrayValue;
import io.delta.kernel.data.ColumnVector;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.data.FilteredColumnarBatch;
import io.delta.kernel.data.MapValue;
import io.delta.kernel.data.Row;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.engine.FileReadResult;
import io.delta.kernel.exceptions.KernelEngineException;
import io.delta.kernel.exceptions.KernelException;
import io.delta.kernel.exceptions.TableNotFoundException;
import io.delta.kernel.types.ArrayType;
import io.delta.kernel.types.BinaryType;
import io.delta.kernel.types.BooleanType;
import io.delta.kernel.types.ByteType;
import io.delta.kernel.types.DataType;
import io.delta.kernel.types.DateType;
import io.delta.kernel.types.DecimalType;
import io.delta.kernel.types.DoubleType;
import io.delta.kernel.types.FloatType;
import io.delta.kernel.types.IntegerType;
import io.delta.kernel.types.LongType;
import io.delta.kernel.types.MapType;
import io.delta.kernel.types.ShortType;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.delta.kernel.types.TimestampNTZType;
import io.delta.kernel.types.TimestampType;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.FileStatus;
import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.connectors.delta.kernel.KernelScanFile;
import io.lakestream.connectors.delta.kernel.KernelStateRows;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the rows of a Delta table through Delta Kernel's scan API: the latest version, a given
 * version, or the version current at a given time (time travel). Flink-free; meant for tests, tools
 * and small tables (every row of the version is materialized in memory; {@link #count()} counts big
 * tables from the log's file statistics without reading data).
 *
 * <p>Guarantees: a read sees exactly one table version (a consistent snapshot, never a half
 * commit). Rows are {@code Object[]} in the table's column order (partition columns included, at
 * their declared position) with the Java values {@link DeltaTableWriter} accepts: {@link String},
 * {@link Long}, {@link Integer}, {@link Double}, {@link Boolean}, {@link java.math.BigDecimal} (at
 * the column's scale), {@link Instant} for {@code timestamp}, {@link LocalDate} for {@code date};
 * tables written by other engines may also yield {@link Short}, {@link Byte}, {@link Float}, {@code
 * byte[]} and {@link LocalDateTime} (for {@code timestamp_ntz}). Null stays null. Row order is
 * unspecified. Rows hidden by deletion vectors are left out (Kernel applies them); column mapping
 * is resolved by Kernel.
 *
 * <p>Failures: every failure is a {@link DeltaTableException} whose message names the table path:
 * no table at the path; a version or timestamp outside the table's history (the message names the
 * available versions, or the commit times of the first and last of them); a column of a type this
 * reader does not convert (struct, array, map: the message names the column); or an I/O or Kernel
 * failure while reading the log or data files. Thread-safe: it holds no state besides the table.
 */
@PublicEvolving
public final class DeltaTableReader {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern DELTA_FILE = Pattern.compile("(\\d{20})\\.json");
  private static final Pattern CHECKPOINT_FILE =
      Pattern.compile("(\\d{20})\\.checkpoint(\\..+)?\\.parquet");

  private final DeltaTable table;

  /** A reader of {@code table}; does no I/O until a read. */
  public DeltaTableReader(DeltaTable table) {
    this.table = Objects.requireNonNull(table, "table");
  }

  public DeltaTable table() {
    return table;
  }

  /**
   * The latest committed version.
   *
   * @throws DeltaTableException if there is no table at the path or its log cannot be read
   */
  public long latestVersion() {
    return latest().getVersion();
  }

  /**
   * Column names of the latest version, in table order (the order of each row's values).
   *
   * @throws DeltaTableException if there is no table at the path or its log cannot be read
   */
  public List<String> columnNames() {
    return latest().getSchema().fieldNames();
  }

  /**
   * All rows of the latest version.
   *
   * @throws DeltaTableException see the class comment
   */
  public List<Object[]> readLatest() {
    return read(latest());
  }

  /**
   * All rows of table version {@code version} (time travel).
   *
   * @throws DeltaTableException if the version is not in the table's history (the message names the
   *     available versions), or see the class comment
   */
  public List<Object[]> readVersion(long version) {
    return read(snapshotAt(version));
  }

  /**
   * All rows of the latest version committed at or before {@code timestamp} (time travel by commit
   * time, as Delta's {@code TIMESTAMP AS OF}).
   *
   * @throws DeltaTableException if {@code timestamp} is before the first available commit or after
   *     the latest one (the message names both commit times and versions), or see the class comment
   */
  public List<Object[]> readAsOfTimestamp(Instant timestamp) {
    return read(snapshotAsOf(timestamp));
  }

  /**
   * The number of rows in the latest version, from the {@code numRecords} statistics of its data
   * files minus the rows their deletion vectors remove; a file without statistics is read to count
   * it. Cheap for big tables written with statistics (lakestream and Spark write them).
   *
   * @throws DeltaTableException see the class comment
   */
  public long count() {
    return count(latest());
  }

  /**
   * The number of rows in version {@code version}, as {@link #count()}.
   *
   * @throws DeltaTableException as {@link #readVersion(long)}
   */
  public long countVersion(long version) {
    return count(snapshotAt(version));
  }

  /**
   * The snapshot of version {@code version} (time travel by version).
   *
   * @throws DeltaTableException as {@link #readVersion(long)}
   */
  public Snapshot snapshotAtVersion(long version) {
    return snapshotAt(version);
  }

  /**
   * The latest version committed at or before {@code timestamp}, as Delta's {@code TIMESTAMP AS OF}
   * resolves it.
   *
   * @throws DeltaTableException as {@link #readAsOfTimestamp(Instant)}
   */
  public long versionAsOf(Instant timestamp) {
    return snapshotAsOf(timestamp).getVersion();
  }

  /**
   * The first version committed at or after {@code timestamp}, as Spark's Delta source resolves
   * {@code startingTimestamp}: the earliest available version when {@code timestamp} precedes it.
   *
   * @param option the option the timestamp comes from, for the message
   * @throws DeltaTableException ({@code DELTA_INVALID_VERSION_RANGE}) if {@code timestamp} is after
   *     the latest commit, ({@code DELTA_TABLE_NOT_FOUND}) if there is no table
   */
  public long firstVersionAtOrAfter(Instant timestamp, String option) {
    Snapshot latest = latest();
    Instant last = Instant.ofEpochMilli(latest.getTimestamp(table.engine()));
    if (timestamp.isAfter(last)) {
      throw new DeltaTableException(
          DeltaErrorClass.DELTA_INVALID_VERSION_RANGE,
          option
              + " "
              + timestamp
              + " is after the latest commit of the Delta table at "
              + table.path()
              + " (version "
              + latest.getVersion()
              + " at "
              + last
              + "): no version was committed at or after it. Use an earlier timestamp, or"
              + " startingVersion 'latest' to read only versions committed from now on.");
    }
    long earliest = earliestVersion(latest.getVersion());
    if (!commitTime(earliest).isBefore(timestamp)) {
      return earliest;
    }
    Snapshot atOrBefore = snapshotAsOf(timestamp);
    return atOrBefore.getTimestamp(table.engine()) == timestamp.toEpochMilli()
        ? atOrBefore.getVersion()
        : atOrBefore.getVersion() + 1;
  }

  // ---------------------------------------------------------------- snapshots

  private Snapshot latest() {
    return table
        .latestSnapshot()
        .orElseThrow(
            () ->
                new DeltaTableException(
                    DeltaErrorClass.DELTA_TABLE_NOT_FOUND, "No Delta table at " + table.path()));
  }

  private Snapshot snapshotAt(long version) {
    try {
      return table.kernelTable().getSnapshotAsOfVersion(table.engine(), version);
    } catch (TableNotFoundException e) {
      throw new DeltaTableException(
          DeltaErrorClass.DELTA_TABLE_NOT_FOUND, "No Delta table at " + table.path(), e);
    } catch (KernelException | IllegalArgumentException | UncheckedIOException e) {
      long latest = latestVersion();
      long earliest = earliestVersion(latest);
      if (version < earliest || version > latest) {
        throw new DeltaTableException(
            DeltaErrorClass.DELTA_VERSION_NOT_FOUND,
            "Version "
                + version
                + " of the Delta table at "
                + table.path()
                + " is not available: available versions are "
                + earliest
                + " to "
                + latest
                + " (older versions are gone once log cleanup removed their commits)",
            e);
      }
      throw new DeltaTableException(
          DeltaErrorClass.DELTA_TABLE_READ_FAILED,
          "Cannot read version " + version + " of " + table.path() + ": " + e.getMessage(),
          e);
    }
  }

  private Snapshot snapshotAsOf(Instant timestamp) {
    Objects.requireNonNull(timestamp, "timestamp");
    try {
      return table.kernelTable().getSnapshotAsOfTimestamp(table.engine(), timestamp.toEpochMilli());
    } catch (TableNotFoundException e) {
      throw new DeltaTableException(
          DeltaErrorClass.DELTA_TABLE_NOT_FOUND, "No Delta table at " + table.path(), e);
    } catch (KernelException | IllegalArgumentException | UncheckedIOException e) {
      Snapshot latest = latest();
      long earliest = earliestVersion(latest.getVersion());
      Instant first = commitTime(earliest);
      Instant last = Instant.ofEpochMilli(latest.getTimestamp(table.engine()));
      throw new DeltaTableException(
          DeltaErrorClass.DELTA_VERSION_NOT_FOUND,
          "No version of the Delta table at "
              + table.path()
              + " is current at "
              + timestamp
              + ": available commits are from "
              + first
              + " (version "
              + earliest
              + ") to "
              + last
              + " (version "
              + latest.getVersion()
              + "). Kernel said: "
              + e.getMessage(),
          e);
    }
  }

  private Instant commitTime(long version) {
    try {
      return Instant.ofEpochMilli(
          table
              .kernelTable()
              .getSnapshotAsOfVersion(table.engine(), version)
              .getTimestamp(table.engine()));
    } catch (KernelException | UncheckedIOException e) {
      throw new DeltaTableException(
          DeltaErrorClass.DELTA_TABLE_READ_FAILED,
          "Cannot read the commit time of version " + version + " of " + table.path(),
          e);
    }
  }

  /**
   * The oldest version that can still be reconstructed: 0 if its commit file is still there,
   * otherwise the oldest checkpoint (log cleanup removes older commit files).
   */
  private long earliestVersion(long latest) {
    String log = table.path().replaceAll("/+$", "") + "/_delta_log/";
    long earliestCheckpoint = latest;
    try (CloseableIterator<FileStatus> files =
        table.engine().getFileSystemClient().listFrom(log + String.format("%020d", 0))) {
      while (files.hasNext()) {
        String name = files.next().getPath();
        name = name.substring(name.lastIndexOf('/') + 1);
        Matcher delta = DELTA_FILE.matcher(name);
        if (delta.matches() && Long.parseLong(delta.group(1)) == 0) {
          return 0;
        }
        Matcher checkpoint = CHECKPOINT_FILE.matcher(name);
        if (checkpoint.matches()) {
          earliestCheckpoint = Math.min(earliestCheckpoint, Long.parseLong(checkpoint.group(1)));
        }
      }
    } catch (IOException | UncheckedIOException e) {
      throw new DeltaTableException(
          DeltaErrorClass.DELTA_TABLE_READ_FAILED,
          "Cannot list the Delta log of " + table.path(),
          e);
    }
    return earliestCheckpoint;
  }

  // ---------------------------------------------------------------- rows

  private List<Object[]> read(Snapshot snapshot) {
    Engine engine = table.engine();
    StructType schema = snapshot.getSchema();
    for (StructField field : schema.fields()) {
      requireReadable(field, table, "DeltaTableReader");
    }
    List<Object[]> rows = new ArrayList<>();
    try {
      Scan scan = snapshot.getScanBuilder().build();
      Row scanState = scan.getScanState(engine);
      StructType physicalSchema = KernelStateRows.physicalReadSchema(scanState);
      KernelScanFile.forEach(
          engine,
          scan,
          false,
          file -> readFile(engine, scanState, file, physicalSchema, schema, rows));
    } catch (IOException | UncheckedIOException | KernelException | KernelEngineException e) {
      throw KernelFailures.describe(
          table,
          "Cannot read version " + snapshot.getVersion() + " of the Delta table at",
          e,
          DeltaErrorClass.DELTA_TABLE_READ_FAILED);
    }
    return rows;
  }

  /**
   * Reads one data file, turns its physical data into table rows and appends them to {@code out}.
   */
  private static void readFile(
      Engine engine,
      Row scanState,
      KernelScanFile scanFile,
      StructType physicalSchema,
      StructType schema,
      List<Object[]> out)
      throws IOException {
    FileStatus file = scanFile.status();
    try (CloseableIterator<ColumnarBatch> physical =
            engine
                .getParquetHandler()
                .readParquetFiles(
                    DeltaTableWriter.singleton(file), physicalSchema, Optional.empty())
                .map(FileReadResult::getData);
        CloseableIterator<FilteredColumnarBatch> logical =
            Scan.transformPhysicalData(engine, scanState, scanFile.row(), physical)) {
      while (logical.hasNext()) {
        FilteredColumnarBatch batch = logical.next();
        ColumnarBatch data = batch.getData();
        Optional<ColumnVector> selection = batch.getSelectionVector();
        int width = schema.length();
        ColumnVector[] vectors = new ColumnVector[width];
        for (int c = 0; c < width; c++) {
          vectors[c] = data.getColumnVector(data.getSchema().indexOf(schema.at(c).getName()));
        }
        for (int r = 0; r < data.getSize(); r++) {
          if (selection.isPresent()
              && (selection.get().isNullAt(r) || !selection.get().getBoolean(r))) {
            continue; // deleted by a deletion vector
          }
          Object[] row = new Object[width];
          for (int c = 0; c < width; c++) {
            row[c] = value(vectors[c], r);
          }
          out.add(row);
        }
      }
    }
  }

  /**
   * Returns {@code field} if rows can carry its values ({@link #isSupported}).
   *
   * @param reader what reads it, for the message
   * @throws DeltaTableException ({@code DELTA_UNSUPPORTED_FEATURE}) naming the column otherwise
   */
  static StructField requireReadable(StructField field, DeltaTable table, String reader) {
    if (!isSupported(field.getDataType())) {
      throw new DeltaTableException(
          DeltaErrorClass.DELTA_UNSUPPORTED_FEATURE,
          "Column '"
              + field.getName()
              + "' of the Delta table at "
              + table.path()
              + " is "
              + field.getDataType()
              + ", which "
              + reader
              + " does not read (variant and geospatial columns are not read)");
    }
    return field;
  }

  /**
   * Whether the reader reads columns of {@code type}: the primitive types, decimals, and arrays,
   * maps and structs of those (not variant or the geospatial types).
   */
  static boolean isSupported(DataType type) {
    if (type instanceof ArrayType a) {
      return isSupported(a.getElementType());
    } else if (type instanceof MapType m) {
      return isSupported(m.getKeyType()) && isSupported(m.getValueType());
    } else if (type instanceof StructType s) {
      return s.fields().stream().allMatch(f -> isSupported(f.getDataType()));
    }
    return type instanceof DecimalType || DeltaTypes.primitiveFromKernel(type) != null;
  }

  /**
   * The Java value at {@code row} of a vector of a {@link #isSupported supported} type: the values
   * {@link io.lakestream.connectors.schema.ColumnType} lists (a {@link List} for an array, a {@link
   * java.util.Map} in the file's entry order for a map, an {@code Object[]} for a struct).
   */
  static Object value(ColumnVector vector, int row) {
    if (vector.isNullAt(row)) {
      return null;
    }
    DataType type = vector.getDataType();
    if (type instanceof ArrayType) {
      ArrayValue array = vector.getArray(row);
      return values(array.getElements(), array.getSize());
    } else if (type instanceof MapType) {
      MapValue map = vector.getMap(row);
      List<Object> keys = values(map.getKeys(), map.getSize());
      List<Object> mapValues = values(map.getValues(), map.getSize());
      java.util.Map<Object, Object> entries = new java.util.LinkedHashMap<>();
      for (int i = 0; i < keys.size(); i++) {
        entries.put(keys.get(i), mapValues.get(i));
      }
      return entries;
    } else if (type instanceof StructType struct) {
      Object[] fields = new Object[struct.length()];
      for (int f = 0; f < fields.length; f++) {
        fields[f] = value(vector.getChild(f), row);
      }
      return fields;
    }
    return primitiveValue(vector, row, type);
  }

  private static List<Object> values(ColumnVector vector, int size) {
    List<Object> values = new ArrayList<>(size);
    for (int i = 0; i < size; i++) {
      values.add(value(vector, i));
    }
    return values;
  }

  private static Object primitiveValue(ColumnVector vector, int row, DataType type) {
    if (type instanceof StringType) {
      return vector.getString(row);
    } else if (type instanceof LongType) {
      return vector.getLong(row);
    } else if (type instanceof IntegerType) {
      return vector.getInt(row);
    } else if (type instanceof ShortType) {
      return vector.getShort(row);
    } else if (type instanceof ByteType) {
      return vector.getByte(row);
    } else if (type instanceof DoubleType) {
      return vector.getDouble(row);
    } else if (type instanceof FloatType) {
      return vector.getFloat(row);
    } else if (type instanceof BooleanType) {
      return vector.getBoolean(row);
    } else if (type instanceof DecimalType) {
      return vector.getDecimal(row);
    } else if (type instanceof TimestampType) {
      return Instant.EPOCH.plus(vector.getLong(row), ChronoUnit.MICROS);
    } else if (type instanceof TimestampNTZType) {
      return LocalDateTime.ofInstant(
          Instant.EPOCH.plus(vector.getLong(row), ChronoUnit.MICROS), ZoneOffset.UTC);
    } else if (type instanceof DateType) {
      return LocalDate.ofEpochDay(vector.getInt(row));
    } else if (type instanceof BinaryType) {
      return vector.getBinary(row);
    }
    throw new IllegalStateException("unsupported type " + type);
  }

  // ---------------------------------------------------------------- count

  private long count(Snapshot snapshot) {
    Engine engine = table.engine();
    try {
      RowCounter counter = new RowCounter(engine, snapshot);
      KernelScanFile.forEach(engine, counter.scan, true, counter);
      return counter.total;
    } catch (IOException | UncheckedIOException | KernelException e) {
      throw new DeltaTableException(
          DeltaErrorClass.DELTA_TABLE_READ_FAILED,
          "Cannot count the rows of version "
              + snapshot.getVersion()
              + " of the Delta table at "
              + table.path()
              + ": "
              + e.getMessage(),
          e);
    }
  }

  /**
   * Adds up the rows of a snapshot's files: from their statistics, minus the rows their deletion
   * vectors remove, or by reading a file that has none.
   */
  private static final class RowCounter implements KernelScanFile.Visitor {
    private final Engine engine;
    private final Snapshot snapshot;
    private final Scan scan;
    private Row scanState; // read only if a file has no statistics
    private long total;

    RowCounter(Engine engine, Snapshot snapshot) {
      this.engine = engine;
      this.snapshot = snapshot;
      this.scan = snapshot.getScanBuilder().build();
    }

    @Override
    public void visit(KernelScanFile file) throws IOException {
      long records = numRecords(file);
      if (records >= 0) {
        total += records - file.deletedRows();
        return;
      }
      if (scanState == null) {
        scanState = scan.getScanState(engine);
      }
      List<Object[]> rows = new ArrayList<>();
      readFile(
          engine,
          scanState,
          file,
          KernelStateRows.physicalReadSchema(scanState),
          snapshot.getSchema(),
          rows);
      total += rows.size();
    }
  }

  /** The file's {@code numRecords} statistic, or -1 if it has none. */
  private static long numRecords(KernelScanFile scanFile) throws IOException {
    String stats = scanFile.stats();
    if (stats == null) {
      return -1;
    }
    JsonNode numRecords = JSON.readTree(stats).get("numRecords");
    return numRecords == null || !numRecords.canConvertToLong() ? -1 : numRecords.asLong();
  }

  @Override
  public String toString() {
    return "DeltaTableReader[" + table.path() + "]";
  }
}
