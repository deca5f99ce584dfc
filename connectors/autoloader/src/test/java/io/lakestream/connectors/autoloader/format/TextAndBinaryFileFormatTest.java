package io.lakestream.connectors.autoloader.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.autoloader.AutoLoader;
import io.lakestream.connectors.autoloader.AutoLoaderBuilder;
import io.lakestream.connectors.autoloader.discovery.DiscoveredFile;
import io.lakestream.connectors.autoloader.schema.AutoLoaderSchema;
import io.lakestream.connectors.autoloader.schema.MalformedRecordException;
import io.lakestream.connectors.autoloader.schema.RecordConverter;
import io.lakestream.connectors.autoloader.schema.SchemaEvolutionMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cloudFiles.format} text (a row per line, or per file with wholetext) and binaryFile (a row
 * per file), on real files: their fixed schemas through the builder, partition columns, and the
 * rescued data / dead-letter rule for text that is not UTF-8.
 */
class TextAndBinaryFileFormatTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final byte[] NOT_UTF8 = {'o', 'k', (byte) 0xC3, '\n'};

  @TempDir Path dir;

  @Test
  void textHasAValueRowPerLineKeepingEmptyLines() throws Exception {
    DiscoveredFile f = file("day=1/a.txt", "first line\n\nthird, with \"quotes\"\r\nlast");
    AutoLoader loader = build("text");
    assertThat(loader.schema().ddl()).isEqualTo("value STRING");
    assertThat(loader.rowType().getFieldNames()).containsExactly("value", "day", "_rescued_data");
    assertThat(read(FileFormat.TEXT, loader.schema(), SchemaEvolutionMode.RESCUE, f))
        .containsExactly(
            Row.of("first line", "1", null),
            Row.of("", "1", null),
            Row.of("third, with \"quotes\"", "1", null),
            Row.of("last", "1", null));
  }

  @Test
  void wholeTextHasOneRowPerFile() throws Exception {
    DiscoveredFile f = file("day=1/a.txt", "line 1\nline 2\n");
    AutoLoader loader = build("text", "wholetext", "true");
    assertThat(read(FileFormat.WHOLE_TEXT, loader.schema(), SchemaEvolutionMode.RESCUE, f))
        .containsExactly(Row.of("line 1\nline 2\n", "1", null));
  }

  @Test
  void textThatIsNotUtf8IsRescuedOrStopsTheStream() throws Exception {
    DiscoveredFile f = file("day=1/bad.txt", new byte[] {'a', '\n'}, NOT_UTF8);
    AutoLoaderSchema rescuing = build("text").schema();
    List<Row> rows = read(FileFormat.TEXT, rescuing, SchemaEvolutionMode.RESCUE, f);
    assertThat(rows.get(0)).isEqualTo(Row.of("a", "1", null));
    assertThat(rows.get(1).getField(0)).isNull();
    assertThat(JSON.readTree((String) rows.get(1).getField(2)).get("_corrupt_record").asText())
        .isEqualTo("ok\uFFFD");

    AutoLoaderSchema strict =
        new AutoLoaderSchema(rescuing.columns(), rescuing.partitionColumns(), false);
    assertThatThrownBy(() -> read(FileFormat.WHOLE_TEXT, strict, SchemaEvolutionMode.NONE, f))
        .isInstanceOf(MalformedRecordException.class)
        .hasMessageContaining(
            "line 1 of " + dir.resolve("in").toUri().toString().replaceAll("/$", ""))
        .hasMessageContaining("cloudFiles.schemaEvolutionMode=rescue");
  }

  @Test
  void binaryFileHasPathModificationTimeLengthAndContent() throws Exception {
    byte[] content = {0, 1, 2, (byte) 0xFF, 'x'};
    DiscoveredFile f = file("day=2/img.bin", content);
    AutoLoader loader = build("BINARYFILE");
    assertThat(loader.schema().ddl())
        .isEqualTo("path STRING, modificationTime TIMESTAMP, length BIGINT, content BINARY");
    assertThat(loader.schema().partitionColumns()).containsExactly("day");
    List<Row> rows = read(FileFormat.BINARY_FILE, loader.schema(), SchemaEvolutionMode.RESCUE, f);
    assertThat(rows).hasSize(1);
    Row row = rows.get(0);
    Path onDisk = dir.resolve("in/day=2/img.bin");
    assertThat((String) row.getField(0)).endsWith("/in/day=2/img.bin");
    assertThat(row.getField(1))
        .isEqualTo(Instant.ofEpochMilli(Files.getLastModifiedTime(onDisk).toMillis()));
    assertThat(row.getField(2)).isEqualTo(5L);
    assertThat((byte[]) row.getField(3)).containsExactly(content);
    assertThat(row.getField(4)).isEqualTo("2");
    assertThat(row.getField(5)).isNull();
    assertThat(loader.rowType().getTypeAt(3).getTypeClass()).isEqualTo(byte[].class);

    DiscoveredFile empty = file("day=2/empty.bin", new byte[0]);
    Row emptyRow =
        read(FileFormat.BINARY_FILE, loader.schema(), SchemaEvolutionMode.RESCUE, empty).get(0);
    assertThat(emptyRow.getField(2)).isEqualTo(0L);
    assertThat((byte[]) emptyRow.getField(3)).isEmpty();
    assertThat(
            read(FileFormat.WHOLE_TEXT, build("text").schema(), SchemaEvolutionMode.RESCUE, empty))
        .containsExactly(Row.of("", "2", null));
    assertThat(read(FileFormat.TEXT, build("text").schema(), SchemaEvolutionMode.RESCUE, empty))
        .isEmpty();
  }

  @Test
  void optionsThatDoNotFitTheFormatAreErrors() throws Exception {
    file("a.txt", "x");
    assertThatThrownBy(() -> build("sequenceFile"))
        .hasMessageContaining("cloudFiles.format='sequenceFile'")
        .hasMessageContaining("json, csv, parquet, avro, orc, text, binaryFile or xml");
    assertThatThrownBy(() -> build("json", "wholetext", "true"))
        .isInstanceOf(LakestreamException.class)
        .hasMessageContaining("wholetext");
    assertThatThrownBy(() -> build("binaryFile", "cloudFiles.schemaHints", "length INT"))
        .isInstanceOf(LakestreamException.class)
        .hasMessageContaining("cloudFiles.schemaHints")
        .hasMessageContaining("path STRING, modificationTime TIMESTAMP");
  }

  private AutoLoader build(String format, String... options) {
    AutoLoaderBuilder builder =
        AutoLoaderBuilder.forPath(dir.resolve("in").toString())
            .name("files")
            .option("cloudFiles.format", format)
            .option("cloudFiles.schemaLocation", dir.resolve("schema-" + format).toString())
            .option("cloudFiles.schemaEvolutionMode", "rescue");
    for (int i = 0; i < options.length; i += 2) {
      builder.option(options[i], options[i + 1]);
    }
    return builder.build();
  }

  private DiscoveredFile file(String key, String text) throws Exception {
    return file(key, text.getBytes(StandardCharsets.UTF_8));
  }

  private DiscoveredFile file(String key, byte[]... parts) throws Exception {
    Path f = dir.resolve("in").resolve(key);
    Files.createDirectories(f.getParent());
    Files.write(f, new byte[0]);
    for (byte[] part : parts) {
      Files.write(f, part, java.nio.file.StandardOpenOption.APPEND);
    }
    return new DiscoveredFile(key, Files.size(f), Files.getLastModifiedTime(f).toMillis());
  }

  private List<Row> read(
      FileFormat format, AutoLoaderSchema schema, SchemaEvolutionMode mode, DiscoveredFile f)
      throws Exception {
    FileRowReader reader =
        new FileRowReader(
            dir.resolve("in").toUri().toString(),
            Map.of(),
            format,
            new RecordConverter(schema),
            mode,
            null,
            0,
            false,
            false);
    List<Row> rows = new ArrayList<>();
    reader.read(f, rows::add);
    return rows;
  }
}
