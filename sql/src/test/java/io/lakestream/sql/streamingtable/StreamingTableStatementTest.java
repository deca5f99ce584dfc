package io.lakestream.sql.streamingtable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.sql.SqlScript;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.catalog.ObjectIdentifier;
import org.junit.jupiter.api.Test;

/** What a {@code CREATE OR REFRESH STREAMING TABLE} statement says, and what it may not say. */
class StreamingTableStatementTest {
  private static StreamingTableStatement parse(String text) {
    return StreamingTableStatement.parse(SqlScript.statements(text).get(0));
  }

  private static void assertRefused(String text, String fix) {
    assertThatThrownBy(() -> parse(text))
        .isInstanceOf(LakestreamException.class)
        .hasMessageContaining(fix)
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("SQL_INVALID_STREAMING_TABLE");
  }

  @Test
  void theSeedsStatementReadsItsTriggerAndItsStreamRead() {
    StreamingTableStatement table =
        parse(
            """
            CREATE OR REFRESH STREAMING TABLE orders_5m
            TRIGGER ON UPDATE AT MOST EVERY INTERVAL 5 MINUTES AS
            SELECT window_start, COUNT(*) AS orders FROM TABLE(TUMBLE(TABLE
              STREAM(main.bronze.orders), DESCRIPTOR(order_ts), INTERVAL '5' MINUTES))
            GROUP BY window_start
            """);
    assertThat(table.name()).containsExactly("orders_5m");
    assertThat(table.schedule())
        .contains(new RefreshSchedule(RefreshSchedule.Kind.ON_UPDATE, Duration.ofMinutes(5)));
    assertThat(table.query())
        .startsWith("SELECT window_start")
        .contains("TABLE\n  main.bronze.orders, DESCRIPTOR")
        .doesNotContain("STREAM");
  }

  @Test
  void clausesComeInAnyOrder() {
    StreamingTableStatement table =
        parse(
            "create or refresh streaming table lake.`gold`.`daily totals` SCHEDULE REFRESH EVERY 2"
                + " HOURS TBLPROPERTIES ('delta.enableChangeDataFeed' = 'true', 'delta.x' ="
                + " 'it''s') COMMENT 'per day' PARTITIONED BY (region, `day`) AS SELECT 1");
    assertThat(table.identifier("default_catalog", "default_database"))
        .isEqualTo(ObjectIdentifier.of("lake", "gold", "daily totals"));
    assertThat(table.schedule())
        .contains(new RefreshSchedule(RefreshSchedule.Kind.EVERY, Duration.ofHours(2)));
    assertThat(table.properties())
        .isEqualTo(Map.of("delta.enableChangeDataFeed", "true", "delta.x", "it's"));
    assertThat(table.comment()).contains("per day");
    assertThat(table.partitionKeys()).isEqualTo(List.of("region", "day"));
    assertThat(table.query()).isEqualTo("SELECT 1");
  }

  @Test
  void aNameWithoutCatalogOrDatabaseTakesTheCurrentOnes() {
    assertThat(parse("CREATE OR REFRESH STREAMING TABLE t AS SELECT 1").identifier("c", "d"))
        .isEqualTo(ObjectIdentifier.of("c", "d", "t"));
    assertThat(parse("CREATE OR REFRESH STREAMING TABLE db.t AS SELECT 1").identifier("c", "d"))
        .isEqualTo(ObjectIdentifier.of("c", "db", "t"));
  }

  @Test
  void onUpdateWithoutAnIntervalRefreshesAtMostOnceAMinute() {
    assertThat(
            parse("CREATE OR REFRESH STREAMING TABLE t TRIGGER ON UPDATE AS SELECT 1").schedule())
        .contains(new RefreshSchedule(RefreshSchedule.Kind.ON_UPDATE, Duration.ofMinutes(1)));
    assertThat(parse("CREATE OR REFRESH STREAMING TABLE t AS SELECT 1").schedule()).isEmpty();
  }

  @Test
  void anIntervalUnderAMinuteIsRefused() {
    assertRefused(
        "CREATE OR REFRESH STREAMING TABLE t TRIGGER ON UPDATE AT MOST EVERY INTERVAL 30 SECONDS"
            + " AS SELECT 1",
        "gives 30 seconds: write an interval of 1 minute or more");
    assertRefused(
        "CREATE OR REFRESH STREAMING TABLE t SCHEDULE EVERY 0 MINUTES AS SELECT 1",
        "at most once a minute");
    assertThat(
            parse(
                    "CREATE OR REFRESH STREAMING TABLE t TRIGGER ON UPDATE AT MOST EVERY INTERVAL"
                        + " '60' SECONDS AS SELECT 1")
                .schedule()
                .orElseThrow()
                .interval())
        .isEqualTo(Duration.ofMinutes(1));
  }

  @Test
  void whatIsNotSupportedSaysWhatToWrite() {
    assertRefused(
        "CREATE OR REFRESH STREAMING TABLE t SCHEDULE CRON '0 0 * * * ?' AS SELECT 1",
        "SCHEDULE CRON is not supported");
    assertRefused(
        "CREATE OR REFRESH STREAMING TABLE t (id BIGINT) AS SELECT 1",
        "takes its columns from its query");
    assertRefused("CREATE STREAMING TABLE t AS SELECT 1", "write it as CREATE OR REFRESH");
    assertRefused(
        "CREATE OR REFRESH STREAMING TABLE t SCHEDULE EVERY 1 FORTNIGHT AS SELECT 1",
        "'FORTNIGHT' is no unit");
    assertRefused(
        "CREATE OR REFRESH STREAMING TABLE t SCHEDULE EVERY 1 HOUR TRIGGER ON UPDATE AS SELECT 1",
        "not two");
    assertRefused(
        "CREATE OR REFRESH STREAMING TABLE t LOCATION '/x' AS SELECT 1", "near: LOCATION");
  }

  @Test
  void onlyStreamingTablesAreRecognized() {
    assertThat(
            StreamingTableStatement.isIn(
                SqlScript.statements("create or refresh  streaming table x as select 1").get(0)))
        .isTrue();
    assertThat(
            StreamingTableStatement.isIn(
                SqlScript.statements("CREATE TABLE streaming_table (id INT)").get(0)))
        .isFalse();
  }
}
