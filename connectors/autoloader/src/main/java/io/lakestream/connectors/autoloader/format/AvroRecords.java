package io.lakestream.connectors.autoloader.format;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lakestream.connectors.schema.ColumnType;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.InvalidAvroMagicException;
import org.apache.avro.LogicalType;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.file.DataFileStream;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Reads Avro object container files for Auto Loader ({@code cloudFiles.format=avro}), as {@link
 * ParquetRecords} reads Parquet: each record becomes an object keyed by field name with typed
 * values (dates and timestamps as ISO-8601 text, decimals as numbers, bytes and fixed as base64,
 * records, arrays and maps as JSON), and the column types come from the file's own (writer) schema:
 * int INT, long BIGINT, float and double DOUBLE, boolean BOOLEAN, string and enum STRING, the
 * logical types date, timestamp-millis/micros and decimal; a union of null and one type is that
 * type; anything else STRING.
 *
 * <p>A file that is not Avro, or is truncated or corrupt, fails with a {@link CorruptFileException}
 * naming it; other I/O errors (which may pass) stay {@link IOException}s.
 */
final class AvroRecords {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private AvroRecords() {}

  /** Column types of the file's top-level fields, in file order. */
  static Map<String, ColumnType> columnTypes(FileSystem fs, Path path) throws IOException {
    try (DataFileStream<GenericRecord> reader = open(fs, path)) {
      Map<String, ColumnType> types = new LinkedHashMap<>();
      for (Schema.Field field : recordSchema(path, reader).getFields()) {
        types.put(field.name(), columnType(field.schema()));
      }
      return types;
    }
  }

  /** Emits every record of the file, in file order; the line argument is null. */
  static void read(FileSystem fs, Path path, FileFormat.RecordConsumer consumer)
      throws IOException {
    try (DataFileStream<GenericRecord> reader = open(fs, path)) {
      recordSchema(path, reader);
      long number = 0;
      while (guarded(path, reader::hasNext)) {
        GenericRecord record = guarded(path, () -> reader.next());
        consumer.accept(object(record), null, ++number);
      }
      if (guarded(path, reader::hasNext)) {
        // DataFileStream ends quietly at an EOF inside a block, leaving the block's records
        // counted but unread: a second hasNext() sees them, a file that truly ended does not
        throw new CorruptFileException(
            path.toString(), "avro", new EOFException("it ends inside a block (truncated)"));
      }
    }
  }

  private static DataFileStream<GenericRecord> open(FileSystem fs, Path path) throws IOException {
    InputStream in = fs.open(path);
    try {
      return guarded(path, () -> new DataFileStream<>(in, new GenericDatumReader<>()));
    } catch (IOException | RuntimeException e) {
      in.close();
      throw e;
    }
  }

  private static Schema recordSchema(Path path, DataFileStream<GenericRecord> reader) {
    Schema schema = reader.getSchema();
    if (schema.getType() != Schema.Type.RECORD) {
      throw new CorruptFileException(
          path.toString(),
          "avro",
          new IOException("its schema is a " + schema.getType() + ", not a record of columns"));
    }
    return schema;
  }

  /**
   * Runs a reader step, turning what a damaged file causes into a {@link CorruptFileException}:
   * Avro reports bad data unchecked (wrapping the decoder's IOExceptions), a bad header as {@link
   * InvalidAvroMagicException}, a truncated file as {@link EOFException}; an I/O error of the file
   * system passes as itself, to be retried.
   */
  private static <T> T guarded(Path path, ReaderStep<T> step) throws IOException {
    try {
      return step.run();
    } catch (RuntimeException | EOFException | InvalidAvroMagicException e) {
      throw new CorruptFileException(path.toString(), "avro", e);
    } catch (IOException e) {
      if (damaged(e)) {
        throw new CorruptFileException(path.toString(), "avro", e);
      }
      throw e;
    }
  }

  /** The decoder's own IOExceptions: a bad sync marker or a failed checksum. */
  private static boolean damaged(IOException e) {
    String message = String.valueOf(e.getMessage());
    return message.startsWith("Invalid sync") || message.contains("Checksum");
  }

  static ColumnType columnType(Schema schema) {
    Schema type = nonNull(schema);
    LogicalType logical = type.getLogicalType();
    if (logical instanceof LogicalTypes.Decimal decimal) {
      return decimal.getPrecision() <= 38
          ? ColumnType.decimal(decimal.getPrecision(), decimal.getScale())
          : ColumnType.STRING;
    }
    if (logical instanceof LogicalTypes.Date) {
      return ColumnType.DATE;
    }
    if (logical instanceof LogicalTypes.TimestampMillis
        || logical instanceof LogicalTypes.TimestampMicros) {
      return ColumnType.TIMESTAMP;
    }
    switch (type.getType()) {
      case INT:
        return ColumnType.INT;
      case LONG:
        return ColumnType.LONG;
      case FLOAT:
      case DOUBLE:
        return ColumnType.DOUBLE;
      case BOOLEAN:
        return ColumnType.BOOLEAN;
      default:
        return ColumnType.STRING;
    }
  }

  /** The one type of a union of null and that type; otherwise the schema itself. */
  private static Schema nonNull(Schema schema) {
    if (schema.getType() != Schema.Type.UNION) {
      return schema;
    }
    List<Schema> types =
        schema.getTypes().stream().filter(t -> t.getType() != Schema.Type.NULL).toList();
    return types.size() == 1 ? types.get(0) : schema;
  }

  private static ObjectNode object(GenericRecord record) {
    ObjectNode node = NODES.objectNode();
    for (Schema.Field field : record.getSchema().getFields()) {
      node.set(field.name(), value(record.get(field.pos()), field.schema()));
    }
    return node;
  }

  private static JsonNode value(Object value, Schema schema) {
    if (value == null) {
      return NODES.nullNode();
    }
    Schema type =
        schema.getType() == Schema.Type.UNION
            ? schema.getTypes().get(GenericData.get().resolveUnion(schema, value))
            : schema;
    LogicalType logical = type.getLogicalType();
    if (logical instanceof LogicalTypes.Decimal decimal) {
      byte[] bytes =
          value instanceof GenericFixed fixed ? fixed.bytes() : bytes((ByteBuffer) value);
      return NODES.numberNode(new BigDecimal(new BigInteger(bytes), decimal.getScale()));
    }
    if (logical instanceof LogicalTypes.Date) {
      return NODES.textNode(LocalDate.ofEpochDay((Integer) value).toString());
    }
    if (logical instanceof LogicalTypes.TimestampMillis) {
      return NODES.textNode(Instant.ofEpochMilli((Long) value).toString());
    }
    if (logical instanceof LogicalTypes.TimestampMicros) {
      long micros = (Long) value;
      return NODES.textNode(
          Instant.ofEpochSecond(
                  Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1_000L)
              .toString());
    }
    switch (type.getType()) {
      case RECORD:
        return object((GenericRecord) value);
      case ARRAY:
        ArrayNode array = NODES.arrayNode();
        for (Object element : (Iterable<?>) value) {
          array.add(value(element, type.getElementType()));
        }
        return array;
      case MAP:
        ObjectNode map = NODES.objectNode();
        ((Map<?, ?>) value)
            .forEach((k, v) -> map.set(String.valueOf(k), value(v, type.getValueType())));
        return map;
      case INT:
        return NODES.numberNode((Integer) value);
      case LONG:
        return NODES.numberNode((Long) value);
      case FLOAT:
        return NODES.numberNode(new BigDecimal(Float.toString((Float) value)));
      case DOUBLE:
        return NODES.numberNode((Double) value);
      case BOOLEAN:
        return NODES.booleanNode((Boolean) value);
      case BYTES:
        return NODES.textNode(Base64.getEncoder().encodeToString(bytes((ByteBuffer) value)));
      case FIXED:
        return NODES.textNode(Base64.getEncoder().encodeToString(((GenericFixed) value).bytes()));
      default: // STRING (Utf8), ENUM
        return NODES.textNode(value.toString());
    }
  }

  private static byte[] bytes(ByteBuffer buffer) {
    byte[] bytes = new byte[buffer.remaining()];
    buffer.duplicate().get(bytes);
    return bytes;
  }
}
