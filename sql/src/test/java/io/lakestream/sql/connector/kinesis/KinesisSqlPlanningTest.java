package io.lakestream.sql.connector.kinesis;

import static io.lakestream.sql.SqlPlanning.assertFails;
import static io.lakestream.sql.SqlPlanning.query;
import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.sql.SqlDataflow;
import java.nio.file.Path;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the Kinesis table factory checks while a statement is planned, before any job runs and
 * before Kinesis is asked: options (names, values, rules), the format's needs and the declared
 * columns, against Databricks' Kinesis columns or the Avro schema's fields.
 */
class KinesisSqlPlanningTest {
  @TempDir Path dir;

  private StreamExecutionEnvironment plan(String columns, String options, String selected) {
    String script =
        "CREATE TABLE src ("
            + columns
            + ") WITH ('connector' = 'spark-kinesis', 'streamName' = 'clicks',"
            + " 'region' = 'us-east-1'"
            + options
            + ");\n"
            + "CREATE TABLE dst (x STRING) WITH ('connector' = 'delta', 'path' = '"
            + dir.resolve("out").toUri()
            + "');\n"
            + "INSERT INTO dst SELECT "
            + selected
            + " FROM src";
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    SqlDataflow.of(script).build(env, query());
    return env;
  }

  private String deadLetters() {
    return ", 'deadLetterTable' = '" + dir.resolve("dead").toUri() + "'";
  }

  @Test
  void databricksColumnsPlanWithOptionsInAnyCase() {
    plan(
        "partitionKey STRING, data STRING, `stream` STRING, shardId STRING, sequenceNumber STRING,"
            + " approximateArrivalTimestamp TIMESTAMP_LTZ(3)",
        ", 'INITIALPOSITION' = 'trim_horizon', 'maxRecordsPerEpoch' = '100'",
        "data");
  }

  @Test
  void anUnknownOptionNamesTheClosestValidOne() {
    assertFails(
        () -> plan("data STRING", ", 'maxRecordPerEpoch' = '10'", "data"),
        "UNKNOWN_OPTION",
        "maxRecordPerEpoch",
        "maxRecordsPerEpoch");
  }

  @Test
  void aColumnThatIsNoKinesisColumnNamesTheFormatOption() {
    assertFails(
        () -> plan("data STRING, id BIGINT", "", "data"),
        "SQL_SCHEMA_MISMATCH",
        "'id'",
        "partitionKey, data, stream, shardId, sequenceNumber, approximateArrivalTimestamp",
        "'format' = 'json'");
    assertFails(
        () -> plan("sequenceNumber BIGINT", "", "'x'"),
        "SQL_SCHEMA_MISMATCH",
        "'sequenceNumber'",
        "STRING");
  }

  @Test
  void jsonWithoutADeadLetterTableIsRefused() {
    assertFails(
        () -> plan("shardId STRING METADATA, id BIGINT", ", 'format' = 'json'", "shardId"),
        "MISSING_OPTION",
        "deadLetterTable",
        "never dropped");
  }

  @Test
  void aJsonTableReadsFieldsAndMetadataAndWritesItsDeadLetters() {
    StreamExecutionEnvironment env =
        plan(
            "shardId STRING METADATA, seq STRING METADATA FROM 'sequenceNumber' VIRTUAL,"
                + " id BIGINT, amount DECIMAL(12, 2)",
            ", 'format' = 'json'" + deadLetters(),
            "CONCAT(shardId, seq, CAST(id AS STRING))");
    assertThat(env.getStreamGraph().getStreamNodes())
        .extracting(n -> n.getOperatorName())
        .anyMatch(name -> name.contains("DeadLetters[default_catalog.default_database.src]"));
  }

  @Test
  void avroColumnsMustBeFieldsOfTheSchemaOfTheirType() {
    String avro =
        ", 'format' = 'avro', 'avroSchema' ="
            + " '{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"id\","
            + "\"type\":\"long\"},{\"name\":\"name\",\"type\":\"string\"}]}'"
            + deadLetters();
    plan("id BIGINT, NAME STRING, pk STRING METADATA FROM 'partitionKey'", avro, "NAME");
    assertFails(
        () -> plan("id BIGINT, price DOUBLE", avro, "CAST(id AS STRING)"),
        "SQL_SCHEMA_MISMATCH",
        "Kinesis table default_catalog.default_database.src (format 'avro')",
        "column 'price' is not a field of the Avro schema",
        "[id, name]");
    assertFails(
        () -> plan("id BIGINT", ", 'format' = 'avro'" + deadLetters(), "CAST(id AS STRING)"),
        "MISSING_OPTION",
        "avroSchema");
    assertFails(
        () -> plan("data STRING", ", 'avroSchema' = '{}'", "data"),
        "CONFLICTING_OPTIONS",
        "avroSchema",
        "format avro");
  }
}
