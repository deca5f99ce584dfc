package io.lakestream.sql;

import static io.lakestream.sql.SqlPlanning.assertFails;
import static io.lakestream.sql.SqlPlanning.query;
import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.operators.dedup.WatermarkDeduplicator;
import java.nio.file.Path;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamNode;
import org.apache.flink.streaming.api.operators.SimpleOperatorFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What planning a {@code DROP_DUPLICATES_WITHIN_WATERMARK} view checks before any job runs: the
 * statement's shape, the input's watermark and its delay, the key columns; and that a valid one
 * plans lakestream's watermark deduplicator under its uid, with the delay the table declares.
 */
class DropDuplicatesViewPlanningTest {
  @TempDir Path dir;

  private StreamExecutionEnvironment plan(String watermark, String view) {
    String script =
        "CREATE TABLE orders (event_id STRING, amount DECIMAL(12, 2),"
            + " order_ts TIMESTAMP_LTZ(3)"
            + watermark
            + ") WITH ('connector' = 'spark-kafka', 'format' = 'json',"
            + " 'kafka.bootstrap.servers' = '127.0.0.1:1', 'subscribe' = 'orders',"
            + " 'deadLetterTable' = '"
            + dir.resolve("dead").toUri()
            + "');\n"
            + view
            + ";\n"
            + "CREATE TABLE dst (event_id STRING, order_ts TIMESTAMP_LTZ(3)) WITH ("
            + "'connector' = 'delta', 'path' = '"
            + dir.resolve("out").toUri()
            + "');\n"
            + "INSERT INTO dst SELECT event_id, order_ts FROM orders_unique";
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    SqlDataflow.of(script).build(env, query());
    return env;
  }

  private static final String WATERMARK =
      ", WATERMARK FOR order_ts AS order_ts - INTERVAL '90' SECOND";

  private static String view(String keys) {
    return "CREATE TEMPORARY VIEW orders_unique AS SELECT * FROM"
        + " TABLE(DROP_DUPLICATES_WITHIN_WATERMARK(TABLE orders, DESCRIPTOR("
        + keys
        + ")))";
  }

  @Test
  void aViewPlansTheWatermarkDeduplicatorWithTheTablesDelayUnderItsUid() throws Exception {
    StreamExecutionEnvironment env = plan(WATERMARK, view("event_id"));
    StreamNode dedup =
        env.getStreamGraph().getStreamNodes().stream()
            .filter(n -> "drop-duplicates-orders_unique".equals(n.getTransformationUID()))
            .findFirst()
            .orElseThrow();
    Object operator = ((SimpleOperatorFactory<?>) dedup.getOperatorFactory()).getOperator();
    assertThat(operator).isInstanceOf(WatermarkDeduplicator.class);
    assertThat(operator).hasFieldOrPropertyWithValue("delayMillis", 90_000L);
  }

  @Test
  void theLowerCamelSpellingAndQuotedNamesPlanToo() {
    plan(
        WATERMARK,
        "CREATE TEMPORARY VIEW `orders_unique` AS SELECT * FROM"
            + " TABLE(dropDuplicatesWithinWatermark(TABLE `orders`, DESCRIPTOR(`EVENT_ID`)))");
  }

  @Test
  void anInputWithoutAWatermarkIsRefusedNamingTheWatermarkToDeclare() {
    assertFails(
        () -> plan("", view("event_id")),
        "SQL_INVALID_DEDUPLICATION",
        "declares no watermark",
        "WATERMARK FOR");
  }

  @Test
  void aWatermarkWhoseDelayCannotBeToldIsRefused() {
    assertFails(
        () ->
            plan(
                ", WATERMARK FOR order_ts AS order_ts - INTERVAL '1' SECOND * 2", view("event_id")),
        "SQL_INVALID_DEDUPLICATION",
        "cannot tell",
        "AS order_ts - INTERVAL '<n>' <unit>");
  }

  @Test
  void aMissingOrUnkeyableColumnIsRefusedNamingIt() {
    assertFails(
        () -> plan(WATERMARK, view("order_id")),
        "SQL_INVALID_DEDUPLICATION",
        "'order_id', which is not a column of orders");
    assertFails(
        () -> plan(WATERMARK, view("event_id, amount")),
        "SQL_INVALID_DEDUPLICATION",
        "key column 'amount' is DECIMAL(12, 2)",
        "CAST(amount AS STRING)");
  }

  @Test
  void theFunctionOutsideAViewOfItsOwnIsRefusedShowingTheShape() {
    assertFails(
        () ->
            plan(
                WATERMARK,
                "CREATE TEMPORARY VIEW orders_unique AS SELECT event_id FROM"
                    + " TABLE(DROP_DUPLICATES_WITHIN_WATERMARK(TABLE orders, DESCRIPTOR(event_id)))"),
        "SQL_INVALID_DEDUPLICATION",
        "CREATE TEMPORARY VIEW <view> AS SELECT * FROM TABLE(DROP_DUPLICATES_WITHIN_WATERMARK(");
  }
}
