package io.lakestream.connectors.delta.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.delta.DeltaAppendCommit;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableException;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.filter.DeltaFilter;
import io.lakestream.connectors.schema.ColumnType;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.java.typeutils.RowTypeInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DeltaSourceBuilderTest {
  @TempDir Path dir;

  private DeltaSourceBuilder builder(Map<String, String> options) {
    return DeltaSourceBuilder.forTable(dir.resolve("t").toString()).name("src").options(options);
  }

  @Test
  void unknownOptionsAndBadValuesNameTheOption() {
    assertThatThrownBy(() -> builder(Map.of("maxFilesPerTriger", "5")).sanityCheck())
        .isInstanceOfSatisfying(
            LakestreamException.class, e -> assertThat(e.errorClass()).isEqualTo("UNKNOWN_OPTION"))
        .hasMessageContaining("Unknown Delta source option 'maxFilesPerTriger'")
        .hasMessageContaining("maxFilesPerTrigger")
        .hasMessageContaining("skipChangeCommits");
    assertThatThrownBy(() -> builder(Map.of("maxFilesPerTrigger", "0")).sanityCheck())
        .hasMessageContaining("maxFilesPerTrigger must be >= 1")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("INVALID_OPTION_VALUE");
    assertThatThrownBy(() -> builder(Map.of("maxFilesPerTrigger", "many")).sanityCheck())
        .hasMessageContaining("maxFilesPerTrigger='many' is invalid")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("INVALID_OPTION_VALUE");
    assertThatThrownBy(() -> builder(Map.of("skipChangeCommits", "maybe")).sanityCheck())
        .hasMessageContaining("skipChangeCommits='maybe'")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("INVALID_OPTION_VALUE");
    assertThatThrownBy(() -> builder(Map.of("startingVersion", "first")).sanityCheck())
        .hasMessageContaining("startingVersion must be a version number >= 0 or 'latest'")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("INVALID_OPTION_VALUE");
    assertThatThrownBy(() -> builder(Map.of("timestampAsOf", "yesterday")).sanityCheck())
        .hasMessageContaining("timestampAsOf must be an ISO-8601 instant")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("INVALID_OPTION_VALUE");
    assertThatThrownBy(
            () -> builder(Map.of("versionAsOf", "1", "startingVersion", "1")).sanityCheck())
        .hasMessageContaining("startingVersion and startingTimestamp are for streaming reads")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("CONFLICTING_OPTIONS");
    assertThatThrownBy(() -> builder(Map.of("startingTimestamp", "yesterday")).sanityCheck())
        .hasMessageContaining("startingTimestamp must be an ISO-8601 instant")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("INVALID_OPTION_VALUE");
    assertThatThrownBy(
            () ->
                builder(Map.of("startingVersion", "1", "startingTimestamp", "2024-05-01"))
                    .sanityCheck())
        .hasMessageContainingAll("startingVersion", "startingTimestamp")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("CONFLICTING_OPTIONS");
    assertThatThrownBy(() -> DeltaSourceBuilder.forTable(dir.toString()).sanityCheck())
        .hasMessageContaining("needs a name")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("CONNECTOR_NAME_MISSING");
    builder(Map.of("maxBytesPerTrigger", "64m", "startingVersion", "latest")).sanityCheck();
  }

  @Test
  void buildReadsTheSchemaAndChecksTheStartingVersion() throws Exception {
    assertThatThrownBy(() -> builder(Map.of()).build())
        .isInstanceOf(DeltaTableException.class)
        .hasMessageContaining("No Delta table at")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("DELTA_TABLE_NOT_FOUND");
    DeltaTable table = DeltaTable.forPath(dir.resolve("t").toUri().toString());
    DeltaTableSchema schema =
        DeltaTableSchema.builder()
            .column("id", ColumnType.LONG, false)
            .column("amount", ColumnType.decimal(10, 2))
            .column("day", ColumnType.DATE)
            .partitionedBy("day")
            .build();
    new DeltaAppendCommit(table, schema, "app").open();

    DeltaSource source = builder(Map.of()).build();
    assertThat(source.getBoundedness()).isEqualTo(Boundedness.CONTINUOUS_UNBOUNDED);
    RowTypeInfo type = (RowTypeInfo) source.getProducedType();
    assertThat(type.getFieldNames()).containsExactly("id", "amount", "day");
    assertThat(type.getTypeAt(0)).isEqualTo(Types.LONG);
    assertThat(type.getTypeAt(1)).isEqualTo(Types.BIG_DEC);
    assertThat(type.getTypeAt(2)).isEqualTo(Types.LOCAL_DATE);
    assertThat(source.sourceType()).isEqualTo("delta");
    assertThat(builder(Map.of("versionAsOf", "0")).build().getBoundedness())
        .isEqualTo(Boundedness.BOUNDED);
    assertThatThrownBy(() -> builder(Map.of("startingVersion", "3")).build())
        .hasMessageContaining("startingVersion=3 is past the latest version 0")
        .hasMessageContaining("'latest'")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("DELTA_INVALID_VERSION_RANGE");
  }

  @Test
  void chosenColumnsAndTheFilterAreCheckedAgainstTheSchemaNamingTheColumn() throws Exception {
    DeltaTable table = DeltaTable.forPath(dir.resolve("t").toUri().toString());
    DeltaTableSchema schema =
        DeltaTableSchema.builder()
            .column("id", ColumnType.LONG, false)
            .column("amount", ColumnType.decimal(10, 2))
            .column("day", ColumnType.DATE)
            .partitionedBy("day")
            .build();
    new DeltaAppendCommit(table, schema, "app").open();

    DeltaSource source =
        builder(Map.of())
            .columns("DAY", "id")
            .filter(DeltaFilter.equalTo("Day", LocalDate.of(2024, 5, 1)))
            .build();
    RowTypeInfo type = (RowTypeInfo) source.getProducedType();
    assertThat(type.getFieldNames()).containsExactly("day", "id");
    assertThat(type.getTypeAt(0)).isEqualTo(Types.LOCAL_DATE);
    assertThat(type.getTypeAt(1)).isEqualTo(Types.LONG);

    assertInvalid(builder(Map.of()).columns("id", "nope"), "column 'nope'", "[id, amount, day]");
    assertInvalid(
        builder(Map.of()).filter(DeltaFilter.lessThan("id", 5)),
        "column 'id' (long)",
        "java.lang.Integer",
        "java.lang.Long");
    assertInvalid(builder(Map.of()).filter(DeltaFilter.isNull("nope")), "column 'nope'");
    assertInvalid(builder(Map.of()).columns(), "empty column list");
    assertInvalid(builder(Map.of()).columns("id", "ID"), "column 'ID' twice");
  }

  private static void assertInvalid(DeltaSourceBuilder builder, String... texts) {
    assertThatThrownBy(builder::build)
        .isInstanceOfSatisfying(
            LakestreamException.class,
            e -> assertThat(e.errorClass()).isEqualTo("DELTA_INVALID_SOURCE_SETTING"))
        .hasMessageContainingAll(texts);
  }
}
