package io.lakestream.pipelines.gold;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.delta.DeltaAppendCommit;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.connectors.delta.DeltaTableWriter;
import io.lakestream.pipelines.SqlExample;
import io.lakestream.pipelines.demo.OrdersDemo;
import io.lakestream.sql.streamingtable.RefreshSchedule;
import io.lakestream.sql.streamingtable.StreamingTableRefresh;
import io.lakestream.state.StateBackendSettings;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The worked example E7 ({@code pipelines/sql/e7_orders_5m.sql}), the streaming table of orders and
 * revenue per 5 minutes over the bronze orders, refreshed twice with new bronze orders in between:
 * each refresh appends the windows the watermark (newest order time less 10 minutes) closed since
 * the last one, each window once with the count and sum of its orders, as a model of the bronze
 * rows gives them; the table and its checkpoint live in the file's Delta catalog.
 */
class OrdersFiveMinuteStreamingTableITCase {
  private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");

  @TempDir Path dir;
  private final List<Object[]> bronze = new ArrayList<>();

  /**
   * Appends orders {@code from..to-1} to bronze, order i at T0 + 40 i seconds, as bronze gets them:
   * a version per two minutes of orders (one file per currency), so the rows are read at most two
   * minutes out of event-time order, well within the 10-minute watermark delay.
   */
  private void appendBronze(DeltaAppendCommit commit, DeltaTableWriter writer, int from, int to)
      throws IOException {
    for (int i = from; i < to; i += 3) {
      appendVersion(commit, writer, i, Math.min(to, i + 3));
    }
  }

  private void appendVersion(DeltaAppendCommit commit, DeltaTableWriter writer, int from, int to)
      throws IOException {
    List<Object[]> rows = new ArrayList<>();
    for (int i = from; i < to; i++) {
      rows.add(
          new Object[] {
            "e-" + i,
            "o-" + i,
            "c-" + i % 7,
            new BigDecimal(i % 50 + ".25"),
            i % 3 == 0 ? "EUR" : "USD",
            T0.plusSeconds(40L * i)
          });
    }
    commit.commit(to, writer.write(rows)); // the epoch: the last order's number
    bronze.addAll(rows);
  }

  /** The windows the watermark closed: "start|end" -> "orders|revenue". */
  private Map<String, String> model() {
    Instant watermark =
        bronze.stream().map(r -> (Instant) r[5]).max(Instant::compareTo).orElseThrow();
    watermark = watermark.minus(Duration.ofMinutes(10));
    Map<Instant, long[]> counts = new TreeMap<>();
    Map<Instant, BigDecimal> sums = new TreeMap<>();
    for (Object[] row : bronze) {
      Instant start = Instant.ofEpochSecond(((Instant) row[5]).getEpochSecond() / 300 * 300);
      counts.computeIfAbsent(start, s -> new long[1])[0]++;
      sums.merge(start, (BigDecimal) row[3], BigDecimal::add);
    }
    Map<String, String> closed = new TreeMap<>();
    for (Instant start : counts.keySet()) {
      if (!start.plusSeconds(300).isAfter(watermark)) {
        closed.put(
            start + "|" + start.plusSeconds(300), counts.get(start)[0] + "|" + sums.get(start));
      }
    }
    return closed;
  }

  private Map<String, String> table() throws IOException {
    Map<String, String> rows = new TreeMap<>();
    Path table = dir.resolve("sql/warehouse/gold/orders_5m");
    for (Object[] r :
        new DeltaTableReader(DeltaTable.forPath(table.toUri().toString())).readLatest()) {
      String window = r[0] + "|" + r[1];
      assertThat(rows.put(window, r[2] + "|" + r[3])).as("window %s once", window).isNull();
    }
    return rows;
  }

  @Test
  void eachRefreshAppendsTheWindowsClosedSinceTheLast() throws Exception {
    DeltaTable orders = DeltaTable.forPath(dir.resolve("sql/orders_bronze").toUri().toString());
    DeltaTableWriter writer = new DeltaTableWriter(orders, OrdersDemo.ORDERS_SCHEMA);
    DeltaAppendCommit commit = new DeltaAppendCommit(orders, OrdersDemo.ORDERS_SCHEMA, "bronze");
    commit.open();
    StreamingTableRefresh refresh =
        StreamingTableRefresh.of(
                SqlExample.of("e7_orders_5m.sql").localized(dir.resolve("sql"), null).text(),
                "orders_5m")
            .withQuerySettings(
                query -> query.parallelism(1).stateBackend(StateBackendSettings.defaults()));
    assertThat(refresh.table()).isEqualTo("lake.gold.orders_5m");
    assertThat(refresh.schedule())
        .contains(new RefreshSchedule(RefreshSchedule.Kind.ON_UPDATE, Duration.ofMinutes(5)));

    appendBronze(commit, writer, 0, 45); // half an hour of orders
    refresh.refresh();
    Map<String, String> first = table();
    assertThat(first).hasSize(3).isEqualTo(model());

    appendBronze(commit, writer, 45, 90); // up to an hour
    refresh.refresh();
    assertThat(table()).hasSize(9).isEqualTo(model()).containsAllEntriesOf(first);
    assertThat(dir.resolve("sql/warehouse/gold/orders_5m/_checkpoints/streaming_table/metadata"))
        .exists();
  }
}
