package io.lakestream.connectors.delta.cdf.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.delta.DeltaAppendCommit;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.DeltaTableWriter;
import io.lakestream.connectors.delta.cdf.ChangeDataFeedNotEnabledException;
import io.lakestream.connectors.schema.ColumnType;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.java.typeutils.RowTypeInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DeltaCdfSourceBuilderTest {
  @TempDir Path dir;

  private String table(boolean cdf) throws IOException {
    DeltaTableSchema.Builder builder =
        DeltaTableSchema.builder()
            .column("id", ColumnType.LONG, false)
            .column("label", ColumnType.STRING);
    if (cdf) {
      builder.property("delta.enableChangeDataFeed", "true");
    }
    DeltaTableSchema schema = builder.build();
    DeltaTable table = DeltaTable.forPath(dir.resolve(cdf ? "cdf" : "plain").toUri().toString());
    DeltaAppendCommit commit = new DeltaAppendCommit(table, schema, "w");
    commit.open();
    commit.commit(
        1, new DeltaTableWriter(table, schema).write(List.<Object[]>of(new Object[] {1L, "a"})));
    return table.path();
  }

  private static DeltaCdfSourceBuilder builder(String path, Map<String, String> options) {
    return DeltaCdfSourceBuilder.forTable(path).name("cdf").options(options);
  }

  @Test
  void unknownOptionsFailListingTheValidOnes() {
    assertThatThrownBy(() -> builder("/tmp/x", Map.of("startingVersoin", "1")).sanityCheck())
        .isInstanceOfSatisfying(
            LakestreamException.class, e -> assertThat(e.errorClass()).isEqualTo("UNKNOWN_OPTION"))
        .hasMessageContaining("Unknown Delta CDF source option 'startingVersoin'")
        .hasMessageContaining(
            "[allowSourceColumnDrop, allowSourceColumnRename, maxBytesPerTrigger,"
                + " maxFilesPerTrigger, pollInterval, readChangeFeed, startingTimestamp,"
                + " startingVersion]");
  }

  @Test
  void badValuesFailNamingTheOption() {
    assertThatThrownBy(() -> builder("/tmp/x", Map.of("startingVersion", "-3")).sanityCheck())
        .hasMessageContaining("startingVersion must be a version number >= 0 or 'latest'")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("INVALID_OPTION_VALUE");
    assertThatThrownBy(() -> builder("/tmp/x", Map.of("startingVersion", "first")).sanityCheck())
        .hasMessageContaining("startingVersion")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("INVALID_OPTION_VALUE");
    assertThatThrownBy(() -> builder("/tmp/x", Map.of("maxFilesPerTrigger", "0")).sanityCheck())
        .hasMessageContaining("maxFilesPerTrigger must be >= 1")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("INVALID_OPTION_VALUE");
    assertThatThrownBy(() -> builder("/tmp/x", Map.of("maxFilesPerTrigger", "many")).sanityCheck())
        .hasMessageContaining("maxFilesPerTrigger='many' is invalid")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("INVALID_OPTION_VALUE");
    assertThatThrownBy(() -> builder("/tmp/x", Map.of("readChangeFeed", "false")).sanityCheck())
        .hasMessageContaining("readChangeFeed=false");
    assertThatThrownBy(() -> DeltaCdfSourceBuilder.forTable("/tmp/x").sanityCheck())
        .hasMessageContaining("needs a name")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("CONNECTOR_NAME_MISSING");
  }

  @Test
  void aTableWithoutTheFeedIsRefusedAtBuildNamingTheProperty() throws IOException {
    String path = table(false);
    assertThatThrownBy(() -> builder(path, Map.of("startingVersion", "1")).build())
        .isInstanceOf(ChangeDataFeedNotEnabledException.class)
        .hasMessageContaining("delta.enableChangeDataFeed")
        .hasMessageContaining("version 1")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("DELTA_CHANGE_DATA_FEED_NOT_ENABLED");
    assertThatThrownBy(() -> builder(path, Map.of()).build())
        .isInstanceOf(ChangeDataFeedNotEnabledException.class)
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("DELTA_CHANGE_DATA_FEED_NOT_ENABLED");
  }

  @Test
  void buildsWithTheChangeColumnsAndRefusesAStartPastTheLatestVersion() throws IOException {
    String path = table(true);
    DeltaCdfSource source = builder(path, Map.of("startingVersion", "1")).build();
    assertThat(((RowTypeInfo) source.getProducedType()).getFieldNames())
        .containsExactly("id", "label", "_change_type", "_commit_version", "_commit_timestamp");
    assertThatThrownBy(() -> builder(path, Map.of("startingVersion", "7")).build())
        .hasMessageContaining("startingVersion=7 is past the latest version 1")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("DELTA_INVALID_VERSION_RANGE");
  }
}
