package io.lakestream.sql.streamingtable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.delta.DeltaAppendCommit;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.DeltaTableWriter;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.runtime.StreamingQuery;
import io.lakestream.runtime.StreamingQueryBuilder;
import io.lakestream.sql.SqlDataflow;
import io.lakestream.state.StateBackendSettings;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Streaming tables end to end: a refresh creates the Delta table in the script's Delta catalog and
 * fills it from its input, a second refresh appends only what the input gained (its checkpoint
 * lives under the table), the script's other streaming table is not touched, the schedule runs
 * refreshes at least its interval apart, and the statement refuses to run as a part of another
 * query.
 */
class StreamingTableRefreshITCase {
  private static final DeltaTableSchema ORDERS =
      DeltaTableSchema.builder()
          .column("id", ColumnType.LONG, false)
          .column("customer", ColumnType.STRING)
          .column("amount", ColumnType.decimal(12, 2))
          .build();

  @TempDir Path dir;
  private DeltaAppendCommit commit;
  private DeltaTableWriter writer;
  private long version;

  @BeforeEach
  void input() throws IOException {
    DeltaTable orders = DeltaTable.forPath(dir.resolve("lake/default/orders").toUri().toString());
    writer = new DeltaTableWriter(orders, ORDERS);
    commit = new DeltaAppendCommit(orders, ORDERS, "producer");
    commit.open();
  }

  /** Appends orders {@code from..to-1}; order i has amount i * 7 % 200. */
  private void append(int from, int to) throws IOException {
    List<Object[]> rows = new ArrayList<>();
    for (long id = from; id < to; id++) {
      rows.add(new Object[] {id, "c" + id % 5, BigDecimal.valueOf(id * 7 % 200).setScale(2)});
    }
    commit.commit(++version, writer.write(rows));
  }

  /** The ids of orders {@code 0..to-1} of 100 or more. */
  private static List<Long> bigOrders(int to) {
    List<Long> ids = new ArrayList<>();
    for (long id = 0; id < to; id++) {
      if (id * 7 % 200 >= 100) {
        ids.add(id);
      }
    }
    return ids;
  }

  private String script(String schedule) {
    return """
        CREATE CATALOG lake WITH ('type' = 'delta', 'warehouse' = '%s');
        USE CATALOG lake;
        CREATE DATABASE IF NOT EXISTS silver;
        -- orders of 100 or more
        CREATE OR REFRESH STREAMING TABLE silver.big_orders
          COMMENT 'orders of 100 or more'
          TBLPROPERTIES ('delta.enableChangeDataFeed' = 'true')
          %s
        AS SELECT id, customer, amount FROM STREAM(`default`.orders) WHERE amount >= 100;
        CREATE OR REFRESH STREAMING TABLE silver.small_orders
        AS SELECT id, amount FROM STREAM(`default`.orders) WHERE amount < 100;
        """
        .formatted(dir.resolve("lake").toUri(), schedule);
  }

  private StreamingTableRefresh refresh(String schedule) {
    return StreamingTableRefresh.of(script(schedule), "big_orders")
        .withQuerySettings(
            query -> query.parallelism(1).stateBackend(StateBackendSettings.defaults()));
  }

  private Path table() {
    return dir.resolve("lake/silver/big_orders");
  }

  private List<Long> tableIds() throws IOException {
    List<Long> ids = new ArrayList<>();
    for (Object[] row :
        new DeltaTableReader(DeltaTable.forPath(table().toUri().toString())).readLatest()) {
      ids.add((Long) row[0]);
    }
    ids.sort(null);
    return ids;
  }

  private static long inputRows(StreamingQuery query) {
    return query.recentProgress().stream().mapToLong(p -> p.numInputRows()).sum();
  }

  @Test
  void aRefreshCreatesTheTableAndTheNextAppendsOnlyNewInput() throws Exception {
    append(0, 60);
    StreamingTableRefresh refresh = refresh("");
    assertThat(refresh.table()).isEqualTo("lake.silver.big_orders");
    assertThat(java.net.URI.create(refresh.checkpointLocation()).getPath())
        .isEqualTo(table().resolve("_checkpoints/streaming_table").toString());

    StreamingQuery first = refresh.refresh();
    assertThat(tableIds()).isEqualTo(bigOrders(60));
    assertThat(inputRows(first)).isEqualTo(60);
    assertThat(table().resolve("_checkpoints/streaming_table/metadata")).exists();
    DeltaTable created = DeltaTable.forPath(table().toUri().toString());
    assertThat(created.latestSnapshot().orElseThrow().getTableProperties())
        .containsEntry("delta.enableChangeDataFeed", "true");
    assertThat(dir.resolve("lake/silver/small_orders")).doesNotExist();

    append(60, 100);
    append(100, 130);
    StreamingQuery second = refresh.refresh();
    assertThat(tableIds()).as("every big order once").isEqualTo(bigOrders(130));
    assertThat(inputRows(second)).as("input of the second refresh").isEqualTo(70);
    assertThat(second.id()).isEqualTo(first.id());
    assertThat(second.name()).isEqualTo("big_orders");
  }

  @Test
  void theScheduleRefreshesAtLeastItsIntervalApart() throws Exception {
    append(0, 40);
    StreamingTableRefresh refresh = refresh("SCHEDULE EVERY 1 MINUTE");
    assertThat(refresh.schedule().orElseThrow().interval()).isEqualTo(Duration.ofMinutes(1));
    AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-05-01T00:00:00Z"));
    Clock clock = new ManualClock(now);
    AtomicInteger waits = new AtomicInteger();
    List<Long> idsBeforeWait = new ArrayList<>();
    ScheduledRefresh.Wait wait =
        (when, stop) -> {
          int n = waits.incrementAndGet();
          if (n == 2) {
            idsBeforeWait.addAll(tableIdsUnchecked());
            appendUnchecked(40, 90); // input arriving between the refreshes
          } else if (n == 3) {
            stop.countDown();
          }
          now.accumulateAndGet(when, (a, b) -> a.isAfter(b) ? a : b);
          return stop.getCount() > 0;
        };

    ScheduledRefresh scheduled =
        refresh.startSchedule(refresh.schedule().orElseThrow(), clock, wait);
    scheduled.awaitTermination();

    List<Instant> starts = scheduled.refreshStarts();
    assertThat(starts).hasSize(2);
    assertThat(Duration.between(starts.get(0), starts.get(1))).isEqualTo(Duration.ofMinutes(1));
    assertThat(idsBeforeWait).as("after the first refresh").isEqualTo(bigOrders(40));
    assertThat(tableIds()).as("after the second refresh").isEqualTo(bigOrders(90));
    assertThat(scheduled.isActive()).isFalse();
  }

  @Test
  void aStatementWithoutScheduleRefreshesOnlyOnDemand() {
    assertThatThrownBy(() -> refresh("").startSchedule())
        .isInstanceOf(LakestreamException.class)
        .hasMessageContaining("has no schedule: add SCHEDULE EVERY 1 HOUR");
  }

  @Test
  void aStreamingTableRunsOnlyAsItsOwnRefresh() throws Exception {
    append(0, 10);
    Files.createDirectories(dir.resolve("elsewhere"));
    assertThatThrownBy(
            () ->
                StreamingQueryBuilder.of(SqlDataflow.of(script("")))
                    .queryName("other")
                    .checkpointLocation(dir.resolve("elsewhere/checkpoint").toString())
                    .start())
        .hasMessageContaining("refreshes as a query of its own")
        .hasMessageContaining("lakestream sql refresh big_orders");
    assertThatThrownBy(
            () ->
                StreamingTableRefresh.of(
                    script("") + "INSERT INTO silver.big_orders VALUES (1, 'x', 2.00);",
                    "big_orders"))
        .satisfies(
            e ->
                assertThat(e.getMessage()).contains("would join the refresh of a streaming table"));
    assertThatThrownBy(() -> StreamingTableRefresh.of(script(""), "orders_5m"))
        .hasMessageContaining("no streaming table named 'orders_5m'")
        .hasMessageContaining("[lake.silver.big_orders, lake.silver.small_orders]");
  }

  private void appendUnchecked(int from, int to) {
    try {
      append(from, to);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private List<Long> tableIdsUnchecked() {
    try {
      return tableIds();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** A clock that moves only when the test moves it. */
  private static final class ManualClock extends Clock {
    private final AtomicReference<Instant> now;

    ManualClock(AtomicReference<Instant> now) {
      this.now = now;
    }

    @Override
    public ZoneOffset getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now.get();
    }
  }
}
