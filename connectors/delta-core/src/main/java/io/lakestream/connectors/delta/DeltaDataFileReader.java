package io.lakestream.connectors.delta;

import io.delta.kernel.data.ColumnVector;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.engine.FileReadResult;
import io.delta.kernel.exceptions.KernelEngineException;
import io.delta.kernel.exceptions.KernelException;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.FileStatus;
import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.delta.kernel.KernelSchemaJson;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.Set;

/**
 * Reads the rows of single data files of a Delta table through Kernel's Parquet reader, for
 * streaming sources that hand out one file at a time. Rows are {@code Object[]} of the chosen
 * columns (by default every column, in table order) with the values {@link DeltaTableReader}
 * documents; partition columns are filled in from the file's partition values. Only the chosen
 * columns that are not partition columns are read from the Parquet file ({@link #readSchema()}):
 * the others are not decoded, whatever their type. Rows come in file order, so a reader can resume
 * after the first {@code n} rows of a file. Flink-free. Tables with column mapping are not
 * supported (Parquet columns are looked up by their logical names).
 */
@Internal
public final class DeltaDataFileReader {
  private final DeltaTable table;
  private final StructType columns;
  private final boolean[] partition;
  private final StructType readSchema;

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
    this.table = table;
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
    // only partition columns chosen: read the row index, to count the file's rows
    this.readSchema =
        new StructType(data.isEmpty() ? List.of(StructField.DEFAULT_ROW_INDEX_COLUMN) : data);
  }

  private StructField checkSupported(StructField field) {
    return DeltaTableReader.requireReadable(field, table, "the Delta source");
  }

  /** The columns the Parquet files are read with: the chosen columns that are not partitions. */
  public StructType readSchema() {
    return readSchema;
  }

  /** Opens {@code file}; the caller closes the returned rows. */
  public Rows open(DeltaAddedFile file) {
    Object[] partitionValues = new Object[columns.length()];
    for (int c = 0; c < columns.length(); c++) {
      if (partition[c]) {
        StructField field = columns.at(c);
        partitionValues[c] =
            DeltaPartitionValues.parse(
                field, file.partitionValues().get(field.getName()), file.path());
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
      return new Rows(file, batches, partitionValues);
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
    private ColumnVector[] vectors;
    private int size;
    private int next;

    private Rows(
        DeltaAddedFile file, CloseableIterator<ColumnarBatch> batches, Object[] partitionValues) {
      this.file = file;
      this.batches = batches;
      this.partitionValues = partitionValues;
    }

    /**
     * Whether another row follows (may read the next Parquet batch).
     *
     * @throws DeltaTableException if the file cannot be read
     */
    public boolean hasNext() {
      try {
        while (vectors == null || next >= size) {
          if (!batches.hasNext()) {
            return false;
          }
          ColumnarBatch batch = batches.next();
          vectors = new ColumnVector[columns.length()];
          for (int c = 0; c < columns.length(); c++) {
            if (!partition[c]) {
              vectors[c] =
                  batch.getColumnVector(batch.getSchema().indexOf(columns.at(c).getName()));
            }
          }
          size = batch.getSize();
          next = 0;
        }
        return true;
      } catch (UncheckedIOException | KernelException | KernelEngineException e) {
        throw KernelFailures.describe(
            table,
            "Cannot read data file " + file.path() + " of",
            e,
            DeltaErrorClass.DELTA_TABLE_READ_FAILED);
      }
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
      next++;
      return row;
    }

    @Override
    public void close() throws IOException {
      batches.close();
    }
  }
}
