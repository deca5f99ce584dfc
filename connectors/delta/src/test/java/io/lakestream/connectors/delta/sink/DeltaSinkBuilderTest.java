package io.lakestream.connectors.delta.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.state.query.OutputMode;
import io.lakestream.state.query.QueryContext;
import io.lakestream.state.query.SinkKind;
import java.io.File;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DeltaSinkBuilderTest {
  private static final DeltaTableSchema SCHEMA =
      DeltaTableSchema.builder().column("id", ColumnType.LONG).build();

  private static QueryContext query(OutputMode mode) {
    return new QueryContext("q", "n", "r", "n-q", "file:///tmp/chk", false, false, mode);
  }

  private static DeltaSinkBuilder<Long> builder() {
    return DeltaSinkBuilder.<Long>forTable(
        "target/delta-sink-builder-test/table/", SCHEMA, id -> new Object[] {id});
  }

  @Test
  void aRelativePathBecomesAStableAbsoluteTarget() {
    var sink = builder().query(query(OutputMode.APPEND)).sinkName("s").build();
    assertThat(sink.sinkKind()).isEqualTo(SinkKind.DELTA);
    assertThat(sink.sinkTarget())
        .isEqualTo(
            new File("target/delta-sink-builder-test/table")
                .getAbsoluteFile()
                .toURI()
                .toString()
                .replaceAll("/$", ""));
  }

  @Test
  void updateModeIsRefusedPointingToMerge() {
    assertThatThrownBy(() -> builder().query(query(OutputMode.UPDATE)).sinkName("s").build())
        .isInstanceOf(LakestreamException.class)
        .hasMessageContaining("does not support output mode update")
        .hasMessageContaining("MERGE")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("DELTA_UNSUPPORTED_OUTPUT_MODE");
  }

  @Test
  void theQueryAndASinkNameAreRequired() {
    assertThatThrownBy(() -> builder().sinkName("s").build())
        .hasMessageContaining("needs the query")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("DELTA_INVALID_SINK_SETTING");
    assertThatThrownBy(() -> builder().query(query(OutputMode.APPEND)).build())
        .hasMessageContaining("needs a sinkName")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("CONNECTOR_NAME_MISSING");
    assertThatThrownBy(
            () -> builder().query(query(OutputMode.APPEND)).sinkName("s").maxRowsPerFile(0).build())
        .hasMessageContaining("maxRowsPerFile must be >= 1")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("DELTA_INVALID_SINK_SETTING");
  }

  @TempDir java.nio.file.Path dir;

  @Test
  void completeModeIsAcceptedButNotForChangeDataFeedTables() {
    String plain = dir.resolve("plain").toString();
    var sink =
        DeltaSinkBuilder.<Long>forTable(plain, SCHEMA, id -> new Object[] {id})
            .query(query(OutputMode.COMPLETE))
            .sinkName("s")
            .build();
    assertThat(sink.sinkKind()).isEqualTo(SinkKind.DELTA);
    DeltaTableSchema cdf =
        DeltaTableSchema.builder()
            .column("id", ColumnType.LONG)
            .property("delta.enableChangeDataFeed", "true")
            .build();
    assertThatThrownBy(
            () ->
                DeltaSinkBuilder.<Long>forTable(
                        dir.resolve("cdf").toString(), cdf, id -> new Object[] {id})
                    .query(query(OutputMode.COMPLETE))
                    .sinkName("s")
                    .build())
        .hasMessageContaining("Output mode complete")
        .hasMessageContaining("delta.enableChangeDataFeed=true")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("DELTA_UNSUPPORTED_FEATURE");
  }

  @Test
  void optionsUseSparkNamesAndUnknownOnesListTheValidOnes() {
    String path = dir.resolve("t").toString();
    DeltaSinkBuilder.<Long>forTable(path, SCHEMA, id -> new Object[] {id})
        .query(query(OutputMode.APPEND))
        .sinkName("s")
        .build();
    DeltaTableSchema wider =
        DeltaTableSchema.builder()
            .column("id", ColumnType.LONG)
            .column("extra", ColumnType.STRING)
            .build();
    assertThatThrownBy(
            () ->
                DeltaSinkBuilder.<Long>forTable(path, wider, id -> new Object[] {id, null})
                    .query(query(OutputMode.APPEND))
                    .sinkName("s")
                    .build())
        .hasMessageContaining("mergeSchema=true")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("DELTA_SCHEMA_MISMATCH");
    DeltaSinkBuilder.<Long>forTable(path, wider, id -> new Object[] {id, null})
        .query(query(OutputMode.APPEND))
        .sinkName("s")
        .option("MERGESCHEMA", "true")
        .build();
    assertThatThrownBy(() -> builder().option("mergeSchema", "yes"))
        .hasMessageContaining("must be true or false")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("INVALID_OPTION_VALUE");
    assertThatThrownBy(() -> builder().option("overwriteSchema", "true"))
        .isInstanceOfSatisfying(
            LakestreamException.class, e -> assertThat(e.errorClass()).isEqualTo("UNKNOWN_OPTION"))
        .hasMessageContaining("Unknown Delta sink option 'overwriteSchema'")
        .hasMessageContaining("[autoCompact, mergeSchema]");
  }
}
