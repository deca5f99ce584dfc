package io.lakestream.pipelines.silver;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.sink.EpochFunction;
import io.lakestream.pipelines.PipelineOptions;
import io.lakestream.pipelines.demo.Order;
import io.lakestream.pipelines.silver.OrderEvents.Event;
import io.lakestream.runtime.StreamingQuery;
import io.lakestream.runtime.StreamingQueryBuilder;
import io.lakestream.runtime.Trigger;
import io.lakestream.state.StateBackendSettings;
import io.lakestream.testkit.delta.DeltaLogTxns;
import io.lakestream.testkit.kafka.KafkaBrokerExtension;
import io.lakestream.testkit.logging.CapturedLogs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.api.common.functions.MapFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pipeline E3 end to end on a real broker, with failures injected: a task exception mid-epoch, a
 * crash of the epoch function right after its MERGE and quarantine commits (before Flink records
 * the epoch), a cancel followed by a restart from the retained checkpoint, and restores from the
 * savepoints of availableNow runs. The input has duplicates (also across runs), several versions
 * per order arriving out of order, null order ids, negative and null amounts, malformed JSON and
 * late events. In the end the silver table equals the reference model row for row (per order the
 * newest valid version), the quarantine table holds every reject exactly once, and each table's
 * transaction log holds every epoch at most once, each in one version. A second test moves the
 * checkpoint location away and runs the query again on the same tables: a new app id, and nothing
 * of the new query skipped as already committed by the old one.
 */
class OrdersSilverExactlyOnceITCase {
  @RegisterExtension static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

  private static final ObjectMapper JSON = new ObjectMapper();
  static final AtomicBoolean TASK_FAILED = new AtomicBoolean();
  static final AtomicBoolean FUNCTION_CRASHED = new AtomicBoolean();
  static final AtomicInteger CALLS = new AtomicInteger();
  static volatile String failAtEvent = "";
  static volatile boolean crashAfterCommit;

  private static final Pattern ANNOUNCED_APP_ID =
      Pattern.compile("starts from scratch: .* sink transactions use app id (\\S+)");

  @TempDir Path dir;

  @BeforeEach
  @AfterEach
  void reset() {
    TASK_FAILED.set(false);
    FUNCTION_CRASHED.set(false);
    CALLS.set(0);
    failAtEvent = "";
    crashAfterCommit = false;
  }

  /** Fails the task once, on the event with this id (mid-epoch). */
  static final class FailOnce implements MapFunction<Order, Order> {
    @Override
    public Order map(Order order) {
      if (order.eventId.equals(failAtEvent) && TASK_FAILED.compareAndSet(false, true)) {
        throw new IllegalStateException("injected task failure at " + order.eventId);
      }
      return order;
    }
  }

  /** Runs the real epoch function, then crashes once after its second epoch committed. */
  static EpochFunction crashAfterCommit(EpochFunction function) {
    return (epoch, rows) -> {
      function.call(epoch, rows);
      if (crashAfterCommit
          && CALLS.incrementAndGet() >= 2
          && FUNCTION_CRASHED.compareAndSet(false, true)) {
        throw new IllegalStateException(
            "injected crash after the MERGE and quarantine commits of epoch " + epoch);
      }
    };
  }

  private StreamingQuery start(Trigger trigger, int maxOffsetsPerTrigger) throws Exception {
    return start(trigger, maxOffsetsPerTrigger, "orders");
  }

  private Path location() {
    return dir.resolve("lake/_checkpoints/silver");
  }

  private StreamingQuery start(Trigger trigger, int maxOffsetsPerTrigger, String topic)
      throws Exception {
    PipelineOptions options =
        new PipelineOptions(
            dir.resolve("lake").toUri(),
            0,
            0,
            0,
            Map.of(
                "kafka.bootstrap.servers",
                KAFKA.bootstrapServers(),
                "subscribe",
                topic,
                "maxOffsetsPerTrigger",
                String.valueOf(maxOffsetsPerTrigger)));
    return StreamingQueryBuilder.of(
            OrdersSilver.dataflow(
                options,
                orders -> orders.map(new FailOnce()).uid("fail-once"),
                OrdersSilverExactlyOnceITCase::crashAfterCommit))
        .queryName("silver")
        .checkpointLocation(location().toString())
        .trigger(trigger)
        .parallelism(2)
        .stateBackend(StateBackendSettings.defaults())
        .start();
  }

  private DeltaTable silverTable() {
    return DeltaTable.forPath(dir.resolve("lake/" + OrdersSilver.SILVER_TABLE).toUri().toString());
  }

  private DeltaTable quarantineTable() {
    return DeltaTable.forPath(
        dir.resolve("lake/" + OrdersSilver.QUARANTINE_TABLE).toUri().toString());
  }

  /** Produces a segment: its events, resends of earlier events, malformed records, late ones. */
  private static void produce(
      List<Event> events,
      List<Event> resend,
      List<String> malformed,
      List<Event> late,
      long seed,
      Map<String, String> malformedByPosition)
      throws Exception {
    List<String> values = new ArrayList<>();
    events.forEach(e -> values.add(e.json()));
    resend.forEach(e -> values.add(e.json()));
    values.addAll(malformed);
    Collections.shuffle(values, new Random(seed));
    late.forEach(e -> values.add(e.json())); // last: the watermark has passed them by then
    List<String> positions = OrderEvents.produce(KAFKA.bootstrapServers(), "orders", 3, values);
    for (int i = 0; i < values.size(); i++) {
      if (malformed.contains(values.get(i))) {
        malformedByPosition.put(positions.get(i), values.get(i));
      }
    }
  }

  @Test
  void silverAndQuarantineAreExactDespiteFailuresRestartsAndRestores() throws Exception {
    KAFKA.createTopic("orders", 3);
    Random random = new Random(11);
    List<Event> all = new ArrayList<>(OrderEvents.versions(160));
    Collections.shuffle(all, random); // versions of an order arrive out of order, across runs
    int split = all.size() / 3;
    List<Event> a = all.subList(0, split);
    List<Event> b = all.subList(split, 2 * split);
    List<Event> c = all.subList(2 * split, all.size());
    List<Event> late = OrderEvents.late(4);
    Map<String, String> malformed = new LinkedHashMap<>();

    // Run 1 (availableNow, stops with a savepoint): a task failure and a crash after a commit.
    produce(a, sample(a, 40, random), OrderEvents.malformed("a"), List.of(), 1, malformed);
    failAtEvent = a.get(a.size() * 2 / 3).eventId();
    crashAfterCommit = true;
    StreamingQuery first = start(Trigger.availableNow(), 30);
    assertThat(first.awaitTermination(Duration.ofMinutes(6))).as("run 1 ended").isTrue();
    assertThat(TASK_FAILED).as("task failure injected").isTrue();
    assertThat(FUNCTION_CRASHED).as("crash after commit injected; calls %s", CALLS).isTrue();
    assertTables(a, malformed);
    // observe(): the malformed records counted once despite the task failure's replay
    long observedMalformed = 0;
    for (var p : first.recentProgress()) {
      var quality = p.json().path("observedMetrics").path(OrdersSilver.QUALITY);
      if (quality.path("rows").asLong() > 0) {
        assertThat(quality.path("malformedRatio").asDouble())
            .isEqualTo(quality.path("malformed").asDouble() / quality.path("rows").asDouble());
      }
      observedMalformed += quality.path("malformed").asLong();
    }
    assertThat(observedMalformed).isEqualTo(OrderEvents.malformed("a").size());

    // Run 2 (processingTime, restored from run 1's savepoint), cancelled mid-way like a crash.
    List<Event> ab = concat(a, b);
    produce(b, sample(ab, 40, random), OrderEvents.malformed("b"), List.of(), 2, malformed);
    StreamingQuery second = start(Trigger.processingTime(Duration.ofSeconds(1)), 40);
    long deadline = System.nanoTime() + Duration.ofMinutes(4).toNanos();
    while (System.nanoTime() < deadline
        && second.recentProgress().stream().filter(p -> p.numInputRows() > 0).count() < 2) {
      Thread.sleep(200);
    }
    assertThat(second.recentProgress().stream().filter(p -> p.numInputRows() > 0).count())
        .as(
            "run 2 committed epochs before the cancel (status %s, failure %s)",
            second.status(), second.exception().map(Throwable::toString).orElse("none"))
        .isGreaterThanOrEqualTo(2);
    second.cancel();

    // Run 3 (availableNow, restored from run 2's retained checkpoint): rest of B, C, late events.
    List<Event> abc = concat(ab, c);
    produce(c, sample(abc, 40, random), OrderEvents.malformed("c"), late, 3, malformed);
    StreamingQuery third = start(Trigger.availableNow(), 60);
    assertThat(third.awaitTermination(Duration.ofMinutes(6))).as("run 3 ended").isTrue();
    assertTables(concat(abc, late), malformed);

    // Every epoch at most once per table and app id, in increasing order, each in one version.
    String appId = third.appId();
    assertEpochsOnce(dir.resolve("lake/" + OrdersSilver.SILVER_TABLE), appId);
    assertEpochsOnce(
        dir.resolve("lake/" + OrdersSilver.QUARANTINE_TABLE),
        appId + SilverEpochFunction.DLQ_SUFFIX);
    DeltaLogTxns.read(dir.resolve("lake/" + OrdersSilver.SILVER_TABLE)).assertEachEpochOnce();
    DeltaLogTxns.read(dir.resolve("lake/" + OrdersSilver.QUARANTINE_TABLE)).assertEachEpochOnce();
  }

  /**
   * The seeds' first pitfall on the MERGE and the quarantine: the checkpoint location is moved away
   * and the query runs again on the same tables, reading the topic from the start plus new orders,
   * with a higher rate limit (fewer, larger epochs). Its epochs restart at 1: with the old app id
   * both tables would skip them as already committed, losing the new orders and the second copy of
   * every reject. The new query announces its new app id and writes everything.
   */
  @Test
  void aNewCheckpointLocationGetsANewAppIdAndSkipsNoMergeOrQuarantineEpoch() throws Exception {
    KAFKA.createTopic("relocated", 3);
    Random random = new Random(3);
    List<Event> a = new ArrayList<>(OrderEvents.versions(24));
    Collections.shuffle(a, random);
    List<Event> b = OrderEvents.versions(36).stream().filter(e -> !a.contains(e)).toList();
    Map<String, String> malformedA = new LinkedHashMap<>();
    Map<String, String> malformedB = new LinkedHashMap<>();
    produceTo("relocated", a, OrderEvents.malformed("a"), 1, malformedA);
    // 65 records at 3 per epoch: about 22 epochs. The next query reads A and B (100 records) at 50
    // per epoch, so B's MERGEs land in its epochs 2-3, numbers the old query has already committed.
    String firstAppId = runAnnouncingAppId(3);
    assertTables(a, malformedA);

    Files.move(location(), dir.resolve("old-checkpoint-location"));
    produceTo("relocated", b, OrderEvents.malformed("b"), 2, malformedB);
    String secondAppId = runAnnouncingAppId(50);

    List<Event> ab = concat(a, b);
    assertThat(OrderEvents.silver(silverTable()))
        .as("silver after the run on the new checkpoint location")
        .isEqualTo(OrderEvents.silverModel(ab));
    Map<String, String> malformedAb = new LinkedHashMap<>(malformedA);
    malformedAb.putAll(malformedB);
    List<List<Object>> quarantine = new ArrayList<>(OrderEvents.quarantineModel(a, malformedA));
    quarantine.addAll(OrderEvents.quarantineModel(ab, malformedAb));
    assertThat(OrderEvents.quarantine(quarantineTable()))
        .as("the quarantine: the rejects of the first input twice, the new ones once")
        .containsExactlyElementsOf(OrderEvents.sorted(quarantine));
    assertThat(secondAppId).as("the new query's app id").isNotEqualTo(firstAppId);
    DeltaLogTxns silver =
        DeltaLogTxns.read(dir.resolve("lake/" + OrdersSilver.SILVER_TABLE)).assertEachEpochOnce();
    assertThat(silver.appIds()).containsExactly(firstAppId, secondAppId);
    // Delta skips an epoch at or below the app id's recorded txn version: under the old app id
    // the new query's first epoch would have been skipped as already committed.
    assertThat(Collections.min(silver.epochsOf(secondAppId)))
        .as("the new query's first epoch (the old query's last: %s)", silver.epochsOf(firstAppId))
        .isLessThanOrEqualTo(Collections.max(silver.epochsOf(firstAppId)));
    DeltaLogTxns rejects =
        DeltaLogTxns.read(dir.resolve("lake/" + OrdersSilver.QUARANTINE_TABLE))
            .assertEachEpochOnce();
    assertThat(rejects.appIds())
        .containsExactly(
            firstAppId + SilverEpochFunction.DLQ_SUFFIX,
            secondAppId + SilverEpochFunction.DLQ_SUFFIX);
  }

  /** Produces events and malformed records, shuffled, to {@code topic}. */
  private static void produceTo(
      String topic,
      List<Event> events,
      List<String> malformed,
      long seed,
      Map<String, String> malformedByPosition)
      throws Exception {
    List<String> values = new ArrayList<>();
    events.forEach(e -> values.add(e.json()));
    values.addAll(malformed);
    Collections.shuffle(values, new Random(seed));
    List<String> positions = OrderEvents.produce(KAFKA.bootstrapServers(), topic, 3, values);
    for (int i = 0; i < values.size(); i++) {
      if (malformed.contains(values.get(i))) {
        malformedByPosition.put(positions.get(i), values.get(i));
      }
    }
  }

  /** Runs the query on topic relocated to its end; returns the app id its start announced. */
  private String runAnnouncingAppId(int maxOffsetsPerTrigger) throws Exception {
    try (CapturedLogs logs = CapturedLogs.of("io.lakestream.runtime")) {
      StreamingQuery query = start(Trigger.availableNow(), maxOffsetsPerTrigger, "relocated");
      assertThat(query.awaitTermination(Duration.ofMinutes(4))).as("the run ended").isTrue();
      for (String line : logs.lines()) {
        Matcher m = ANNOUNCED_APP_ID.matcher(line);
        if (m.find()) {
          assertThat(m.group(1)).as("announced app id").isEqualTo(query.appId());
          return m.group(1);
        }
      }
      throw new AssertionError("no log line announced the new query's app id: " + logs.lines());
    }
  }

  private void assertTables(List<Event> distinct, Map<String, String> malformed) throws Exception {
    Map<String, List<Object>> model = OrderEvents.silverModel(distinct);
    assertThat(OrderEvents.silver(silverTable())).isEqualTo(model);
    assertThat(OrderEvents.quarantine(quarantineTable()))
        .containsExactlyElementsOf(OrderEvents.quarantineModel(distinct, malformed));
  }

  private static void assertEpochsOnce(Path table, String appId) throws Exception {
    List<Long> epochs = new ArrayList<>();
    try (var files = Files.list(table.resolve("_delta_log"))) {
      for (Path file : files.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
        for (String line : Files.readAllLines(file)) {
          var txn = JSON.readTree(line).get("txn");
          if (txn != null && appId.equals(txn.get("appId").asText())) {
            epochs.add(txn.get("version").asLong());
          }
        }
      }
    }
    assertThat(epochs).as("epochs of %s in %s", appId, table).isNotEmpty();
    assertThat(epochs).doesNotHaveDuplicates().isSorted();
  }

  private static List<Event> sample(List<Event> from, int n, Random random) {
    List<Event> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(from.get(random.nextInt(from.size())));
    }
    return out;
  }

  private static List<Event> concat(List<Event> x, List<Event> y) {
    List<Event> out = new ArrayList<>(x);
    out.addAll(y);
    return out;
  }
}
