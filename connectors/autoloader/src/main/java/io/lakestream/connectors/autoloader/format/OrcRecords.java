package io.lakestream.connectors.autoloader.format;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lakestream.connectors.schema.ColumnType;
import java.io.EOFException;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DecimalColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DoubleColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ListColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.MapColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.StructColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.TimestampColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.UnionColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.orc.OrcFile;
import org.apache.orc.Reader;
import org.apache.orc.RecordReader;
import org.apache.orc.TypeDescription;

/**
 * Reads ORC files for Auto Loader ({@code cloudFiles.format=orc}), as {@link ParquetRecords} reads
 * Parquet: each row becomes an object keyed by field name with typed values (dates and timestamps
 * as ISO-8601 text, decimals as numbers, binary as base64, structs, lists, maps and unions as
 * JSON), and the column types come from the file's own schema: tinyint, smallint and int INT,
 * bigint BIGINT, float and double DOUBLE, boolean BOOLEAN, string, char and varchar STRING, date
 * DATE, timestamp and timestamp with local time zone TIMESTAMP (read as UTC), decimal DECIMAL(p,s);
 * anything else STRING (binary, geometry and geography as base64).
 *
 * <p>A file that is not ORC, or is truncated or corrupt, fails with a {@link CorruptFileException}
 * naming it; other I/O errors of the file system (which may pass) stay {@link IOException}s.
 */
final class OrcRecords {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** ORC's own exceptions for bad bytes are plain IOExceptions of these packages. */
  private static final List<String> DECODER_PACKAGES =
      List.of("org.apache.orc.", "org.apache.hadoop.hive.", "io.airlift.compress.");

  private OrcRecords() {}

  /** Column types of the file's top-level fields, in file order. */
  static Map<String, ColumnType> columnTypes(FileSystem fs, Path path) throws IOException {
    try (Reader reader = open(fs, path)) {
      TypeDescription schema = recordSchema(path, reader);
      Map<String, ColumnType> types = new LinkedHashMap<>();
      for (int i = 0; i < schema.getFieldNames().size(); i++) {
        types.put(schema.getFieldNames().get(i), columnType(schema.getChildren().get(i)));
      }
      return types;
    }
  }

  /** Emits every row of the file, in file order; the line argument is null. */
  static void read(FileSystem fs, Path path, FileFormat.RecordConsumer consumer)
      throws IOException {
    try (Reader reader = open(fs, path)) {
      TypeDescription schema = recordSchema(path, reader);
      VectorizedRowBatch batch = schema.createRowBatch();
      try (RecordReader rows = guarded(path, () -> reader.rows(reader.options()))) {
        long number = 0;
        while (guarded(path, () -> rows.nextBatch(batch))) {
          for (int r = 0; r < batch.size; r++) {
            int row = r;
            consumer.accept(guarded(path, () -> row(schema, batch, row)), null, ++number);
          }
        }
        if (number != reader.getNumberOfRows()) {
          throw new CorruptFileException(
              path.toString(),
              "orc",
              new EOFException(
                  "it has " + number + " rows, its footer says " + reader.getNumberOfRows()));
        }
      }
    }
  }

  private static Reader open(FileSystem fs, Path path) throws IOException {
    return guarded(
        path,
        () ->
            OrcFile.createReader(
                path, OrcFile.readerOptions(fs.getConf()).filesystem(fs).useUTCTimestamp(true)));
  }

  private static TypeDescription recordSchema(Path path, Reader reader) {
    TypeDescription schema = reader.getSchema();
    if (schema.getCategory() != TypeDescription.Category.STRUCT) {
      throw new CorruptFileException(
          path.toString(),
          "orc",
          new IOException("its schema is a " + schema + ", not a struct of columns"));
    }
    return schema;
  }

  /**
   * Runs a reader step, turning what a damaged file causes into a {@link CorruptFileException}: ORC
   * reports a bad tail or a bad stream with its own IOExceptions (thrown from its packages, or
   * protobuf's), a truncated file as {@link EOFException}, bad values unchecked. An I/O error of
   * the file system beneath, also one ORC wrapped, passes as itself, to be retried.
   */
  private static <T> T guarded(Path path, ReaderStep<T> step) throws IOException {
    try {
      return step.run();
    } catch (RuntimeException | IOException e) {
      IOException fileSystem = fileSystemCause(e);
      if (fileSystem != null) {
        throw fileSystem;
      }
      throw new CorruptFileException(path.toString(), "orc", e);
    }
  }

  /** The first I/O error in the chain that ORC's decoding did not raise, or null. */
  private static IOException fileSystemCause(Throwable e) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof IOException io && !(io instanceof EOFException) && !fromDecoder(io)) {
        return io;
      }
    }
    return null;
  }

  /** Whether the exception was raised by ORC's decoding (not by the file system beneath it). */
  private static boolean fromDecoder(IOException e) {
    String type = e.getClass().getName();
    if (type.endsWith("InvalidProtocolBufferException") || type.startsWith("org.apache.orc.")) {
      return true;
    }
    StackTraceElement[] trace = e.getStackTrace();
    return trace.length > 0
        && DECODER_PACKAGES.stream().anyMatch(p -> trace[0].getClassName().startsWith(p));
  }

  static ColumnType columnType(TypeDescription type) {
    switch (type.getCategory()) {
      case BOOLEAN:
        return ColumnType.BOOLEAN;
      case BYTE:
      case SHORT:
      case INT:
        return ColumnType.INT;
      case LONG:
        return ColumnType.LONG;
      case FLOAT:
      case DOUBLE:
        return ColumnType.DOUBLE;
      case DATE:
        return ColumnType.DATE;
      case TIMESTAMP:
      case TIMESTAMP_INSTANT:
        return ColumnType.TIMESTAMP;
      case DECIMAL:
        return ColumnType.decimal(type.getPrecision(), type.getScale());
      default: // string, char, varchar; binary as base64; nested values as JSON text
        return ColumnType.STRING;
    }
  }

  private static ObjectNode row(TypeDescription schema, VectorizedRowBatch batch, int row) {
    ObjectNode node = NODES.objectNode();
    List<String> names = schema.getFieldNames();
    for (int i = 0; i < names.size(); i++) {
      node.set(names.get(i), value(batch.cols[i], schema.getChildren().get(i), row));
    }
    return node;
  }

  private static JsonNode value(ColumnVector vector, TypeDescription type, int row) {
    int i = vector.isRepeating ? 0 : row;
    if (!vector.noNulls && vector.isNull[i]) {
      return NODES.nullNode();
    }
    switch (type.getCategory()) {
      case BOOLEAN:
        return NODES.booleanNode(((LongColumnVector) vector).vector[i] != 0);
      case BYTE:
      case SHORT:
      case INT:
        return NODES.numberNode((int) ((LongColumnVector) vector).vector[i]);
      case LONG:
        return NODES.numberNode(((LongColumnVector) vector).vector[i]);
      case FLOAT:
        return NODES.numberNode(
            new BigDecimal(Float.toString((float) ((DoubleColumnVector) vector).vector[i])));
      case DOUBLE:
        return NODES.numberNode(((DoubleColumnVector) vector).vector[i]);
      case DATE:
        return NODES.textNode(
            LocalDate.ofEpochDay(((LongColumnVector) vector).vector[i]).toString());
      case TIMESTAMP:
      case TIMESTAMP_INSTANT:
        TimestampColumnVector ts = (TimestampColumnVector) vector;
        return NODES.textNode(
            Instant.ofEpochSecond(Math.floorDiv(ts.time[i], 1000L), ts.nanos[i]).toString());
      case DECIMAL:
        return NODES.numberNode(
            ((DecimalColumnVector) vector)
                .vector[i]
                .getHiveDecimal()
                .bigDecimalValue()
                .setScale(type.getScale()));
      case BINARY:
      case Geometry:
      case Geography: // well-known binary
        return NODES.textNode(Base64.getEncoder().encodeToString(bytes(vector, i)));
      case STRING:
      case CHAR:
      case VARCHAR:
        return NODES.textNode(new String(bytes(vector, i), StandardCharsets.UTF_8));
      default:
        return nested(vector, type, i);
    }
  }

  private static JsonNode nested(ColumnVector vector, TypeDescription type, int i) {
    List<TypeDescription> children = type.getChildren();
    switch (type.getCategory()) {
      case STRUCT:
        ObjectNode struct = NODES.objectNode();
        for (int f = 0; f < children.size(); f++) {
          struct.set(
              type.getFieldNames().get(f),
              value(((StructColumnVector) vector).fields[f], children.get(f), i));
        }
        return struct;
      case LIST:
        ListColumnVector list = (ListColumnVector) vector;
        ArrayNode array = NODES.arrayNode();
        for (long e = list.offsets[i]; e < list.offsets[i] + list.lengths[i]; e++) {
          array.add(value(list.child, children.get(0), (int) e));
        }
        return array;
      case MAP:
        MapColumnVector map = (MapColumnVector) vector;
        ObjectNode entries = NODES.objectNode();
        for (long e = map.offsets[i]; e < map.offsets[i] + map.lengths[i]; e++) {
          JsonNode key = value(map.keys, children.get(0), (int) e);
          entries.set(key.asText(), value(map.values, children.get(1), (int) e));
        }
        return entries;
      case UNION:
        UnionColumnVector union = (UnionColumnVector) vector;
        int tag = union.tags[i];
        return value(union.fields[tag], children.get(tag), i);
      default:
        throw new IllegalStateException("ORC type " + type + " is not supported");
    }
  }

  private static byte[] bytes(ColumnVector vector, int i) {
    BytesColumnVector bytes = (BytesColumnVector) vector;
    return Arrays.copyOfRange(bytes.vector[i], bytes.start[i], bytes.start[i] + bytes.length[i]);
  }
}
