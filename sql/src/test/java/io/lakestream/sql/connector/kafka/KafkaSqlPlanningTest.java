package io.lakestream.sql.connector.kafka;

import static io.lakestream.sql.SqlPlanning.assertFails;
import static io.lakestream.sql.SqlPlanning.query;
import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.sql.SqlDataflow;
import java.nio.file.Path;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the Kafka table factory checks while a statement is planned, before any job runs and before
 * any broker is asked: options (names, values, rules), the format's needs and the declared columns.
 */
class KafkaSqlPlanningTest {
  @TempDir Path dir;

  private StreamExecutionEnvironment plan(String columns, String options) {
    return plan(columns, options, "CAST(topic AS STRING)");
  }

  private StreamExecutionEnvironment plan(String columns, String options, String selected) {
    String script =
        "CREATE TABLE src ("
            + columns
            + ") WITH ('connector' = 'spark-kafka', 'kafka.bootstrap.servers' = '127.0.0.1:1',"
            + " 'subscribe' = 'orders'"
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

  @Test
  void theSparkColumnsPlanWithRateLimitsInAnyCase() {
    plan(
        "key STRING, `value` BYTES, topic STRING, `partition` INT, `offset` BIGINT,"
            + " `timestamp` TIMESTAMP_LTZ(3), timestampType INT, headers MAP<STRING, BYTES>",
        ", 'STARTINGOFFSETS' = 'earliest', 'maxOffsetsPerTrigger' = '100'");
  }

  @Test
  void anUnknownOptionNamesTheClosestValidOne() {
    assertFails(
        () -> plan("topic STRING", ", 'maxOffsetPerTrigger' = '10'"),
        "UNKNOWN_OPTION",
        "maxOffsetPerTrigger",
        "maxOffsetsPerTrigger");
  }

  @Test
  void aBadValueNamesTheOption() {
    assertFails(
        () -> plan("topic STRING", ", 'maxOffsetsPerTrigger' = 'lots'"),
        "INVALID_OPTION_VALUE",
        "maxOffsetsPerTrigger",
        "lots");
  }

  @Test
  void theSourcesRulesHold() {
    assertFails(
        () -> plan("topic STRING", ", 'minOffsetsPerTrigger' = '10', 'maxOffsetsPerTrigger' = '5'"),
        "CONFLICTING_OPTIONS",
        "minOffsetsPerTrigger",
        "maxOffsetsPerTrigger");
  }

  @Test
  void aConsumerSettingTheSourceOwnsIsRefusedNamingTheOptionToUse() {
    assertFails(
        () -> plan("topic STRING", ", 'kafka.auto.offset.reset' = 'latest'"),
        "UNSUPPORTED_OPTION",
        "startingOffsets");
  }

  @Test
  void theHeadersColumnWithIncludeHeadersOffIsAConflict() {
    assertFails(
        () -> plan("topic STRING, headers MAP<STRING, BYTES>", ", 'includeHeaders' = 'false'"),
        "CONFLICTING_OPTIONS",
        "includeHeaders",
        "headers");
  }

  @Test
  void jsonWithoutADeadLetterTableIsRefused() {
    assertFails(
        () -> plan("topic STRING METADATA, id BIGINT", ", 'format' = 'json'"),
        "MISSING_OPTION",
        "deadLetterTable",
        "never dropped");
  }

  @Test
  void aColumnThatIsNoKafkaColumnNamesTheFormatOption() {
    assertFails(
        () -> plan("topic STRING, id BIGINT", ""),
        "SQL_SCHEMA_MISMATCH",
        "'id'",
        "key, value, topic, partition, offset, timestamp, timestampType, headers",
        "'format' = 'json'");
  }

  @Test
  void aKafkaColumnOfTheWrongTypeNamesItsType() {
    assertFails(
        () -> plan("topic STRING, `offset` INT", ""), "SQL_SCHEMA_MISMATCH", "'offset'", "BIGINT");
  }

  @Test
  void aJsonColumnOfATypeJsonCannotDecodeIsRefused() {
    assertFails(
        () ->
            plan(
                "topic STRING METADATA, tags ARRAY<STRING>",
                ", 'format' = 'json', 'deadLetterTable' = '" + dir.resolve("dead").toUri() + "'"),
        "UNSUPPORTED_DATA_TYPE",
        "'tags'",
        "STRING");
  }

  @Test
  void aJsonTableReadsFieldsAndMetadataAndWritesItsDeadLetters() {
    StreamExecutionEnvironment env =
        plan(
            "topic STRING METADATA, kafka_ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp' VIRTUAL,"
                + " id BIGINT, amount DECIMAL(12, 2), ts TIMESTAMP_LTZ(3)",
            ", 'format' = 'json', 'deadLetterTable' = '" + dir.resolve("dead").toUri() + "'");
    assertThat(env.getStreamGraph().getStreamNodes())
        .extracting(n -> n.getOperatorName())
        .anyMatch(name -> name.contains("DeadLetters[default_catalog.default_database.src]"));
  }

  private static final String AVRO =
      ", 'format' = 'avro', 'deadLetterTable' = '/tmp/dead', 'avroSchema' ="
          + " '{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"id\","
          + "\"type\":\"long\"},{\"name\":\"name\",\"type\":\"string\"}]}'";

  @Test
  void avroColumnsMustBeFieldsOfTheSchemaOfTheirType() {
    plan("id BIGINT, NAME STRING", AVRO, "NAME");
    assertFails(
        () -> plan("id BIGINT, price DOUBLE", AVRO, "CAST(id AS STRING)"),
        "SQL_SCHEMA_MISMATCH",
        "column 'price' is not a field of the Avro schema",
        "[id, name]");
    assertFails(
        () -> plan("id INT", AVRO, "CAST(id AS STRING)"),
        "SQL_SCHEMA_MISMATCH",
        "column 'id' is INT",
        "declare the column as BIGINT");
    assertFails(
        () ->
            plan(
                "id BIGINT",
                ", 'format' = 'avro', 'deadLetterTable' = '/tmp/d'",
                "CAST(id AS STRING)"),
        "MISSING_OPTION",
        "avroSchema");
    assertFails(
        () -> plan("topic STRING", ", 'avroSchema' = '{}'"),
        "CONFLICTING_OPTIONS",
        "avroSchema",
        "format avro");
  }
}
