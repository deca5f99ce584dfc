package io.lakestream.interop;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.operators.parse.DeadLetter;
import io.lakestream.pipelines.demo.Order;
import io.lakestream.pipelines.silver.OrderValidation;
import io.lakestream.pipelines.silver.OrdersSilverTables;
import io.lakestream.pipelines.silver.Rejection;
import io.lakestream.pipelines.silver.SilverEpochFunction;
import io.lakestream.pipelines.silver.SilverInput;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The silver and quarantine tables of pipeline E3, written epoch by epoch by its epoch function
 * (the code the streaming job runs at each commit, replays included), read back with delta-spark:
 * the silver table equals the model (per order the valid version with the newest order_ts, updates
 * arriving out of order across epochs), its change data feed ends at that row for every order, and
 * the quarantine holds each reject once with its reason.
 */
class OrdersSilverSparkInteropTest {
  private static final Instant T0 = Instant.parse("2026-03-01T00:00:00Z");
  private static SparkSession spark;

  @TempDir Path dir;

  @BeforeAll
  static void startSpark() {
    spark = InteropSpark.session();
  }

  private static String text(Object orderId, Object eventId, Object amount, Instant ts) {
    return orderId + "|" + eventId + "|" + amount + "|" + ts;
  }

  @Test
  void sparkReadsTheSilverTableItsChangeFeedAndTheQuarantineExactly() throws Exception {
    DeltaTable silver = DeltaTable.forPath(dir.resolve("orders_silver").toString());
    DeltaTable quarantine = DeltaTable.forPath(dir.resolve("orders_silver_quarantine").toString());
    SilverEpochFunction function = new SilverEpochFunction(silver, quarantine, "interop-silver");

    // 600 events of 60 orders, each with its own order_ts, in random order over 12 epochs.
    Random random = new Random(3);
    List<Integer> seconds = new ArrayList<>();
    for (int i = 0; i < 600; i++) {
      seconds.add(i * 7);
    }
    Collections.shuffle(seconds, random);
    Map<String, Order> newest = new TreeMap<>();
    Map<String, Integer> rejectsByReason = new TreeMap<>();
    List<List<Object[]>> epochs = new ArrayList<>();
    for (int e = 0; e < 12; e++) {
      epochs.add(new ArrayList<>());
    }
    for (int i = 0; i < 600; i++) {
      String orderId = i % 13 == 0 ? null : String.format("o-%03d", random.nextInt(60));
      BigDecimal amount = new BigDecimal((i % 11 == 0 ? -1 : 1) * (i + 1) + ".50");
      Order order =
          new Order(
              "e-" + i,
              orderId,
              "c-" + (i % 7),
              amount,
              "EUR",
              T0.plusSeconds(seconds.get(i)).toEpochMilli());
      epochs.get(random.nextInt(12)).add(OrdersSilverTables.stagingRow(SilverInput.order(order)));
      Rejection rejection = OrderValidation.check(orderId, amount).orElse(null);
      if (rejection != null) {
        rejectsByReason.merge(rejection.reason().name(), 1, Integer::sum);
      } else {
        newest.merge(orderId, order, (a, b) -> a.orderTsMillis > b.orderTsMillis ? a : b);
      }
    }
    for (int m = 0; m < 5; m++) {
      epochs
          .get(m)
          .add(
              OrdersSilverTables.stagingRow(
                  SilverInput.malformed(
                      new DeadLetter("{bad " + m, "not valid JSON", "t/0@" + m, 0))));
      rejectsByReason.merge("MALFORMED_RECORD", 1, Integer::sum);
    }
    for (int e = 0; e < 12; e++) {
      function.call(e, epochs.get(e));
      if (e % 4 == 3) {
        function.call(e, epochs.get(e)); // a replay after a crash: skipped by both tables
      }
    }

    List<String> expected = new ArrayList<>();
    newest.forEach(
        (id, o) ->
            expected.add(
                text(id, o.eventId, o.amount.setScale(2), Instant.ofEpochMilli(o.orderTsMillis))));

    List<String> read = new ArrayList<>();
    for (Row row :
        spark
            .read()
            .format("delta")
            .load(silver.path())
            .select("order_id", "event_id", "amount", "order_ts")
            .collectAsList()) {
      read.add(text(row.get(0), row.get(1), row.get(2), ((Timestamp) row.get(3)).toInstant()));
    }
    assertThat(read).containsExactlyInAnyOrderElementsOf(expected);

    // The change feed: per order, its last insert/update_postimage is the row in the table.
    Map<String, Row> lastChange = new TreeMap<>();
    for (Row row :
        spark
            .read()
            .format("delta")
            .option("readChangeFeed", "true")
            .option("startingVersion", 0)
            .load(silver.path())
            .where("_change_type IN ('insert', 'update_postimage')")
            .select("order_id", "event_id", "amount", "order_ts", "_commit_version")
            .collectAsList()) {
      lastChange.merge(row.getString(0), row, (a, b) -> a.getLong(4) >= b.getLong(4) ? a : b);
    }
    List<String> fromFeed = new ArrayList<>();
    lastChange.forEach(
        (id, row) ->
            fromFeed.add(text(id, row.get(1), row.get(2), ((Timestamp) row.get(3)).toInstant())));
    assertThat(fromFeed).containsExactlyInAnyOrderElementsOf(expected);

    Map<String, Integer> quarantined = new TreeMap<>();
    for (Row row :
        spark
            .read()
            .format("delta")
            .load(quarantine.path())
            .groupBy("reason")
            .count()
            .collectAsList()) {
      quarantined.put(row.getString(0), (int) row.getLong(1));
    }
    assertThat(quarantined).isEqualTo(rejectsByReason);
  }
}
