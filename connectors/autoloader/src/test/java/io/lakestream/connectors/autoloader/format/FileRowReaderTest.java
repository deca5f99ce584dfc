package io.lakestream.connectors.autoloader.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.autoloader.discovery.DiscoveredFile;
import io.lakestream.connectors.autoloader.schema.AutoLoaderSchema;
import io.lakestream.connectors.autoloader.schema.RecordConverter;
import io.lakestream.connectors.autoloader.schema.SchemaEvolutionMode;
import io.lakestream.connectors.autoloader.schema.SchemaHistory;
import io.lakestream.connectors.autoloader.schema.UnknownFieldException;
import io.lakestream.connectors.schema.Column;
import io.lakestream.connectors.schema.ColumnType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading files in each schema evolution mode, and CSV with a header. */
class FileRowReaderTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  private static final AutoLoaderSchema SCHEMA =
      new AutoLoaderSchema(
          List.of(new Column("id", ColumnType.LONG), new Column("name", ColumnType.STRING)),
          List.of("date"),
          true);

  private DiscoveredFile file(String key, String... lines) throws Exception {
    Path f = dir.resolve("in").resolve(key);
    Files.createDirectories(f.getParent());
    Files.write(f, List.of(lines));
    return new DiscoveredFile(key, Files.size(f), 0);
  }

  private FileRowReader reader(
      FileFormat format, AutoLoaderSchema schema, SchemaEvolutionMode mode, SchemaHistory history) {
    return new FileRowReader(
        dir.resolve("in").toUri().toString(),
        Map.of(),
        format,
        new RecordConverter(schema),
        mode,
        history,
        0,
        true,
        false);
  }

  @Test
  void rescueKeepsNewColumnsWithTheFilePathAndNeverFails() throws Exception {
    DiscoveredFile f =
        file(
            "date=2026-11-29/a.json",
            "{\"id\":1,\"name\":\"a\"}",
            "{\"id\":2,\"name\":\"b\",\"coupon\":\"X1\"}",
            "{\"id\":\"three\",\"name\":\"c\"}",
            "not json");
    FileRowReader reader = reader(FileFormat.JSON, SCHEMA, SchemaEvolutionMode.RESCUE, null);
    List<Row> rows = new ArrayList<>();
    assertThat(reader.read(f, rows::add)).isEqualTo(4);
    String path = reader.pathOf(f);
    assertThat(rows.get(0)).isEqualTo(Row.of(1L, "a", "2026-11-29", null));
    assertThat(rows.get(1).getField(0)).isEqualTo(2L);
    assertThat(JSON.readTree((String) rows.get(1).getField(3)))
        .isEqualTo(JSON.createObjectNode().put("coupon", "X1").put("_file_path", path));
    assertThat(rows.get(2).getField(0)).isNull();
    assertThat(JSON.readTree((String) rows.get(2).getField(3)))
        .isEqualTo(JSON.createObjectNode().put("id", "three").put("_file_path", path));
    assertThat(JSON.readTree((String) rows.get(3).getField(3)).get("_corrupt_record").asText())
        .isEqualTo("not json");
  }

  @Test
  void failOnNewColumnsStopsWithoutRecordingAndAddNewColumnsRecordsTheNextVersion()
      throws Exception {
    DiscoveredFile f =
        file(
            "date=2026-11-29/b.json",
            "{\"id\":1,\"name\":\"a\"}",
            "{\"id\":2,\"qty\":3,\"vip\":true}");
    SchemaHistory history = new SchemaHistory(dir.resolve("schema").toUri().toString(), Map.of());
    history.record(0, SCHEMA);

    assertThatThrownBy(
            () ->
                reader(FileFormat.JSON, SCHEMA, SchemaEvolutionMode.FAIL_ON_NEW_COLUMNS, history)
                    .read(f, r -> {}))
        .isInstanceOf(UnknownFieldException.class)
        .hasMessageContaining("new columns [qty, vip]")
        .hasMessageContaining("does not evolve the schema")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("UNKNOWN_FIELD_EXCEPTION");
    assertThat(history.latest().orElseThrow().version()).isZero();

    assertThatThrownBy(
            () ->
                reader(FileFormat.JSON, SCHEMA, SchemaEvolutionMode.ADD_NEW_COLUMNS, history)
                    .read(f, r -> {}))
        .isInstanceOf(UnknownFieldException.class)
        .satisfies(e -> assertThat(((UnknownFieldException) e).recordedVersion()).isEqualTo(1))
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("UNKNOWN_FIELD_EXCEPTION");
    assertThat(history.latest().orElseThrow().schema().ddl())
        .isEqualTo("id BIGINT, name STRING, qty BIGINT, vip BOOLEAN");

    List<Row> rows = new ArrayList<>();
    reader(FileFormat.JSON, SCHEMA, SchemaEvolutionMode.NONE, history).read(f, rows::add);
    assertThat(rows).hasSize(2); // none: the new columns are dropped
  }

  @Test
  void csvWithHeaderAndQuotedFields() throws Exception {
    DiscoveredFile f =
        file(
            "date=2026-11-29/c.csv",
            "id,name",
            "1,plain",
            "2,\"with, comma and \"\"quotes\"\"\"",
            "3,");
    List<Row> rows = new ArrayList<>();
    reader(FileFormat.CSV, SCHEMA, SchemaEvolutionMode.ADD_NEW_COLUMNS, null).read(f, rows::add);
    assertThat(rows)
        .containsExactly(
            Row.of(1L, "plain", "2026-11-29", null),
            Row.of(2L, "with, comma and \"quotes\"", "2026-11-29", null),
            Row.of(3L, null, "2026-11-29", null));
  }
}
