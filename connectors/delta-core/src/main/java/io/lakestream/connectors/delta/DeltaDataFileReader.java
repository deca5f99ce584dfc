package io.lakestream.connectors.delta;

import io.delta.kernel.data.ColumnVector;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.engine.FileReadResult;
import io.delta.kernel.exceptions.KernelEngineException;
import io.delta.kernel.exceptions.KernelException;
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
import io.delta.kernel.types.ShortType;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.delta.kernel.types.TimestampNTZType;
import io.delta.kernel.types.TimestampType;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.FileStatus;
import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.delta.kernel.KernelSchemaJson;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.Set;

/**
 * Reads the rows of single data files of a Delta table through Kernel's Parquet reader, for
 * streaming sources that hand out one file at a time. Rows are {@code Object[]} in the table's
 * column order with the values {@link DeltaTableReader} documents; partition columns are filled in
 * from the file's partition values. Rows come in file order, so a reader can resume after the first
 * {@code n} rows of a file. Flink-free. Tables with column mapping are not supported (Parquet
 * columns are looked up by their logical names).
 */
@Internal
public final class DeltaDataFileReader {
  private final DeltaTable table;
  private final StructType schema;
  private final Set<String> partitionColumns;
  private final StructType dataSchema;

  /**
   * @param schemaJson the table schema ({@link StructType#toJson()})
   * @param partitionColumns the table's partition columns
   * @throws DeltaTableException ({@code DELTA_UNSUPPORTED_FEATURE}) if a column has a type rows
   *     cannot carry (variant, geospatial)
   */
  public DeltaDataFileReader(DeltaTable table, String schemaJson, List<String> partitionColumns) {
    this.table = table;
    this.schema = KernelSchemaJson.parse(schemaJson);
    this.partitionColumns = Set.copyOf(partitionColumns);
    List<StructField> data = new ArrayList<>();
    for (StructField field : schema.fields()) {
      if (!DeltaTableReader.isSupported(field.getDataType())) {
        throw new DeltaTableException(
            DeltaErrorClass.DELTA_UNSUPPORTED_FEATURE,
            "Column '"
                + field.getName()
                + "' of the Delta table at "
                + table.path()
                + " is "
                + field.getDataType()
                + ", which the Delta source does not read (variant and geospatial columns are not"
                + " read)");
      }
      if (!this.partitionColumns.contains(field.getName())) {
        data.add(field);
      }
    }
    this.dataSchema = new StructType(data);
  }

  /** Opens {@code file}; the caller closes the returned rows. */
  public Rows open(DeltaAddedFile file) {
    Object[] partitionValues = new Object[schema.length()];
    for (int c = 0; c < schema.length(); c++) {
      StructField field = schema.at(c);
      if (partitionColumns.contains(field.getName())) {
        partitionValues[c] =
            partitionValue(field, file.partitionValues().get(field.getName()), file);
      }
    }
    try {
      CloseableIterator<ColumnarBatch> batches =
          table
              .engine()
              .getParquetHandler()
              .readParquetFiles(
                  DeltaTableWriter.singleton(FileStatus.of(file.path(), file.size(), 0)),
                  dataSchema,
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
          vectors = new ColumnVector[schema.length()];
          for (int c = 0; c < schema.length(); c++) {
            String name = schema.at(c).getName();
            if (!partitionColumns.contains(name)) {
              vectors[c] = batch.getColumnVector(batch.getSchema().indexOf(name));
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
        row[c] = vectors[c] == null ? partitionValues[c] : DeltaTableReader.value(vectors[c], next);
      }
      next++;
      return row;
    }

    @Override
    public void close() throws IOException {
      batches.close();
    }
  }

  private Object partitionValue(StructField field, String text, DeltaAddedFile file) {
    DataType type = field.getDataType();
    if (text == null || (text.isEmpty() && !(type instanceof StringType))) {
      return null;
    }
    try {
      if (type instanceof StringType) {
        return text;
      } else if (type instanceof LongType) {
        return Long.parseLong(text);
      } else if (type instanceof IntegerType) {
        return Integer.parseInt(text);
      } else if (type instanceof ShortType) {
        return Short.parseShort(text);
      } else if (type instanceof ByteType) {
        return Byte.parseByte(text);
      } else if (type instanceof DoubleType) {
        return Double.parseDouble(text);
      } else if (type instanceof FloatType) {
        return Float.parseFloat(text);
      } else if (type instanceof BooleanType) {
        return Boolean.parseBoolean(text);
      } else if (type instanceof DecimalType decimal) {
        return new BigDecimal(text).setScale(decimal.getScale());
      } else if (type instanceof DateType) {
        return LocalDate.parse(text);
      } else if (type instanceof TimestampType) {
        return text.endsWith("Z") ? Instant.parse(text) : localTime(text).toInstant(ZoneOffset.UTC);
      } else if (type instanceof TimestampNTZType) {
        return localTime(text);
      } else if (type instanceof BinaryType) {
        return text.getBytes(StandardCharsets.UTF_8);
      }
    } catch (RuntimeException e) {
      throw new DeltaTableException(
          DeltaErrorClass.DELTA_TABLE_CORRUPT,
          "Partition value '"
              + text
              + "' of column '"
              + field.getName()
              + "' in "
              + file.path()
              + " is not a valid "
              + type,
          e);
    }
    throw new DeltaTableException(
        DeltaErrorClass.DELTA_UNSUPPORTED_FEATURE, "Unsupported partition column type " + type);
  }

  /** Spark's partition text {@code 2024-05-01 10:00:00[.123456]} or ISO form. */
  private static LocalDateTime localTime(String text) {
    return LocalDateTime.parse(text.replace(' ', 'T'));
  }
}
