package io.lakestream.connectors.autoloader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.autoloader.schema.SchemaInferenceException;
import io.lakestream.state.query.OutputMode;
import io.lakestream.state.query.QueryContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Option validation, the location guards, and schema resolution of {@link AutoLoaderBuilder}. */
class AutoLoaderBuilderTest {
  @TempDir Path dir;

  private AutoLoaderBuilder builder() {
    return AutoLoaderBuilder.forPath(dir.resolve("landing").toString())
        .name("files")
        .option("cloudFiles.format", "json")
        .option("cloudFiles.schemaLocation", dir.resolve("schema").toString());
  }

  private static QueryContext queryAt(Path checkpoint) {
    return new QueryContext(
        "q", "n", "r", "a", checkpoint.toUri().toString(), false, false, OutputMode.APPEND);
  }

  @Test
  void unknownOptionIsRefusedListingTheValidOnes() {
    assertThatThrownBy(() -> builder().option("cloudFiles.maxFilesPerTriger", "5").sanityCheck())
        .isInstanceOfSatisfying(
            LakestreamException.class, e -> assertThat(e.errorClass()).isEqualTo("UNKNOWN_OPTION"))
        .hasMessageContaining("Unknown Auto Loader option 'cloudFiles.maxFilesPerTriger'")
        .hasMessageContaining("cloudFiles.maxFilesPerTrigger")
        .hasMessageContaining("cloudFiles.schemaEvolutionMode");
  }

  @Test
  void badValuesNameTheOption() {
    assertThatThrownBy(() -> builder().option("cloudFiles.maxFilesPerTrigger", "0").sanityCheck())
        .hasMessageContaining("cloudFiles.maxFilesPerTrigger must be >= 1");
    assertThatThrownBy(() -> builder().option("cloudFiles.maxFileAge", "soon").sanityCheck())
        .hasMessageContaining("cloudFiles.maxFileAge='soon' is invalid");
    assertThatThrownBy(() -> builder().option("cloudFiles.maxFileAge", "13 d").sanityCheck())
        .hasMessageContaining("cloudFiles.maxFileAge")
        .hasMessageContaining("at least 14 days")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("INVALID_OPTION_VALUE");
    builder().option("cloudFiles.maxFileAge", "14 d").sanityCheck();
    System.setProperty(AutoLoaderOptions.MIN_MAX_FILE_AGE_PROPERTY, "1000"); // tests only
    try {
      builder().option("cloudFiles.maxFileAge", "1 s").sanityCheck();
    } finally {
      System.clearProperty(AutoLoaderOptions.MIN_MAX_FILE_AGE_PROPERTY);
    }
    assertThatThrownBy(() -> builder().option("cloudFiles.format", "sequenceFile").sanityCheck())
        .hasMessageContaining("cloudFiles.format='sequenceFile' is not supported");
    assertThatThrownBy(() -> builder().option("cloudFiles.format", "xml").sanityCheck())
        .hasMessageContaining("cloudFiles.format=xml needs rowTag");
    assertThatThrownBy(
            () -> builder().option("cloudFiles.schemaEvolutionMode", "merge").sanityCheck())
        .hasMessageContaining("addNewColumns, rescue, failOnNewColumns or none");
    assertThatThrownBy(
            () -> builder().option("cloudFiles.schemaHints", "amount DECIMAL(12").sanityCheck())
        .hasMessageContaining("cloudFiles.schemaHints")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("INVALID_OPTION_VALUE");
    assertThatThrownBy(
            () -> builder().option("cloudFiles.schemaHints", "tags MAP<STRING, INT>").sanityCheck())
        .hasMessageContaining("cloudFiles.schemaHints")
        .hasMessageContaining("Unsupported column type 'MAP<STRING, INT>'")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("INVALID_OPTION_VALUE");
    assertThatThrownBy(() -> builder().schema("id BIGINT, tags MAP<STRING, INT>").sanityCheck())
        .hasMessageContaining("AutoLoaderBuilder.schema")
        .hasMessageContaining("Unsupported column type 'MAP<STRING, INT>'")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("CF_INVALID_SCHEMA");
    assertThatThrownBy(
            () ->
                AutoLoaderBuilder.forPath(dir.toString())
                    .name("files")
                    .option("cloudFiles.format", "json")
                    .sanityCheck())
        .hasMessageContaining("needs option cloudFiles.schemaLocation");
    assertThatThrownBy(
            () ->
                builder()
                    .schema("id BIGINT")
                    .option("cloudFiles.schemaEvolutionMode", "addNewColumns")
                    .sanityCheck())
        .hasMessageContaining("addNewColumns needs an inferred schema");
  }

  @Test
  void schemaLocationInsideTheInputPathIsRefused() {
    assertThatThrownBy(
            () ->
                builder()
                    .option(
                        "cloudFiles.schemaLocation",
                        dir.resolve("landing/_schemas_here").toString())
                    .sanityCheck())
        .isInstanceOf(LakestreamException.class)
        .hasMessageContaining("cloudFiles.schemaLocation")
        .hasMessageContaining("is inside the input path")
        .hasMessageContaining("would list its own state files")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("CF_LOCATION_INSIDE_INPUT");
  }

  @Test
  void checkpointLocationInsideTheInputPathIsRefused() {
    assertThatThrownBy(() -> builder().query(queryAt(dir.resolve("landing/chk"))).sanityCheck())
        .isInstanceOf(LakestreamException.class)
        .hasMessageContaining("checkpointLocation")
        .hasMessageContaining("is inside the input path")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("CF_LOCATION_INSIDE_INPUT");
    assertThatThrownBy(() -> builder().query(queryAt(dir.resolve("landing"))).sanityCheck())
        .hasMessageContaining("is inside the input path")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("CF_LOCATION_INSIDE_INPUT");
    // beside the input is fine, as is a similarly named sibling
    builder().query(queryAt(dir.resolve("landing-chk"))).sanityCheck();
  }

  @Test
  void emptyInputWithoutSchemaIsAClearError() throws Exception {
    Files.createDirectories(dir.resolve("landing"));
    assertThatThrownBy(() -> builder().build())
        .isInstanceOf(SchemaInferenceException.class)
        .hasMessageContaining("has no files yet")
        .hasMessageContaining("Give the schema")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("CF_EMPTY_DIR_FOR_SCHEMA_INFERENCE");
  }

  @Test
  void givenSchemaNeedsNoFilesAndHintsOverrideInference() throws Exception {
    Files.createDirectories(dir.resolve("landing"));
    AutoLoader given =
        AutoLoaderBuilder.forPath(dir.resolve("landing").toString())
            .name("files")
            .option("cloudFiles.format", "json")
            .schema("id BIGINT, amount DECIMAL(12,2)")
            .build();
    assertThat(given.schema().ddl()).isEqualTo("id BIGINT, amount DECIMAL(12,2)");
    assertThat(given.rowType().getFieldNames()).containsExactly("id", "amount");

    Files.createDirectories(dir.resolve("landing/date=2026-11-29"));
    Files.write(
        dir.resolve("landing/date=2026-11-29/f.json"),
        List.of("{\"id\":1,\"amount\":\"3.10\",\"ok\":true}"));
    AutoLoader inferred =
        builder().options(Map.of("cloudFiles.schemaHints", "amount DECIMAL(12,2)")).build();
    assertThat(inferred.schema().ddl()).isEqualTo("amount DECIMAL(12,2), id STRING, ok STRING");
    assertThat(inferred.rowType().getFieldNames())
        .containsExactly("amount", "id", "ok", "date", "_rescued_data");
    assertThat(Files.readString(dir.resolve("schema/_schemas/0"))).contains("DECIMAL(12,2)");
  }

  @Test
  void inferenceSamplesTheNewestFilesAndARestartReusesTheRecordedSchema() throws Exception {
    Path old = dir.resolve("landing/a-old.json");
    Path recent = dir.resolve("landing/b-new.json");
    Files.createDirectories(old.getParent());
    Files.write(old, List.of("{\"legacy\":1}"));
    Files.write(recent, List.of("{\"id\":7,\"price\":2.5,\"ok\":true}"));
    Files.setLastModifiedTime(old, java.nio.file.attribute.FileTime.fromMillis(1_000));
    AutoLoader first =
        builder()
            .option("spark.databricks.cloudFiles.schemaInference.sampleSize.numFiles", "1")
            .option("cloudFiles.inferColumnTypes", "true")
            .build();
    assertThat(first.schema().ddl()).isEqualTo("id BIGINT, ok BOOLEAN, price DOUBLE");
    assertThat(first.schemaVersion()).isZero();

    Files.write(dir.resolve("landing/c.json"), List.of("{\"other\":\"x\"}"));
    AutoLoader restarted = builder().option("cloudFiles.inferColumnTypes", "true").build();
    assertThat(restarted.schema()).isEqualTo(first.schema()); // read from _schemas/0, not inferred
  }
}
