package io.lakestream.pipelines.bronze;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.pipelines.PipelineOptions;
import io.lakestream.pipelines.SqlExample;
import io.lakestream.pipelines.silver.OrderEvents;
import io.lakestream.runtime.QueryProgress;
import io.lakestream.runtime.StreamingQuery;
import io.lakestream.runtime.StreamingQueryBuilder;
import io.lakestream.runtime.Trigger;
import io.lakestream.state.StateBackendSettings;
import io.lakestream.testkit.kafka.KafkaBrokerExtension;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 19: the deduplication state of E2 stays bounded in SQL as in Java. The example file {@code
 * pipelines/sql/e2_bronze.sql} and {@link OrdersBronze} each read one topic whose event time
 * advances 15 hours (an order every 30 seconds, every fourth resent a few records later), 100
 * records per epoch, at a 400 ms processingTime trigger until every record is read (not
 * availableNow: the state metrics are read at most once a second, so a run of back-to-back epochs
 * that ends in two seconds may be sampled only near its start). An epoch spans 40 minutes of event
 * time, less than the delay, so no order is late however a subtask interleaves the partitions it
 * reads. Each query's progress must report its deduplication operator's {@code numRowsTotal} (keys
 * held) in several epochs, in every epoch at most the keys the 1-hour watermark delay can hold (see
 * {@link #BOUND}), also after the keys taken in ({@code numRowsUpdated} summed) passed half of the
 * 1,800: the state plateaus instead of growing with the distinct keys. Both tables hold each order
 * once and equal each other row for row.
 */
class BronzeDedupStateITCase {
  @RegisterExtension static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

  private static final Instant T0 = Instant.parse("2026-03-01T00:00:00Z");
  private static final int ORDERS = 1_800;
  private static final int SECONDS_APART = 30;
  private static final int PER_EPOCH = 100;
  private static final Duration EPOCH_INTERVAL = Duration.ofMillis(400);

  /**
   * The most keys a deduplication within a 1-hour watermark may hold here: a key lives until the
   * watermark (the newest event time less 1 hour) passes its event time plus 1 hour, so the orders
   * of the last 2 hours (240); plus the records of three epochs, since keys are freed at epoch ends
   * and the watermark, emitted every 200 ms, may trail the records by an epoch or two. Far below
   * the 1,800 keys an unbounded state would hold by the end.
   */
  private static final long BOUND = 2 * 3600 / SECONDS_APART + 3 * PER_EPOCH;

  @TempDir Path dir;

  private static String order(int i) {
    return "{\"event_id\":\"e-"
        + i
        + "\",\"order_id\":\"o-"
        + i
        + "\",\"customer_id\":\"c-"
        + (i % 17)
        + "\",\"amount\":"
        + (i % 200)
        + ".50,\"currency\":\""
        + (i % 2 == 0 ? "EUR" : "USD")
        + "\",\"order_ts\":\""
        + T0.plusSeconds((long) SECONDS_APART * i)
        + "\"}";
  }

  /** Orders in event-time order, every fourth one resent three records later (a duplicate). */
  private static List<String> input() {
    List<String> values = new ArrayList<>();
    for (int i = 0; i < ORDERS; i++) {
      values.add(order(i));
      if (i >= 3 && (i - 3) % 4 == 0) {
        values.add(order(i - 3));
      }
    }
    return values;
  }

  private StreamingQuery runJava() throws Exception {
    PipelineOptions options =
        new PipelineOptions(
            dir.resolve("java").toUri(),
            0,
            0,
            0,
            Map.of(
                "kafka.bootstrap.servers",
                KAFKA.bootstrapServers(),
                "subscribe",
                "orders",
                "maxOffsetsPerTrigger",
                String.valueOf(PER_EPOCH)));
    StreamingQuery query =
        StreamingQueryBuilder.of(new OrdersBronze().dataflow(options))
            .queryName("bronze")
            .checkpointLocation(dir.resolve("java/_checkpoints/bronze").toString())
            .trigger(Trigger.processingTime(EPOCH_INTERVAL))
            .parallelism(2)
            .stateBackend(StateBackendSettings.defaults())
            .start();
    return untilAllRead(query);
  }

  private StreamingQuery runSql() throws Exception {
    StreamingQuery query =
        SqlExample.of("e2_bronze.sql")
            .localized(dir.resolve("sql"), KAFKA.bootstrapServers())
            .replace(
                "'maxOffsetsPerTrigger' = '500000'", "'maxOffsetsPerTrigger' = '" + PER_EPOCH + "'")
            .replace(
                "SET 'lakestream.trigger' = 'availableNow'",
                "SET 'lakestream.trigger' = 'processingTime=" + EPOCH_INTERVAL.toMillis() + "ms'")
            .start();
    return untilAllRead(query);
  }

  /** Waits until the query's epochs have read every input record, then stops it. */
  private static StreamingQuery untilAllRead(StreamingQuery query) throws Exception {
    long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
    long records = ORDERS + ORDERS / 4;
    while (query.recentProgress().stream().mapToLong(QueryProgress::numInputRows).sum() < records) {
      assertThat(System.nanoTime()).as("every record read within 2 minutes").isLessThan(deadline);
      query.awaitTermination(Duration.ofMillis(200));
    }
    query.stop();
    return query;
  }

  /**
   * One epoch's report of the deduplication: the keys it held ({@code numRowsTotal}) and the keys
   * it had taken in up to then (the sum of {@code numRowsUpdated} over the epochs so far: each
   * order that passes adds its key).
   */
  private record Epoch(long keysSeen, long keysHeld) {
    @Override
    public String toString() {
      return keysHeld + "/" + keysSeen;
    }
  }

  /** The operator's reports, epoch by epoch; epochs that do not report it are left out. */
  private static List<Epoch> dedupReports(StreamingQuery query, String operator) {
    List<Epoch> epochs = new ArrayList<>();
    long seen = 0;
    for (QueryProgress p : query.recentProgress()) {
      for (JsonNode o : p.json().path("stateOperators")) {
        if (o.path("operatorName").asText().equals(operator)) {
          seen += o.path("numRowsUpdated").asLong();
          epochs.add(new Epoch(seen, o.path("numRowsTotal").asLong()));
        }
      }
    }
    return epochs;
  }

  /**
   * Asserts that the state is bounded: the keys held never exceed {@link #BOUND}, also in an epoch
   * reported after more than half the orders (900 keys) had passed, so the numbers are not those of
   * the run's start only; and keys were held in several epochs.
   */
  private static void assertBounded(String side, List<Epoch> epochs) {
    assertThat(epochs)
        .as("%s: epochs reporting the dedup holding keys (held/seen)", side)
        .filteredOn(e -> e.keysHeld() > 0)
        .hasSizeGreaterThanOrEqualTo(3);
    assertThat(epochs)
        .as("%s: epochs reporting keys held after more than half the orders passed", side)
        .filteredOn(e -> e.keysHeld() > 0 && e.keysSeen() > ORDERS / 2)
        .isNotEmpty();
    assertThat(epochs)
        .as("%s: keys held per epoch (held/seen), bound %d", side, BOUND)
        .allSatisfy(e -> assertThat(e.keysHeld()).isLessThanOrEqualTo(BOUND))
        .allSatisfy(e -> assertThat(e.keysSeen()).isLessThanOrEqualTo(ORDERS));
  }

  private static List<List<Object>> rows(Path table) throws IOException {
    List<List<Object>> rows = new ArrayList<>();
    for (Object[] row :
        new DeltaTableReader(DeltaTable.forPath(table.toUri().toString())).readLatest()) {
      rows.add(Arrays.asList(row));
    }
    rows.sort(Comparator.comparing(Object::toString));
    return rows;
  }

  @Test
  void theSqlDeduplicationStatePlateausAsTheJavaOneDoes() throws Exception {
    KAFKA.createTopic("orders", 3);
    List<String> input = input();
    OrderEvents.produce(KAFKA.bootstrapServers(), "orders", 3, input);

    List<Epoch> java = dedupReports(runJava(), "dedup-orders");
    List<Epoch> sql = dedupReports(runSql(), "drop-duplicates-unique_orders");

    System.out.println("dedup keys held/seen per epoch, Java: " + java + "; SQL: " + sql);
    assertBounded("Java E2", java);
    assertBounded("SQL E2", sql);
    assertThat(input).hasSize(ORDERS + ORDERS / 4);
    List<List<Object>> sqlRows = rows(dir.resolve("sql/orders_bronze"));
    assertThat(sqlRows).hasSize(ORDERS).isEqualTo(rows(dir.resolve("java/orders_bronze")));
  }
}
