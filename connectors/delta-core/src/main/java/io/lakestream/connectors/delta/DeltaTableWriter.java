package io.lakestream.connectors.delta;

import io.delta.kernel.DataWriteContext;
import io.delta.kernel.Operation;
import io.delta.kernel.Transaction;
import io.delta.kernel.data.ColumnVector;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.data.FilteredColumnarBatch;
import io.delta.kernel.data.Row;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.exceptions.KernelException;
import io.delta.kernel.expressions.Column;
import io.delta.kernel.expressions.Literal;
import io.delta.kernel.types.LongType;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.DataFileStatus;
import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.delta.kernel.KernelColumnarBatch;
import io.lakestream.connectors.delta.kernel.KernelStateRows;
import io.lakestream.connectors.schema.ColumnType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Writes batches of rows as Parquet data files of a Delta table, WITHOUT committing them: each
 * {@link #write} returns {@link DeltaWrittenFile}s that {@link DeltaAppendCommit} commits later,
 * possibly elsewhere (Flink writers in TaskManagers, one committer). Until committed, the files are
 * invisible to readers; files never committed are orphans that Delta's VACUUM removes.
 *
 * <p>On first use the table is created if missing ({@link DeltaTable#ensureExists}), or checked
 * against the declaration (and, with mergeSchema, evolved to it). Tables with column mapping (which
 * mergeSchema uses) are written under the columns' physical names. Rows are {@code Object[]} in
 * declared column order (partition columns included), with the Java values listed in {@link
 * ColumnType}. Either hand a whole batch to {@link #write}, or {@link #append} rows one at a time
 * and {@link #flush} them: appended rows are converted at once into per-partition column buffers
 * (primitive arrays for numbers), so no boxed row is kept while the buffer fills. Each distinct
 * combination of partition values gets its own file(s) in its partition directory; file statistics
 * (min, max, null counts, record count) are collected by Kernel's Parquet writer.
 *
 * <p>Not thread-safe: use one writer per thread or task.
 */
@PublicEvolving
public final class DeltaTableWriter {
  private static final List<String> NO_PARTITION = List.of();
  private final DeltaTable table;
  private final DeltaTableSchema schema;
  private final List<String> hidden; // physical names of extra long columns after the declared
  private final DeltaTableSchema rowSchema; // the declared columns, then the hidden ones
  private final StructType structType;
  private DeltaParquetFileWriter parquetWriter;
  private final int[] partitionIndexes;
  private final Map<List<String>, DeltaColumnBuffer> pending = new LinkedHashMap<>();
  private List<String> lastKey; // the partition of the last appended row, and its buffer
  private DeltaColumnBuffer lastBuffer;
  private int pendingRows;
  private final boolean mergeSchema;
  private Row transactionState;
  private StructType physicalSchema;
  private boolean columnMapped;
  private final boolean nested; // a nested column: Kernel's Parquet writer writes the files

  /** A writer for {@code table} declared as {@code schema}; does no I/O until first used. */
  public DeltaTableWriter(DeltaTable table, DeltaTableSchema schema) {
    this(table, schema, false);
  }

  /**
   * A writer that, with {@code mergeSchema}, first adds declared columns the table lacks (see
   * {@link DeltaTable#ensureExists(DeltaTableSchema, boolean)}); does no I/O until first used.
   */
  public DeltaTableWriter(DeltaTable table, DeltaTableSchema schema, boolean mergeSchema) {
    this(table, schema, mergeSchema, List.of());
  }

  private DeltaTableWriter(
      DeltaTable table, DeltaTableSchema schema, boolean mergeSchema, List<String> hidden) {
    this.table = table;
    this.schema = schema;
    this.hidden = List.copyOf(hidden);
    this.rowSchema = withHidden(schema, hidden);
    this.structType = rowSchema.toStructType();
    this.partitionIndexes = schema.partitionColumns().stream().mapToInt(schema::indexOf).toArray();
    this.mergeSchema = mergeSchema;
    this.nested = schema.columns().stream().anyMatch(c -> c.type().kind().isNested());
    if (nested && !hidden.isEmpty()) {
      throw new DeltaTableException(
          DeltaErrorClass.DELTA_UNSUPPORTED_FEATURE,
          "Cannot write the columns "
              + hidden
              + " into data files of "
              + table.path()
              + ", a table with nested columns: row tracking's materialized columns are written"
              + " for tables of flat columns only");
    }
  }

  /**
   * A writer whose rows carry, after the declared columns, a {@code Long} (or null) for each of
   * {@code hiddenColumns}: columns written into the data files under exactly these names without
   * being columns of the table, as row tracking's materialized row ids and row commit versions are.
   *
   * @throws DeltaTableException ({@code DELTA_UNSUPPORTED_FEATURE}) for a table declared with
   *     nested columns
   */
  public DeltaTableWriter withHiddenLongColumns(List<String> hiddenColumns) {
    return new DeltaTableWriter(table, schema, mergeSchema, hiddenColumns);
  }

  /**
   * A writer for another thread: same table, declaration and hidden columns, sharing this writer's
   * prepared write state ({@link #open()}ed here first if needed, so the table is read once), with
   * its own buffers and Parquet writer. Call it in the thread that owns this writer, or after
   * {@link #open()} returned; the sibling itself is, like any writer, for one thread.
   *
   * @throws DeltaSchemaMismatchException if the existing table differs from the declaration
   * @throws DeltaTableException if the table cannot be read or created
   */
  public DeltaTableWriter sibling() {
    open();
    DeltaTableWriter w = new DeltaTableWriter(table, schema, mergeSchema, hidden);
    w.transactionState = transactionState;
    w.physicalSchema = physicalSchema;
    w.columnMapped = columnMapped;
    return w;
  }

  private static DeltaTableSchema withHidden(DeltaTableSchema schema, List<String> hidden) {
    if (hidden.isEmpty()) {
      return schema;
    }
    DeltaTableSchema.Builder b = DeltaTableSchema.builder();
    schema.columns().forEach(c -> b.column(c.name(), c.type(), c.nullable()));
    hidden.forEach(name -> b.column(name, ColumnType.LONG, true));
    return b.partitionedBy(schema.partitionColumns().toArray(new String[0])).build();
  }

  /**
   * Creates or checks the table and prepares writing; {@link #write} calls it when needed.
   *
   * @throws DeltaSchemaMismatchException if the existing table differs from the declaration
   * @throws DeltaTableException if the table cannot be read or created
   */
  public void open() {
    if (transactionState != null) {
      return;
    }
    table.ensureExists(schema, mergeSchema);
    Engine engine = table.engine();
    try {
      // A transaction that is never committed: it only supplies the write state (table root,
      // physical schema, partitioning) that Kernel's write helpers need.
      Transaction txn =
          table
              .kernelTable()
              .createTransactionBuilder(engine, DeltaTable.ENGINE_INFO, Operation.STREAMING_UPDATE)
              .build(engine);
      Row state = txn.getTransactionState(engine);
      physicalSchema = KernelStateRows.physicalSchema(state);
      for (String name : hidden) {
        physicalSchema = physicalSchema.add(new StructField(name, LongType.LONG, true));
      }
      columnMapped =
          !"none"
              .equalsIgnoreCase(
                  KernelStateRows.configuration(state)
                      .getOrDefault(DeltaTable.COLUMN_MAPPING_MODE, "none"));
      transactionState = state;
    } catch (KernelException e) {
      throw new DeltaTableException(
          DeltaErrorClass.DELTA_TABLE_WRITE_FAILED,
          "Cannot prepare writing to " + table.path() + ": " + e.getMessage(),
          e);
    }
  }

  /**
   * Writes {@code rows} as Parquet files (at least one per partition present in the rows). Rows
   * buffered by {@link #append} are not touched.
   *
   * @return the written files, not yet committed; empty for no rows
   * @throws LakestreamException ({@code DELTA_INVALID_ROW}) if a row has the wrong number of
   *     values, a value of the wrong type, or null in a NOT NULL column (the message names row and
   *     column); nothing is written
   * @throws DeltaTableException if the table cannot be prepared or a file cannot be written
   */
  public List<DeltaWrittenFile> write(List<Object[]> rows) {
    if (rows.isEmpty()) {
      return List.of();
    }
    Map<List<String>, DeltaColumnBuffer> buffers = new LinkedHashMap<>();
    for (int r = 0; r < rows.size(); r++) {
      try {
        add(buffers, rows.get(r));
      } catch (LakestreamException e) {
        throw new LakestreamException(
            DeltaErrorClass.DELTA_INVALID_ROW, "Row " + r + ": " + e.detail(), e);
      }
    }
    return writeAll(buffers);
  }

  /**
   * Buffers one row (column by column, in memory) for the next {@link #flush()}.
   *
   * @throws LakestreamException ({@code DELTA_INVALID_ROW}) if the row has the wrong number of
   *     values, a value of the wrong type, or null in a NOT NULL column (the message names the
   *     column); the row is not buffered, rows buffered before stay
   */
  public void append(Object[] row) {
    add(pending, row);
    pendingRows++;
  }

  /** Rows appended since the last {@link #flush()}. */
  public int bufferedRows() {
    return pendingRows;
  }

  /** A rough in-memory size of the rows appended since the last {@link #flush()}, in bytes. */
  public long bufferedBytes() {
    long bytes = 0;
    for (DeltaColumnBuffer buffer : pending.values()) {
      bytes += buffer.estimatedBytes();
    }
    return bytes;
  }

  /**
   * Writes the appended rows as Parquet files (at least one per partition present) and empties the
   * buffer.
   *
   * @return the written files, not yet committed; empty if nothing was appended
   * @throws DeltaTableException if the table cannot be prepared or a file cannot be written; the
   *     rows stay buffered
   */
  public List<DeltaWrittenFile> flush() {
    if (pendingRows == 0) {
      return List.of();
    }
    List<DeltaWrittenFile> written = writeAll(pending);
    for (DeltaColumnBuffer buffer : pending.values()) {
      buffer.clear(); // arrays are reused by the next rows of the same partition
    }
    if (pending.size() > 1) {
      pending.clear(); // do not keep buffers of partitions that may not come back
      lastKey = null;
      lastBuffer = null;
    }
    pendingRows = 0;
    return written;
  }

  /** Discards the appended rows. */
  public void discardBuffered() {
    pending.clear();
    lastKey = null;
    lastBuffer = null;
    pendingRows = 0;
  }

  /** Validates and converts a row into the buffer of its partition. */
  private void add(Map<List<String>, DeltaColumnBuffer> buffers, Object[] row) {
    List<io.lakestream.connectors.schema.Column> columns = rowSchema.columns();
    if (row == null || row.length != columns.size()) {
      throw new LakestreamException(
          DeltaErrorClass.DELTA_INVALID_ROW,
          "The row has "
              + (row == null ? "no" : String.valueOf(row.length))
              + " values, the table has "
              + columns.size()
              + " columns "
              + schema.columnNames());
    }
    List<String> key = NO_PARTITION;
    if (partitionIndexes.length > 0) {
      key = new ArrayList<>(partitionIndexes.length);
      for (int p : partitionIndexes) {
        io.lakestream.connectors.schema.Column column = columns.get(p);
        String text =
            DeltaValues.toPartitionText(column.type(), DeltaValues.toKernelValue(column, row[p]));
        key.add(DeltaValues.requireDirectoryName(column, text));
      }
    }
    // Rows of a partition tend to come in runs (always, when unpartitioned): skip the lookup.
    DeltaColumnBuffer buffer =
        buffers == pending && (key == lastKey || key.equals(lastKey)) ? lastBuffer : null;
    if (buffer == null) {
      buffer = buffers.computeIfAbsent(key, k -> new DeltaColumnBuffer(columns));
      if (buffers == pending) {
        lastKey = key;
        lastBuffer = buffer;
      }
    }
    buffer.append(row);
  }

  private List<DeltaWrittenFile> writeAll(Map<List<String>, DeltaColumnBuffer> buffers) {
    open();
    List<DeltaWrittenFile> written = new ArrayList<>();
    for (Map.Entry<List<String>, DeltaColumnBuffer> group : buffers.entrySet()) {
      if (group.getValue().size() > 0) {
        written.addAll(writePartition(group.getKey(), group.getValue()));
      }
    }
    return written;
  }

  private List<DeltaWrittenFile> writePartition(
      List<String> partitionText, DeltaColumnBuffer rows) {
    Engine engine = table.engine();
    Map<String, String> partitionValues = new LinkedHashMap<>();
    Map<String, Literal> literals = new LinkedHashMap<>();
    for (int i = 0; i < partitionText.size(); i++) {
      String name = schema.partitionColumns().get(i);
      ColumnType type = schema.columns().get(schema.indexOf(name)).type();
      partitionValues.put(name, partitionText.get(i));
      literals.put(name, DeltaValues.toPartitionLiteral(type, partitionText.get(i)));
    }
    List<DeltaWrittenFile> written = new ArrayList<>();
    if (!columnMapped && !nested) {
      try {
        DataWriteContext context = Transaction.getWriteContext(engine, transactionState, literals);
        for (DataFileStatus file :
            parquetWriter()
                .write(context.getTargetDirectory(), rows, context.getStatisticsColumns())) {
          written.add(written(file, partitionValues, rows.size()));
        }
        return written;
      } catch (IOException | UncheckedIOException | KernelException e) {
        throw writeFailed(partitionValues, e);
      }
    }
    ColumnarBatch data = rows.toBatch(structType);
    FilteredColumnarBatch batch = new FilteredColumnarBatch(data, Optional.empty());
    try (CloseableIterator<FilteredColumnarBatch> physical =
            columnMapped
                ? singleton(toPhysical(data))
                : Transaction.transformLogicalData(
                    engine, transactionState, singleton(batch), literals);
        CloseableIterator<DataFileStatus> files =
            writeFiles(
                engine,
                Transaction.getWriteContext(engine, transactionState, literals),
                physical)) {
      while (files.hasNext()) {
        written.add(written(files.next(), partitionValues, rows.size()));
      }
    } catch (IOException | UncheckedIOException | KernelException e) {
      throw writeFailed(partitionValues, e);
    }
    return written;
  }

  private DeltaWrittenFile written(
      DataFileStatus file, Map<String, String> partitionValues, int rowsWritten) {
    String stats = file.getStatistics().map(s -> s.serializeAsJson(physicalSchema)).orElse("");
    long numRecords = file.getStatistics().map(s -> s.getNumRecords()).orElse((long) rowsWritten);
    return new DeltaWrittenFile(
        file.getPath(),
        file.getSize(),
        file.getModificationTime(),
        partitionValues,
        stats,
        numRecords);
  }

  private DeltaTableException writeFailed(Map<String, String> partitionValues, Exception e) {
    return new DeltaTableException(
        DeltaErrorClass.DELTA_TABLE_WRITE_FAILED,
        "Cannot write Parquet files of "
            + table.path()
            + " (partition "
            + partitionValues
            + "): "
            + e.getMessage(),
        e);
  }

  /**
   * Writes the data files of tables without column mapping and nested columns (Kernel's writer does
   * the others).
   */
  private DeltaParquetFileWriter parquetWriter() {
    if (parquetWriter == null) {
      parquetWriter =
          new DeltaParquetFileWriter(table.hadoopConfiguration(), rowSchema, structType);
    }
    return parquetWriter;
  }

  /**
   * The data columns under their physical names, for a table with column mapping (Kernel 4.4's
   * {@code transformLogicalData} refuses such tables, although its commit path supports them):
   * partition columns are left out (their values live in the file's partition values), and each
   * column is named by its {@code delta.columnMapping.physicalName}, which is what readers look up
   * in the Parquet file.
   */
  private FilteredColumnarBatch toPhysical(ColumnarBatch data) {
    List<StructField> fields = new ArrayList<>();
    List<ColumnVector> vectors = new ArrayList<>();
    for (int c = 0; c < structType.length(); c++) {
      if (!schema.partitionColumns().contains(rowSchema.columns().get(c).name())) {
        fields.add(physicalSchema.at(c));
        vectors.add(data.getColumnVector(c));
      }
    }
    return new FilteredColumnarBatch(
        KernelColumnarBatch.of(
            data.getSize(), new StructType(fields), vectors.toArray(ColumnVector[]::new)),
        Optional.empty());
  }

  /**
   * Writes the files, with statistics on the data columns. Kernel 4.4 leaves the partition columns
   * out of its statistics columns by logical name, so under column mapping (physical names) it
   * would list them; they are not in the data files, so they are dropped here.
   */
  private CloseableIterator<DataFileStatus> writeFiles(
      Engine engine, DataWriteContext context, CloseableIterator<FilteredColumnarBatch> data)
      throws IOException {
    List<Column> statsColumns = context.getStatisticsColumns();
    if (columnMapped) {
      java.util.Set<String> partitionPhysical = new java.util.HashSet<>();
      for (String p : schema.partitionColumns()) {
        partitionPhysical.add(physicalSchema.at(schema.indexOf(p)).getName());
      }
      statsColumns =
          statsColumns.stream().filter(c -> !partitionPhysical.contains(c.getNames()[0])).toList();
    }
    return engine
        .getParquetHandler()
        .writeParquetFiles(context.getTargetDirectory(), data, statsColumns);
  }

  static <T> CloseableIterator<T> singleton(T item) {
    return iterator(List.of(item));
  }

  static <T> CloseableIterator<T> iterator(List<T> items) {
    java.util.Iterator<T> it = items.iterator();
    return new CloseableIterator<>() {
      @Override
      public boolean hasNext() {
        return it.hasNext();
      }

      @Override
      public T next() {
        return it.next();
      }

      @Override
      public void close() {}
    };
  }

  @Override
  public String toString() {
    return "DeltaTableWriter["
        + table.path()
        + ", columns="
        + Arrays.toString(schema.columnNames().toArray())
        + "]";
  }
}
