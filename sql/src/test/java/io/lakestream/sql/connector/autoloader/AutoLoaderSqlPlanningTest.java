package io.lakestream.sql.connector.autoloader;

import static io.lakestream.sql.SqlPlanning.assertFails;
import static io.lakestream.sql.SqlPlanning.query;
import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.sql.SqlDataflow;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the cloudFiles table factory checks while a statement is planned, before any job runs: the
 * options, the declared columns against the given or inferred schema, and the rescued data column.
 */
class AutoLoaderSqlPlanningTest {
  @TempDir Path dir;
  private Path input;

  @BeforeEach
  void oneFile() throws IOException {
    input = Files.createDirectories(dir.resolve("landing"));
    Files.writeString(input.resolve("a.json"), "{\"id\": 1, \"name\": \"a\"}\n");
  }

  private void plan(String columns, String options) {
    String script =
        "CREATE TABLE src ("
            + columns
            + ") WITH ('connector' = 'cloudFiles', 'path' = '"
            + input.toUri()
            + "', 'cloudFiles.format' = 'json'"
            + options
            + ");\n"
            + "CREATE TABLE dst (x STRING) WITH ('connector' = 'delta', 'path' = '"
            + dir.resolve("out").toUri()
            + "');\n"
            + "INSERT INTO dst SELECT CAST(id AS STRING) FROM src";
    SqlDataflow.of(script).build(StreamExecutionEnvironment.getExecutionEnvironment(), query());
  }

  private String schemaLocation() {
    return schemaLocation("schema");
  }

  private String schemaLocation(String name) {
    return ", 'cloudFiles.schemaLocation' = '" + dir.resolve(name).toUri() + "'";
  }

  @Test
  void aGivenSchemaAndAnInferredOnePlan() {
    plan("id BIGINT, name STRING", "");
    plan("id BIGINT, name STRING, _rescued_data STRING", "");
    plan("id STRING, NAME STRING, _rescued_data STRING", schemaLocation());
    assertThat(dir.resolve("schema/_schemas/0")).as("the inferred schema is kept").exists();
  }

  @Test
  void optionsAreCheckedByName() {
    assertFails(
        () -> plan("id BIGINT", ", 'cloudFiles.maxFilePerTrigger' = '10'"),
        "UNKNOWN_OPTION",
        "cloudFiles.maxFilePerTrigger",
        "cloudFiles.maxFilesPerTrigger");
    assertFails(
        () -> plan("id BIGINT", ", 'cloudFiles.useNotifications' = 'true'"),
        "CONFLICTING_OPTIONS",
        "cloudFiles.useNotifications",
        "must be on S3");
  }

  @Test
  void aTableWithoutPathNamesTheOption() {
    String script =
        "CREATE TABLE src (id BIGINT) WITH ('connector' = 'cloudFiles',"
            + " 'cloudFiles.format' = 'json');\n"
            + "CREATE TABLE dst (x BIGINT) WITH ('connector' = 'delta', 'path' = '"
            + dir.resolve("out").toUri()
            + "');\n"
            + "INSERT INTO dst SELECT id FROM src";
    assertFails(
        () ->
            SqlDataflow.of(script)
                .build(StreamExecutionEnvironment.getExecutionEnvironment(), query()),
        "MISSING_OPTION",
        "'path'");
  }

  @Test
  void aColumnTheInferredSchemaLacksListsTheColumnsItHas() {
    assertFails(
        () -> plan("id STRING, amount STRING, _rescued_data STRING", schemaLocation()),
        "SQL_SCHEMA_MISMATCH",
        "'amount'",
        "id STRING, name STRING");
  }

  @Test
  void aTypeOtherThanTheInferredOneNamesBothAndTheHints() {
    assertFails(
        () -> plan("id BIGINT, _rescued_data STRING", schemaLocation()),
        "SQL_SCHEMA_MISMATCH",
        "'id' as BIGINT",
        "has it as STRING",
        "cloudFiles.schemaHints");
    plan(
        "id BIGINT, _rescued_data STRING",
        schemaLocation("hinted") + ", 'cloudFiles.schemaHints' = 'id BIGINT'");
  }

  @Test
  void rescuedDataIsDeclaredWhenTheSchemaKeepsIt() {
    assertFails(
        () -> plan("id STRING", schemaLocation()),
        "SQL_SCHEMA_MISMATCH",
        "_rescued_data",
        "'cloudFiles.schemaEvolutionMode' = 'none'");
    assertFails(
        () ->
            plan("id BIGINT, _rescued_data STRING", ", 'cloudFiles.schemaEvolutionMode' = 'none'"),
        "SQL_SCHEMA_MISMATCH",
        "declares `_rescued_data`");
    plan("id STRING", schemaLocation() + ", 'cloudFiles.schemaEvolutionMode' = 'none'");
  }

  @Test
  void aTypeAutoLoaderDoesNotReadIsRefused() {
    assertFails(
        () -> plan("id BIGINT, tags ARRAY<STRING>", ""),
        "UNSUPPORTED_DATA_TYPE",
        "'tags'",
        "STRING, BOOLEAN, INT");
  }
}
