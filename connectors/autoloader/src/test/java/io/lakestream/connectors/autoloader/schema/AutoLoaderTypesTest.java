package io.lakestream.connectors.autoloader.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.schema.Column;
import io.lakestream.connectors.schema.ColumnType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link AutoLoaderTypes}: the schema files under {@code cloudFiles.schemaLocation} keep their
 * bytes, hints and files are parsed as before, the rows' Flink types and the inference rules.
 */
class AutoLoaderTypesTest {
  /** {@code _schemas/0} as the Auto Loader of the type class the model replaced wrote it. */
  private static final String SCHEMA_FILE =
      "{\"columns\":[{\"name\":\"id\",\"type\":\"BIGINT\"},{\"name\":\"n\",\"type\":\"INT\"},"
          + "{\"name\":\"q\",\"type\":\"BIGINT\"},{\"name\":\"x\",\"type\":\"INT\"},"
          + "{\"name\":\"amount\",\"type\":\"DECIMAL(12,2)\"},{\"name\":\"d\",\"type\":\"DOUBLE\"},"
          + "{\"name\":\"ok\",\"type\":\"BOOLEAN\"},{\"name\":\"day\",\"type\":\"DATE\"},"
          + "{\"name\":\"ts\",\"type\":\"TIMESTAMP\"},{\"name\":\"s\",\"type\":\"STRING\"}],"
          + "\"partitionColumns\":[\"date\",\"hour\"],\"rescuedDataColumn\":true}";

  @TempDir Path dir;

  private static AutoLoaderSchema everyType() {
    Map<String, ColumnType> hints =
        AutoLoaderSchema.parseColumns(
            "id BIGINT, n int, `q` LONG, x INTEGER, amount DECIMAL( 12 , 2 ), d double,"
                + " ok boolean, day date, ts timestamp, s string");
    List<Column> columns = new ArrayList<>();
    hints.forEach((name, type) -> columns.add(new Column(name, type)));
    return new AutoLoaderSchema(columns, List.of("date", "hour"), true);
  }

  @Test
  void schemaFilesKeepTheirBytesAndReadBack() throws Exception {
    AutoLoaderSchema schema = everyType();
    SchemaHistory history = new SchemaHistory(dir.toUri().toString(), Map.of());
    assertThat(history.record(0, schema)).isTrue();
    assertThat(Files.readString(dir.resolve("_schemas/0"), StandardCharsets.UTF_8))
        .isEqualTo(SCHEMA_FILE);
    assertThat(AutoLoaderSchema.fromJson(SCHEMA_FILE)).isEqualTo(schema);
    assertThat(history.latest().orElseThrow().schema()).isEqualTo(schema);
    assertThat(schema.ddl())
        .isEqualTo(
            "id BIGINT, n INT, q BIGINT, x INT, amount DECIMAL(12,2), d DOUBLE, ok BOOLEAN,"
                + " day DATE, ts TIMESTAMP, s STRING");
  }

  @Test
  void rowsKeepTheirFlinkTypes() {
    assertThat(everyType().rowType().toString())
        .isEqualTo(
            "Row(id: Long, n: Integer, q: Long, x: Integer, amount: BigDecimal, d: Double, ok:"
                + " Boolean, day: LocalDate, ts: Instant, s: String, date: String, hour: String,"
                + " _rescued_data: String)");
  }

  @Test
  void otherTypesAreRefusedNamingTheSupportedOnes() {
    assertThat(AutoLoaderTypes.parse("BINARY")).isEqualTo(ColumnType.BINARY); // binaryFile content
    for (String text : List.of("TINYINT", "ARRAY<INT>", "STRUCT<x INT>", "FOO", "")) {
      assertThatThrownBy(() -> AutoLoaderTypes.parse(text))
          .as(text)
          .isInstanceOf(LakestreamException.class)
          .hasMessage(
              "[UNSUPPORTED_DATA_TYPE] Unsupported column type '"
                  + text
                  + "'; supported: STRING, BIGINT, INT, DOUBLE, BOOLEAN, DATE, TIMESTAMP,"
                  + " DECIMAL(p,s), BINARY");
    }
    assertThatThrownBy(() -> AutoLoaderTypes.parse("DECIMAL(5,10)"))
        .hasMessageStartingWith("[INVALID_DECIMAL] decimal(5,10) is out of range");
    assertThatThrownBy(() -> AutoLoaderSchema.parseColumns("a MAP<STRING, INT>, b INT"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Unsupported column type 'MAP<STRING, INT>'");
  }

  @Test
  void inferenceWidensNumbersAndFallsBackToStrings() throws Exception {
    ObjectMapper json = new ObjectMapper();
    assertThat(AutoLoaderTypes.infer(json.readTree("7"), true, false)).isEqualTo(ColumnType.LONG);
    assertThat(AutoLoaderTypes.infer(json.readTree("\"7\""), true, false))
        .isEqualTo(ColumnType.STRING);
    assertThat(AutoLoaderTypes.infer(json.readTree("\"7\""), true, true))
        .isEqualTo(ColumnType.LONG);
    assertThat(AutoLoaderTypes.infer(json.readTree("\"1e3\""), true, true))
        .isEqualTo(ColumnType.DOUBLE);
    assertThat(AutoLoaderTypes.infer(json.readTree("null"), true, true)).isNull();
    assertThat(AutoLoaderTypes.widen(ColumnType.INT, ColumnType.LONG)).isEqualTo(ColumnType.LONG);
    assertThat(AutoLoaderTypes.widen(ColumnType.LONG, ColumnType.DOUBLE))
        .isEqualTo(ColumnType.DOUBLE);
    assertThat(AutoLoaderTypes.widen(ColumnType.LONG, ColumnType.BOOLEAN))
        .isEqualTo(ColumnType.STRING);
    assertThat(AutoLoaderTypes.widen(null, ColumnType.DATE)).isEqualTo(ColumnType.DATE);
  }
}
