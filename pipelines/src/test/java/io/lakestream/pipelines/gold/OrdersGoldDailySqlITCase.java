package io.lakestream.pipelines.gold;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.pipelines.PipelineOptions;
import io.lakestream.pipelines.SqlExample;
import io.lakestream.runtime.StreamingQuery;
import io.lakestream.runtime.StreamingQueryBuilder;
import io.lakestream.runtime.Trigger;
import io.lakestream.state.StateBackendSettings;
import io.lakestream.testkit.delta.DeltaLogTxns;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The worked example E4 as SQL ({@code pipelines/sql/e4_gold_daily.sql}) against the Java pipeline
 * {@link OrdersGoldDaily}, both streaming the change data feed of one silver table written by MERGE
 * versions (inserts, updates moving orders between days, deletes, a day emptied) in two
 * availableNow runs: after each run the SQL gold table holds the Java one's daily orders and totals
 * row for row, both equal to the aggregate of silver's current rows, the emptied day deleted.
 */
class OrdersGoldDailySqlITCase {
  @TempDir Path dir;

  private void runJava(String silver) throws Exception {
    PipelineOptions options =
        new PipelineOptions(
            dir.resolve("java").toUri(),
            0,
            0,
            0,
            Map.of("path", silver, "maxFilesPerTrigger", "1", "pollInterval", "100ms"));
    StreamingQueryBuilder.of(new OrdersGoldDaily().dataflow(options))
        .queryName("gold")
        .checkpointLocation(dir.resolve("java/_checkpoints/gold").toString())
        .trigger(Trigger.availableNow())
        .parallelism(2)
        .stateBackend(StateBackendSettings.defaults())
        .start()
        .awaitTermination();
  }

  private StreamingQuery runSql() throws Exception {
    return SqlExample.of("e4_gold_daily.sql")
        .localized(dir.resolve("sql"), null)
        .replace(
            "'readChangeFeed' = 'true'",
            "'readChangeFeed' = 'true', 'maxFilesPerTrigger' = '1', 'pollInterval' = '100ms'")
        .run();
  }

  private Map<LocalDate, String> gold(String side) throws Exception {
    return SilverOrders.gold(
        DeltaTable.forPath(dir.resolve(side + "/orders_gold_daily").toUri().toString()));
  }

  @Test
  void theSqlFileWritesTheTotalsOfTheJavaPipeline() throws Exception {
    SilverOrders silver = new SilverOrders(dir.resolve("sql/orders_silver").toUri().toString(), 23);
    silver.commit(150, 0, 0);
    silver.commit(40, 50, 20);
    silver.commit(0, 40, 10);
    runJava(silver.table.path());
    StreamingQuery first = runSql();
    assertThat(gold("sql"))
        .hasSize(SilverOrders.DAYS)
        .isEqualTo(SilverOrders.dailyAggregate(silver.table))
        .isEqualTo(gold("java"));

    silver.commit(30, 60, 25);
    silver.deleteDay(SilverOrders.FIRST_DAY.plusDays(3));
    runJava(silver.table.path());
    StreamingQuery second = runSql();
    assertThat(gold("sql"))
        .as("a day emptied by deletes is gone")
        .hasSize(SilverOrders.DAYS - 1)
        .isEqualTo(SilverOrders.dailyAggregate(silver.table))
        .isEqualTo(gold("java"));
    DeltaLogTxns log =
        DeltaLogTxns.read(dir.resolve("sql/orders_gold_daily")).assertEachEpochOnce();
    assertThat(log.appIds()).containsExactly(first.appId());
    assertThat(second.appId()).isEqualTo(first.appId());
  }
}
