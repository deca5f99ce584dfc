package io.lakestream.connectors.autoloader.format;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.schema.ColumnType;
import java.io.EOFException;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.convert.GroupRecordConverter;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.RecordReader;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;

/**
 * Reads Parquet files for Auto Loader ({@code cloudFiles.format=parquet}): each row becomes a
 * record keyed by field name with typed values (integers, doubles, decimals, booleans; dates and
 * timestamps as ISO-8601 text, which their column types parse; nested groups and lists as JSON
 * objects and arrays, binary without a string annotation as base64), and the column types come from
 * the file's own schema, not from the values.
 *
 * <p>A file that is not Parquet, or is truncated or corrupt, fails with a {@link
 * CorruptFileException} naming it; other I/O errors (which may pass) stay {@link IOException}s.
 */
final class ParquetRecords {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private ParquetRecords() {}

  /**
   * Column types of the file's top-level fields, in file order.
   *
   * @throws IOException if the file is unreadable or a field is a decimal of more than 38 digits
   */
  static Map<String, ColumnType> columnTypes(Path path, Configuration conf) throws IOException {
    try (ParquetFileReader reader = open(path, conf)) {
      MessageType schema = reader.getFooter().getFileMetaData().getSchema();
      Map<String, ColumnType> types = new LinkedHashMap<>();
      for (Type field : schema.getFields()) {
        types.put(field.getName(), columnType(field));
      }
      return types;
    } catch (CorruptFileException e) {
      throw e;
    } catch (LakestreamException e) {
      throw new IOException("cannot read the column types of " + path + ": " + e.getMessage(), e);
    }
  }

  /**
   * Emits every row of the file, in file order; the line argument is null (no text form). What the
   * consumer throws passes through unchanged; only the reader's own failures are {@link
   * CorruptFileException}s.
   */
  static void read(Path path, Configuration conf, FileFormat.RecordConsumer consumer)
      throws IOException {
    try (ParquetFileReader reader = open(path, conf)) {
      MessageType schema = reader.getFooter().getFileMetaData().getSchema();
      ColumnIOFactory columns = new ColumnIOFactory();
      long rowNumber = 0;
      PageReadStore rowGroup;
      while ((rowGroup = guarded(path, reader::readNextRowGroup)) != null) {
        PageReadStore pages = rowGroup;
        RecordReader<Group> records =
            guarded(
                path,
                () ->
                    columns
                        .getColumnIO(schema)
                        .getRecordReader(pages, new GroupRecordConverter(schema)));
        for (long i = 0; i < rowGroup.getRowCount(); i++) {
          consumer.accept(guarded(path, () -> object(records.read())), null, ++rowNumber);
        }
      }
    }
  }

  /** Runs a reader step, turning what a damaged file causes into a {@link CorruptFileException}. */
  private static <T> T guarded(Path path, ReaderStep<T> step) throws IOException {
    try {
      return step.run();
    } catch (RuntimeException | EOFException e) {
      IOException io = transientCause(e);
      if (io != null) {
        throw io; // a read that failed (parquet-mr wraps some), not a damaged file: retried
      }
      // parquet-mr reports corrupt pages and unsupported encodings unchecked; EOF: truncated
      throw new CorruptFileException(path.toString(), "Parquet", e);
    }
  }

  /** An I/O error other than end-of-file among the causes, or null. */
  private static IOException transientCause(Throwable e) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof IOException io && !(cause instanceof EOFException)) {
        return io;
      }
    }
    return null;
  }

  private static ParquetFileReader open(Path path, Configuration conf) throws IOException {
    return guarded(path, () -> ParquetFileReader.open(HadoopInputFile.fromPath(path, conf)));
  }

  /** The Auto Loader column type of a Parquet field. */
  static ColumnType columnType(Type field) {
    if (!field.isPrimitive() || field.isRepetition(Type.Repetition.REPEATED)) {
      return ColumnType.STRING; // nested values are kept as JSON text
    }
    PrimitiveType primitive = field.asPrimitiveType();
    LogicalTypeAnnotation logical = primitive.getLogicalTypeAnnotation();
    if (logical instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation decimal) {
      return ColumnType.decimal(decimal.getPrecision(), decimal.getScale());
    }
    if (logical instanceof LogicalTypeAnnotation.DateLogicalTypeAnnotation) {
      return ColumnType.DATE;
    }
    if (logical instanceof LogicalTypeAnnotation.TimestampLogicalTypeAnnotation) {
      return ColumnType.TIMESTAMP;
    }
    switch (primitive.getPrimitiveTypeName()) {
      case INT32:
        return ColumnType.INT;
      case INT64:
        return ColumnType.LONG;
      case FLOAT:
      case DOUBLE:
        return ColumnType.DOUBLE;
      case BOOLEAN:
        return ColumnType.BOOLEAN;
      case INT96:
        return ColumnType.TIMESTAMP;
      default:
        return ColumnType.STRING;
    }
  }

  private static ObjectNode object(Group group) {
    ObjectNode node = NODES.objectNode();
    GroupType type = group.getType();
    for (int f = 0; f < type.getFieldCount(); f++) {
      Type field = type.getType(f);
      int count = group.getFieldRepetitionCount(f);
      if (field.isRepetition(Type.Repetition.REPEATED)) {
        ArrayNode values = node.putArray(field.getName());
        for (int i = 0; i < count; i++) {
          values.add(value(group, f, i, field));
        }
      } else {
        node.set(field.getName(), count == 0 ? NODES.nullNode() : value(group, f, 0, field));
      }
    }
    return node;
  }

  private static JsonNode value(Group group, int f, int i, Type field) {
    if (!field.isPrimitive()) {
      return object(group.getGroup(f, i));
    }
    PrimitiveType primitive = field.asPrimitiveType();
    LogicalTypeAnnotation logical = primitive.getLogicalTypeAnnotation();
    switch (primitive.getPrimitiveTypeName()) {
      case INT32:
        int intValue = group.getInteger(f, i);
        if (logical instanceof LogicalTypeAnnotation.DateLogicalTypeAnnotation) {
          return NODES.textNode(LocalDate.ofEpochDay(intValue).toString());
        }
        if (logical instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation d) {
          return NODES.numberNode(BigDecimal.valueOf(intValue, d.getScale()));
        }
        return NODES.numberNode(intValue);
      case INT64:
        long longValue = group.getLong(f, i);
        if (logical instanceof LogicalTypeAnnotation.TimestampLogicalTypeAnnotation t) {
          return NODES.textNode(instant(longValue, t.getUnit()).toString());
        }
        if (logical instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation d) {
          return NODES.numberNode(BigDecimal.valueOf(longValue, d.getScale()));
        }
        return NODES.numberNode(longValue);
      case FLOAT:
        return NODES.numberNode((double) group.getFloat(f, i));
      case DOUBLE:
        return NODES.numberNode(group.getDouble(f, i));
      case BOOLEAN:
        return NODES.booleanNode(group.getBoolean(f, i));
      case INT96:
        return NODES.textNode(int96(group.getInt96(f, i).getBytes()).toString());
      default: // BINARY, FIXED_LEN_BYTE_ARRAY
        byte[] bytes = group.getBinary(f, i).getBytes();
        if (logical instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation d) {
          return NODES.numberNode(new BigDecimal(new BigInteger(bytes), d.getScale()));
        }
        if (logical instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation
            || logical instanceof LogicalTypeAnnotation.EnumLogicalTypeAnnotation
            || logical instanceof LogicalTypeAnnotation.JsonLogicalTypeAnnotation) {
          return NODES.textNode(group.getBinary(f, i).toStringUsingUTF8());
        }
        return NODES.textNode(Base64.getEncoder().encodeToString(bytes));
    }
  }

  private static Instant instant(long value, LogicalTypeAnnotation.TimeUnit unit) {
    switch (unit) {
      case MILLIS:
        return Instant.ofEpochMilli(value);
      case MICROS:
        return Instant.ofEpochSecond(
            Math.floorDiv(value, 1_000_000L), Math.floorMod(value, 1_000_000L) * 1_000L);
      default:
        return Instant.ofEpochSecond(
            Math.floorDiv(value, 1_000_000_000L), Math.floorMod(value, 1_000_000_000L));
    }
  }

  /** Spark's legacy INT96 timestamp: nanoseconds of the day, then the Julian day, little-endian. */
  private static Instant int96(byte[] bytes) {
    ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    long nanosOfDay = buffer.getLong();
    int julianDay = buffer.getInt();
    long epochDay = julianDay - 2_440_588L;
    return Instant.ofEpochSecond(epochDay * 86_400L, nanosOfDay);
  }
}
