package io.lakestream.connectors.autoloader.format;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lakestream.api.annotation.Internal;
import io.lakestream.api.value.StrictUtf8;
import io.lakestream.connectors.schema.ColumnType;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The file formats Auto Loader reads ({@code cloudFiles.format}), each turning a file into records:
 * JSON objects, one per line ({@code json}), lines of comma-separated values under a header line
 * ({@code csv}; double-quoted fields may contain commas and doubled quotes, an empty field is
 * null), the rows of a Parquet file ({@code parquet}), an Avro file ({@code avro}) or an ORC file
 * ({@code orc}), the elements named by option {@code rowTag} of an XML file ({@code xml}: see
 * {@link XmlRecords}; its values are text, as CSV's), the lines of a text file ({@code text}: a
 * {@code value} column; {@link #WHOLE_TEXT} with option {@code wholetext}, the whole file as one
 * value) or whole files ({@code binaryFile}: {@code path}, {@code modificationTime}, {@code
 * length}, {@code content}). A record is a JSON object keyed by field name; CSV and XML values are
 * strings; Parquet, Avro and ORC values are typed and their files carry their column types ({@link
 * #columnTypes}); text and binaryFile have fixed columns ({@link #fixedColumns}).
 */
@Internal
public enum FileFormat {
  JSON("json"),
  CSV("csv"),
  PARQUET("parquet"),
  AVRO("avro"),
  ORC("orc"),
  TEXT("text"),
  /** {@code text} with option {@code wholetext=true}: one record per file. */
  WHOLE_TEXT("text"),
  BINARY_FILE("binaryFile"),
  XML("xml");

  /** The {@code cloudFiles.format} values, in the order the options reference lists them. */
  public static final List<String> NAMES =
      List.of("json", "csv", "parquet", "avro", "orc", "text", "binaryFile", "xml");

  /** The largest file binaryFile reads: its content is one Java array. */
  static final long MAX_BINARY_FILE_LENGTH = Integer.MAX_VALUE - 8;

  private final String optionValue;

  FileFormat(String optionValue) {
    this.optionValue = optionValue;
  }

  /** The format's {@code cloudFiles.format} value. */
  public String optionValue() {
    return optionValue;
  }

  /**
   * Fractions are read as decimals, so a decimal column gets the digits the file has, not those of
   * the nearest double (and a string column the number's own text: {@code 100.0}, not {@code
   * 1E+2}); a key twice in one object, or anything after the object, makes the line malformed.
   */
  private static final ObjectMapper MAPPER =
      JsonMapper.builder()
          .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
          .build();

  /** Receives each record of a file. */
  @FunctionalInterface
  public interface RecordConsumer {
    /**
     * @param record the record, or null if the line is malformed
     * @param line the line's text (null for Parquet, which has no lines)
     * @param lineNumber 1-based line number in the file (Parquet: row number)
     */
    void accept(ObjectNode record, String line, long lineNumber) throws IOException;
  }

  /**
   * The format named by {@code cloudFiles.format}.
   *
   * @throws IllegalArgumentException naming the supported formats
   */
  public static FileFormat of(String name) {
    for (FileFormat format : values()) {
      if (format != WHOLE_TEXT && format.optionValue.equalsIgnoreCase(name.trim())) {
        return format;
      }
    }
    throw new IllegalArgumentException(
        "Auto Loader option cloudFiles.format='"
            + name
            + "' is not supported; use one of "
            + String.join(", ", NAMES));
  }

  /** This format with option {@code wholetext} applied ({@link #WHOLE_TEXT} for text). */
  public FileFormat wholeText(boolean wholeText) {
    return this == TEXT && wholeText ? WHOLE_TEXT : this;
  }

  /**
   * The columns every file of this format has, in order, or null if they are inferred from the
   * files.
   */
  public Map<String, ColumnType> fixedColumns() {
    switch (this) {
      case TEXT:
      case WHOLE_TEXT:
        return Map.of("value", ColumnType.STRING);
      case BINARY_FILE:
        Map<String, ColumnType> columns = new LinkedHashMap<>();
        columns.put("path", ColumnType.STRING);
        columns.put("modificationTime", ColumnType.TIMESTAMP);
        columns.put("length", ColumnType.LONG);
        columns.put("content", ColumnType.BINARY);
        return columns;
      default:
        return null;
    }
  }

  /** Whether a file is one record (wholetext, binaryFile), so an empty file is one row too. */
  public boolean recordPerFile() {
    return this == WHOLE_TEXT || this == BINARY_FILE;
  }

  /** Whether all values are text, so types are recognized in text (CSV, XML). */
  public boolean textValues() {
    return this == CSV || this == XML;
  }

  /**
   * Whether files carry their own column types (Parquet, Avro, ORC): inference reads them, not the
   * values.
   */
  public boolean typedFiles() {
    return this == PARQUET || this == AVRO || this == ORC;
  }

  /**
   * The column types a file declares, by top-level field name; empty for text formats.
   *
   * @throws IOException if the file cannot be read (the message names it)
   */
  public Map<String, ColumnType> columnTypes(FileSystem fs, Path path) throws IOException {
    switch (this) {
      case PARQUET:
        return ParquetRecords.columnTypes(path, fs.getConf());
      case AVRO:
        return AvroRecords.columnTypes(fs, path);
      case ORC:
        return OrcRecords.columnTypes(fs, path);
      default:
        return Map.of();
    }
  }

  /**
   * Reads every record of the file, in file order. The consumer's line is null for Parquet, Avro
   * and ORC.
   *
   * @throws IOException if the file cannot be read (the message names it)
   * @throws IllegalStateException for xml (which needs {@link XmlOptions})
   */
  public void read(FileSystem fs, Path path, RecordConsumer consumer) throws IOException {
    read(fs, path, null, consumer);
  }

  /**
   * Reads every record of the file, in file order, XML by {@code xml}. The consumer's line is null
   * for Parquet, Avro and ORC; for XML it is the row element's text.
   *
   * @param xml the XML options (used, and required, by xml only)
   * @throws IOException if the file cannot be read (the message names it)
   */
  public void read(FileSystem fs, Path path, XmlOptions xml, RecordConsumer consumer)
      throws IOException {
    if (this == XML && xml == null) {
      throw new IllegalStateException("cloudFiles.format=xml reads files with XmlOptions (rowTag)");
    }
    if (this == ORC) {
      OrcRecords.read(fs, path, consumer);
      return;
    }
    if (this == PARQUET) {
      ParquetRecords.read(path, fs.getConf(), consumer);
      return;
    }
    if (this == AVRO) {
      AvroRecords.read(fs, path, consumer);
      return;
    }
    if (this == BINARY_FILE) {
      consumer.accept(binaryFile(fs, path), null, 1);
      return;
    }
    try (InputStream in = fs.open(path)) {
      if (this == XML) {
        XmlRecords.read(in, xml, consumer);
      } else if (this == WHOLE_TEXT) {
        wholeText(in, consumer);
      } else {
        read(in, consumer);
      }
    }
  }

  /** The one record of a binary file: its path, modification time, length and bytes. */
  private static ObjectNode binaryFile(FileSystem fs, Path path) throws IOException {
    FileStatus status = fs.getFileStatus(path);
    if (status.getLen() > MAX_BINARY_FILE_LENGTH) {
      throw new CorruptFileException(
          path.toString(),
          "binaryFile",
          new IOException(
              "it has "
                  + status.getLen()
                  + " bytes, more than the "
                  + MAX_BINARY_FILE_LENGTH
                  + " binaryFile reads (its content is one array)"));
    }
    byte[] content = new byte[(int) status.getLen()];
    try (FSDataInputStream in = fs.open(path)) {
      in.readFully(0, content);
    }
    ObjectNode record = JsonNodeFactory.instance.objectNode();
    record.put("path", status.getPath().toString());
    record.put("modificationTime", Instant.ofEpochMilli(status.getModificationTime()).toString());
    record.put("length", status.getLen());
    record.put("content", content);
    return record;
  }

  /** The one record of a whole text file; not valid UTF-8: malformed (null). */
  private static void wholeText(InputStream in, RecordConsumer consumer) throws IOException {
    byte[] bytes = in.readAllBytes();
    String text = new String(bytes, StandardCharsets.UTF_8);
    boolean valid = StrictUtf8.firstInvalidByte(bytes, 0, bytes.length, text) < 0;
    consumer.accept(
        valid ? JsonNodeFactory.instance.objectNode().put("value", text) : null, text, 1);
  }

  /**
   * Reads every record of {@code in} (UTF-8 text), in file order. A line that is not valid UTF-8,
   * not one JSON object (also one with a key twice, which would keep only one of its values), or a
   * CSV row whose fields do not match the header, is a malformed record (null).
   */
  void read(InputStream in, RecordConsumer consumer) throws IOException {
    List<List<String>> header = new ArrayList<>(1);
    Utf8Lines.read(
        in,
        (line, validUtf8, number) -> {
          if (line.isBlank() && this != TEXT) {
            return;
          }
          if (this == JSON) {
            consumer.accept(validUtf8 ? json(line) : null, line, number);
          } else if (this == TEXT) {
            consumer.accept(validUtf8 ? text(line) : null, line, number);
          } else if (header.isEmpty()) {
            header.add(csvFields(line));
          } else {
            consumer.accept(validUtf8 ? csv(header.get(0), line) : null, line, number);
          }
        });
  }

  private static ObjectNode text(String line) {
    return JsonNodeFactory.instance.objectNode().put("value", line);
  }

  private static ObjectNode json(String line) {
    try {
      JsonNode node = MAPPER.readTree(line);
      return node instanceof ObjectNode o ? o : null;
    } catch (JsonProcessingException e) {
      return null;
    }
  }

  private static ObjectNode csv(List<String> header, String line) {
    List<String> fields = csvFields(line);
    if (fields == null || fields.size() != header.size()) {
      return null;
    }
    ObjectNode record = JsonNodeFactory.instance.objectNode();
    for (int i = 0; i < header.size(); i++) {
      String value = fields.get(i);
      if (value == null || value.isEmpty()) {
        record.putNull(header.get(i));
      } else {
        record.put(header.get(i), value);
      }
    }
    return record;
  }

  /** The fields of one CSV line, or null if a quote is not closed. */
  static List<String> csvFields(String line) {
    List<String> fields = new ArrayList<>();
    StringBuilder field = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i < line.length(); i++) {
      char ch = line.charAt(i);
      if (quoted) {
        if (ch == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
          field.append('"');
          i++;
        } else if (ch == '"') {
          quoted = false;
        } else {
          field.append(ch);
        }
      } else if (ch == '"') {
        quoted = true;
      } else if (ch == ',') {
        fields.add(field.toString());
        field.setLength(0);
      } else {
        field.append(ch);
      }
    }
    if (quoted) {
      return null;
    }
    fields.add(field.toString());
    return fields;
  }
}
