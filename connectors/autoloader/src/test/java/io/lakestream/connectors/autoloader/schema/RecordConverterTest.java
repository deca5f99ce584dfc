package io.lakestream.connectors.autoloader.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.schema.Column;
import io.lakestream.connectors.schema.ColumnType;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.Test;

/** Rows from records: types, partition values, and what goes to _rescued_data. */
class RecordConverterTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static final List<Column> COLUMNS =
      List.of(
          new Column("id", ColumnType.LONG),
          new Column("amount", AutoLoaderTypes.parse("DECIMAL(12,2)")));

  private static ObjectNode record(String json) throws Exception {
    return (ObjectNode) JSON.readTree(json);
  }

  @Test
  void rescuesUnknownAndMistypedFieldsWithTheFilePath() throws Exception {
    RecordConverter converter =
        new RecordConverter(new AutoLoaderSchema(COLUMNS, List.of("date"), true));
    Map<String, String> partitions =
        RecordConverter.partitionValues("date=2026-11-29/hour=07/f.json");
    assertThat(partitions).containsEntry("date", "2026-11-29").containsEntry("hour", "07");

    Row ok =
        converter.toRow(record("{\"id\":1,\"amount\":\"3.10\"}"), "", 1, "s3a://b/f", partitions);
    assertThat(ok.getField(0)).isEqualTo(1L);
    assertThat(ok.getField(1)).isEqualTo(new BigDecimal("3.10"));
    assertThat(ok.getField(2)).isEqualTo("2026-11-29");
    assertThat(ok.getField(3)).isNull();

    Row rescued =
        converter.toRow(
            record("{\"id\":\"x7\",\"amount\":1.5,\"coupon\":{\"code\":\"A\"}}"),
            "",
            2,
            "s3a://b/date=2026-11-29/f.json",
            partitions);
    assertThat(rescued.getField(0)).isNull();
    assertThat(rescued.getField(1)).isEqualTo(new BigDecimal("1.50"));
    assertThat(JSON.readTree((String) rescued.getField(3)))
        .isEqualTo(
            JSON.readTree(
                "{\"id\":\"x7\",\"coupon\":{\"code\":\"A\"},"
                    + "\"_file_path\":\"s3a://b/date=2026-11-29/f.json\"}"));

    Row corrupt = converter.toRow(null, "{not json", 3, "s3a://b/f", partitions);
    assertThat(JSON.readTree((String) corrupt.getField(3)).get("_corrupt_record").asText())
        .isEqualTo("{not json");
  }

  @Test
  void withoutRescuedDataColumnAMistypedValueIsAClearError() throws Exception {
    RecordConverter converter =
        new RecordConverter(new AutoLoaderSchema(COLUMNS, List.of(), false));
    assertThatThrownBy(
            () -> converter.toRow(record("{\"id\":\"x7\"}"), "", 4, "/in/f.json", Map.of()))
        .isInstanceOf(MalformedRecordException.class)
        .hasMessageContaining("line 4 of /in/f.json")
        .hasMessageContaining("x7 is not a BIGINT")
        .hasMessageContaining("cloudFiles.schemaEvolutionMode=rescue")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("MALFORMED_RECORD_IN_PARSING");
    // none: unknown fields are ignored
    Row row = converter.toRow(record("{\"id\":7,\"extra\":1}"), "", 5, "/in/f.json", Map.of());
    assertThat(row.getArity()).isEqualTo(2);
    assertThat(row.getField(0)).isEqualTo(7L);
  }

  @Test
  void schemaJsonRoundTrips() throws Exception {
    AutoLoaderSchema schema = new AutoLoaderSchema(COLUMNS, List.of("date"), true);
    assertThat(AutoLoaderSchema.fromJson(schema.toJson())).isEqualTo(schema);
    assertThat(AutoLoaderSchema.parseColumns("id=STRING, `amount` DECIMAL(12,2), ts TIMESTAMP"))
        .containsExactly(
            Map.entry("id", ColumnType.STRING),
            Map.entry("amount", AutoLoaderTypes.parse("decimal(12, 2)")),
            Map.entry("ts", ColumnType.TIMESTAMP));
  }
}
