package io.lakestream.interop;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.connectors.delta.merge.DeltaMerge;
import io.lakestream.connectors.delta.merge.DeltaMergeCommit;
import io.lakestream.pipelines.PipelineOptions;
import io.lakestream.pipelines.gold.OrdersGoldDaily;
import io.lakestream.state.query.OutputMode;
import io.lakestream.state.query.QueryContext;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The gold table of pipeline E4 read with delta-spark: equal to Spark's own {@code count(*)},
 * {@code sum(amount)} per {@code to_date(order_ts)} over the silver table (written by lakestream's
 * MERGE, with updates that move orders between days and deletes), and its change feed readable.
 */
class GoldDailySparkInteropTest {
  private static SparkSession spark;

  @TempDir Path dir;

  @BeforeAll
  static void startSpark() {
    spark = InteropSpark.session();
  }

  private static Object[] order(int id, int day, int cents, String op) {
    return new Object[] {
      "o-" + id,
      Instant.parse("2026-03-01T00:00:00Z").plusSeconds(day * 86_400L + id * 37L % 86_400),
      "c-" + (id % 7),
      BigDecimal.valueOf(cents, 2),
      Instant.parse("2026-04-01T00:00:00Z"),
      op
    };
  }

  @Test
  void sparkReadsGoldEqualToItsOwnDailyAggregateOfSilver() throws Exception {
    String silverPath = dir.resolve("lake/orders_silver").toUri().toString();
    DeltaMergeCommit silver =
        new DeltaMergeCommit(
            DeltaMerge.into(
                    DeltaTable.forPath(silverPath), OrdersGoldDaily.SILVER_SCHEMA, "order_id")
                .whenMatchedDelete((s, t) -> "D".equals(s[5]))
                .whenMatchedUpdateAll()
                .whenNotMatchedInsertAll((s, t) -> !"D".equals(s[5]))
                .build(),
            "silver");
    List<Object[]> batch = new ArrayList<>();
    for (int id = 0; id < 120; id++) {
      batch.add(order(id, id % 4, 100 + id * 13, "I"));
    }
    silver.commit(1, batch);
    batch = new ArrayList<>();
    for (int id = 0; id < 40; id++) {
      batch.add(order(id, (id + 1) % 4, 999 + id, "U")); // moved to the next day
    }
    for (int id = 40; id < 70; id++) {
      batch.add(order(id, id % 4, 0, "D"));
    }
    silver.commit(2, batch);

    String goldPath = dir.resolve("lake/orders_gold_daily").toUri().toString();
    Map<String, String> expected = sparkAggregate(silverPath);
    assertThat(expected).hasSize(4);

    Configuration conf = new Configuration();
    conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMillis(300));
    StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2, conf);
    QueryContext query =
        new QueryContext(
            "qid",
            "gold",
            "run-1",
            "gold-qid",
            dir.resolve("lake/_checkpoints/gold").toUri().toString(),
            true,
            false,
            OutputMode.UPDATE);
    new OrdersGoldDaily()
        .dataflow(new PipelineOptions(dir.resolve("lake").toUri(), 0, 0, 0))
        .build(env, query);
    JobClient job = env.executeAsync("gold-interop");
    try {
      long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
      while (!kernelGold(goldPath).equals(expected) && System.nanoTime() < deadline) {
        Thread.sleep(300);
      }
    } finally {
      job.cancel().get();
    }

    Map<String, String> gold = new TreeMap<>();
    for (Row r : spark.read().format("delta").load(goldPath).collectAsList()) {
      gold.put(
          r.getDate(0).toString(),
          r.getLong(1) + "|" + r.getDecimal(2).setScale(2, RoundingMode.UNNECESSARY));
    }
    assertThat(gold).isEqualTo(expected);
    assertThat(
            spark.read().format("delta").load(goldPath).schema().apply("total_amount").dataType())
        .hasToString("DecimalType(22,2)");
    long changes =
        spark
            .read()
            .format("delta")
            .option("readChangeFeed", "true")
            .option("startingVersion", 1)
            .load(goldPath)
            .count();
    assertThat(changes).isGreaterThanOrEqualTo(4);
  }

  private static Map<String, String> sparkAggregate(String silverPath) {
    Map<String, String> out = new TreeMap<>();
    for (Row r :
        spark
            .sql(
                "SELECT to_date(order_ts) AS d, count(*) AS n, sum(amount) AS s FROM delta.`"
                    + silverPath
                    + "` GROUP BY to_date(order_ts)")
            .collectAsList()) {
      out.put(
          r.getDate(0).toString(),
          r.getLong(1) + "|" + r.getDecimal(2).setScale(2, RoundingMode.UNNECESSARY));
    }
    return out;
  }

  private static Map<String, String> kernelGold(String goldPath) throws Exception {
    Map<String, String> out = new TreeMap<>();
    DeltaTable gold = DeltaTable.forPath(goldPath);
    if (gold.latestSnapshot().isEmpty()) {
      return out;
    }
    for (Object[] row : new DeltaTableReader(gold).readLatest()) {
      out.put(
          row[0].toString(),
          row[1] + "|" + ((BigDecimal) row[2]).setScale(2, RoundingMode.UNNECESSARY));
    }
    return out;
  }
}
