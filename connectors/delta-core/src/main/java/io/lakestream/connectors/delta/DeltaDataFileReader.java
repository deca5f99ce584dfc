package io.lakestream.connectors.delta;

import io.delta.kernel.data.ColumnVector;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.engine.FileReadResult;
import io.delta.kernel.exceptions.KernelEngineException;
import io.delta.kernel.exceptions.KernelException;
import io.delta.kernel.types.LongType;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.FileStatus;
import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.delta.dv.DeletionVectorStore;
import io.lakestream.connectors.delta.dv.RowIndexBitmap;
import io.lakestream.connectors.delta.kernel.KernelColumnMapping;
import io.lakestream.connectors.delta.kernel.KernelSchemaJson;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.Set;
import java.util.function.LongPredicate;

/**
 * Reads the rows of single data files of a Delta table through Kernel's Parquet reader, for
 * streaming sources that hand out one file at a time. Rows are {@code Object[]} of the chosen
 * columns (by default every column, in table order) with the values {@link DeltaTableReader}
 * documents; partition columns are filled in from the file's partition values. Only the chosen
 * columns that are not partition columns are read from the Parquet file ({@link #readSchema()}):
 * the others are not decoded, whatever their type. Rows come in file order, so a reader can resume
 * after the first {@code n} rows of a file. Flink-free.
 *
 * <p>Column mapping ({@code delta.columnMapping.mode} {@code name} or {@code id}): Parquet columns
 * are looked up by the columns' physical names (and field ids in {@code id} mode), partition values
 * by physical names; rows carry the logical columns. A file with a deletion vector ({@link
 * DeltaAddedFile#deletionVector()}) yields only the rows it does not delete. A column widened since
 * a file was written (type widening, e.g. {@code int} to {@code long}) reads as the wider type.
 */
@Internal
public final class DeltaDataFileReader {
  private final DeltaTable table;
  private final StructType columns;
  private final boolean[] partition;
  private final StructType readSchema;
  private final String[] partitionKeys;
  private final DeletionVectorStore deletionVectors;
  private final int hiddenColumns;

  /**
   * A reader of every column of the table.
   *
   * @param schemaJson the table schema ({@link StructType#toJson()})
   * @param partitionColumns the table's partition columns
   * @throws DeltaTableException ({@code DELTA_UNSUPPORTED_FEATURE}) if a column has a type rows
   *     cannot carry (variant, geospatial)
   */
  public DeltaDataFileReader(DeltaTable table, String schemaJson, List<String> partitionColumns) {
    this(table, schemaJson, partitionColumns, KernelSchemaJson.parse(schemaJson).fieldNames());
  }

  /**
   * A reader of the columns named {@code columns} (names as the schema spells them), in that order.
   *
   * @param schemaJson the table schema ({@link StructType#toJson()})
   * @param partitionColumns the table's partition columns
   * @throws DeltaTableException ({@code DELTA_UNSUPPORTED_FEATURE}) if a chosen column has a type
   *     rows cannot carry (variant, geospatial)
   * @throws IllegalArgumentException if a name is not a column of the schema
   */
  public DeltaDataFileReader(
      DeltaTable table, String schemaJson, List<String> partitionColumns, List<String> columns) {
    this(table, schemaJson, partitionColumns, columns, inferredMode(schemaJson));
  }

  /**
   * A reader of the columns named {@code columns} of a table with the column mapping mode {@code
   * columnMappingMode} ({@code none}, {@code name} or {@code id}, as the table property says).
   *
   * @throws DeltaTableException ({@code DELTA_UNSUPPORTED_FEATURE}) if a chosen column has a type
   *     rows cannot carry (variant, geospatial)
   * @throws IllegalArgumentException if a name is not a column of the schema
   */
  public DeltaDataFileReader(
      DeltaTable table,
      String schemaJson,
      List<String> partitionColumns,
      List<String> columns,
      String columnMappingMode) {
    this(table, schemaJson, partitionColumns, columns, columnMappingMode, List.of());
  }

  /**
   * As {@link #DeltaDataFileReader(DeltaTable, String, List, List, String)}, and also reads the
   * long columns {@code hiddenColumns} (physical names of columns in data files that are not table
   * columns, as row tracking's materialized columns): {@link Rows#hidden(int)} has their values,
   * null where a file lacks the column or holds null.
   */
  public DeltaDataFileReader(
      DeltaTable table,
      String schemaJson,
      List<String> partitionColumns,
      List<String> columns,
      String columnMappingMode,
      List<String> hiddenColumns) {
    this.table = table;
    this.hiddenColumns = hiddenColumns.size();
    this.deletionVectors = new DeletionVectorStore(table);
    StructType schema = KernelSchemaJson.parse(schemaJson);
    Set<String> partitions = Set.copyOf(partitionColumns);
    List<StructField> chosen = new ArrayList<>();
    List<StructField> data = new ArrayList<>();
    this.partition = new boolean[columns.size()];
    for (String name : columns) {
      int at = schema.indexOf(name);
      if (at < 0) {
        throw new IllegalArgumentException(
            "Column '" + name + "' is not in the schema " + schema.fieldNames());
      }
      StructField field = checkSupported(schema.at(at));
      partition[chosen.size()] = partitions.contains(name);
      chosen.add(field);
      if (!partitions.contains(name)) {
        data.add(field);
      }
    }
    this.columns = new StructType(chosen);
    this.partitionKeys = new String[chosen.size()];
    for (int c = 0; c < chosen.size(); c++) {
      partitionKeys[c] = KernelColumnMapping.physicalName(chosen.get(c));
    }
    // only partition columns chosen: read the row index, to count the file's rows
    StructType dataSchema =
        data.isEmpty()
            ? new StructType(List.of(StructField.DEFAULT_ROW_INDEX_COLUMN))
            : KernelColumnMapping.physicalSchema(new StructType(data), schema, columnMappingMode);
    for (String name : hiddenColumns) {
      dataSchema = dataSchema.add(new StructField(name, LongType.LONG, true));
    }
    this.readSchema = dataSchema;
  }

  /**
   * The mode of a schema whose table's mode is not known: {@code name} when its columns carry
   * physical names (files written under {@code id} mode hold the physical names too).
   */
  private static String inferredMode(String schemaJson) {
    StructType schema = KernelSchemaJson.parse(schemaJson);
    return schema.fields().stream().anyMatch(KernelColumnMapping::isMapped) ? "name" : "none";
  }

  private StructField checkSupported(StructField field) {
    return DeltaTableReader.requireReadable(field, table, "the Delta source");
  }

  /** The columns the Parquet files are read with: the chosen columns that are not partitions. */
  public StructType readSchema() {
    return readSchema;
  }

  /**
   * Opens {@code file}, leaving out the rows its deletion vector deletes; the caller closes the
   * returned rows.
   *
   * @throws DeltaTableException if the file or its deletion vector cannot be read
   */
  public Rows open(DeltaAddedFile file) {
    DeltaDeletionVector vector = file.deletionVector();
    if (vector == null || vector.cardinality() == 0) {
      return open(file, row -> true);
    }
    RowIndexBitmap deleted = deletionVectors.load(vector);
    return open(file, row -> !deleted.contains(row));
  }

  /**
   * Opens {@code file}, keeping the rows whose index in the file (from 0) {@code keep} accepts; the
   * caller closes the returned rows.
   *
   * @throws DeltaTableException if the file cannot be read
   */
  public Rows open(DeltaAddedFile file, LongPredicate keep) {
    Object[] partitionValues = new Object[columns.length()];
    for (int c = 0; c < columns.length(); c++) {
      if (partition[c]) {
        StructField field = columns.at(c);
        String key =
            file.partitionValues().containsKey(partitionKeys[c])
                ? partitionKeys[c]
                : field.getName();
        partitionValues[c] =
            DeltaPartitionValues.parse(field, file.partitionValues().get(key), file.path());
      }
    }
    try {
      CloseableIterator<ColumnarBatch> batches =
          table
              .engine()
              .getParquetHandler()
              .readParquetFiles(
                  DeltaTableWriter.singleton(FileStatus.of(file.path(), file.size(), 0)),
                  readSchema,
                  Optional.empty())
              .map(FileReadResult::getData);
      return new Rows(file, batches, partitionValues, keep);
    } catch (IOException | UncheckedIOException | KernelException | KernelEngineException e) {
      throw KernelFailures.describe(
          table,
          "Cannot read data file " + file.path() + " of",
          e,
          DeltaErrorClass.DELTA_TABLE_READ_FAILED);
    }
  }

  /** The rows of one file, in file order. Not thread-safe. */
  public final class Rows implements DeltaFileRows {
    private final DeltaAddedFile file;
    private final CloseableIterator<ColumnarBatch> batches;
    private final Object[] partitionValues;
    private final LongPredicate keep;
    private ColumnVector[] vectors;
    private ColumnVector[] hidden;
    private final Long[] lastHidden = new Long[hiddenColumns];
    private int size;
    private int next;
    private long batchStart; // the file row index of the current batch's first row
    private long lastIndex = -1;

    private Rows(
        DeltaAddedFile file,
        CloseableIterator<ColumnarBatch> batches,
        Object[] partitionValues,
        LongPredicate keep) {
      this.file = file;
      this.batches = batches;
      this.partitionValues = partitionValues;
      this.keep = keep;
    }

    /**
     * Whether another row follows (may read the next Parquet batch).
     *
     * @throws DeltaTableException if the file cannot be read
     */
    public boolean hasNext() {
      try {
        while (true) {
          while (vectors != null && next < size && !keep.test(batchStart + next)) {
            next++; // deleted by a deletion vector
          }
          if (vectors != null && next < size) {
            return true;
          }
          if (!batches.hasNext()) {
            return false;
          }
          nextBatch(batches.next());
        }
      } catch (UncheckedIOException | KernelException | KernelEngineException e) {
        throw KernelFailures.describe(
            table,
            "Cannot read data file " + file.path() + " of",
            e,
            DeltaErrorClass.DELTA_TABLE_READ_FAILED);
      }
    }

    private void nextBatch(ColumnarBatch batch) {
      batchStart += size;
      vectors = new ColumnVector[columns.length()];
      int data = 0;
      for (int c = 0; c < columns.length(); c++) {
        if (!partition[c]) {
          // the data columns come in read-schema order, under their physical names
          vectors[c] = batch.getColumnVector(data++);
        }
      }
      int first = readSchema.length() - hiddenColumns;
      hidden = new ColumnVector[hiddenColumns];
      for (int h = 0; h < hiddenColumns; h++) {
        hidden[h] = batch.getColumnVector(first + h);
      }
      size = batch.getSize();
      next = 0;
    }

    /** The next row. */
    public Object[] next() {
      if (!hasNext()) {
        throw new NoSuchElementException("no more rows in " + file.path());
      }
      Object[] row = new Object[vectors.length];
      for (int c = 0; c < vectors.length; c++) {
        row[c] = partition[c] ? partitionValues[c] : DeltaTableReader.value(vectors[c], next);
      }
      for (int h = 0; h < lastHidden.length; h++) {
        lastHidden[h] = hidden[h].isNullAt(next) ? null : hidden[h].getLong(next);
      }
      lastIndex = batchStart + next;
      next++;
      return row;
    }

    /**
     * The value of the {@code i}th hidden column in the row {@link #next()} returned last, or null.
     */
    public Long hidden(int i) {
      return lastHidden[i];
    }

    /**
     * The stable row id of the row {@link #next()} returned last, when the hidden columns are row
     * tracking's materialized [row id, row commit version]: the materialized id, else {@code
     * baseRowId} plus the row's index (null without either).
     */
    public Long stableRowId(Long baseRowId) {
      Long stored = lastHidden[0];
      return stored != null || baseRowId == null ? stored : baseRowId + lastIndex;
    }

    /** As {@link #stableRowId}: the materialized commit version, else {@code defaultVersion}. */
    public Long rowCommitVersion(Long defaultVersion) {
      Long stored = lastHidden[1];
      return stored != null ? stored : defaultVersion;
    }

    /** The position in the file (from 0) of the row {@link #next()} returned last, or -1. */
    public long rowIndex() {
      return lastIndex;
    }

    @Override
    public void close() throws IOException {
      batches.close();
    }
  }
}
