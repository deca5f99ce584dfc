package io.lakestream.pipelines.bronze;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.pipelines.PipelineOptions;
import io.lakestream.pipelines.demo.Order;
import io.lakestream.runtime.StreamingQuery;
import io.lakestream.runtime.StreamingQueryBuilder;
import io.lakestream.runtime.Trigger;
import io.lakestream.state.StateBackendSettings;
import io.lakestream.testkit.delta.DeltaLogTxns;
import io.lakestream.testkit.kafka.KafkaBrokerExtension;
import io.lakestream.testkit.logging.CapturedLogs;
import io.lakestream.testkit.query.EpochRecords;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pipeline E2 end to end on a real broker with failures injected: the bronze Delta table holds
 * exactly the distinct valid input events (row for row), malformed records land in the dead-letter
 * table, and duplicates re-sent in a later run are still dropped (the dedup state survived); each
 * epoch is one Delta version. A new checkpoint location on the same tables is a new query: a new
 * app id, and every row written again.
 */
class OrdersBronzeITCase {
  @RegisterExtension static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

  static final AtomicBoolean FAILED = new AtomicBoolean();
  static volatile int failAtOrder = Integer.MAX_VALUE;

  private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");
  private static final Pattern ANNOUNCED_APP_ID =
      Pattern.compile("starts from scratch: .* sink transactions use app id (\\S+)");

  @TempDir Path dir;

  @BeforeEach
  @AfterEach
  void reset() {
    FAILED.set(false);
    failAtOrder = Integer.MAX_VALUE;
  }

  /** Fails the task once, on the order with this number in its event id. */
  static final class FailOnce implements MapFunction<Order, Order> {
    @Override
    public Order map(Order order) {
      if (Integer.parseInt(order.eventId.substring(2)) == failAtOrder
          && FAILED.compareAndSet(false, true)) {
        throw new IllegalStateException("injected task failure at " + order.eventId);
      }
      return order;
    }
  }

  private static String json(int i) {
    return "{\"event_id\":\"e-"
        + i
        + "\",\"order_id\":\"o-"
        + i
        + "\",\"customer_id\":\"c-"
        + (i % 97)
        + "\",\"amount\":"
        + (i % 500)
        + ".25,\"currency\":\""
        + (i % 3 == 0 ? "EUR" : "USD")
        + "\",\"order_ts\":\""
        + T0.plusSeconds(i % 600)
        + "\"}";
  }

  /** Orders {@code from..to-1}, 10% of them sent twice, plus {@code malformed} bad records. */
  private static int produce(int from, int to, List<Integer> resend, int malformed, long seed)
      throws Exception {
    return produce("orders", from, to, resend, malformed, seed);
  }

  private static int produce(
      String topic, int from, int to, List<Integer> resend, int malformed, long seed)
      throws Exception {
    List<String> values = new ArrayList<>();
    IntStream.range(from, to).forEach(i -> values.add(json(i)));
    resend.forEach(i -> values.add(json(i)));
    for (int m = 0; m < malformed; m++) {
      values.add(m % 2 == 0 ? "{\"event_id\":\"bad-" + m + "\"" : "{\"event_id\":null}");
    }
    Collections.shuffle(values, new Random(seed));
    Properties props = new Properties();
    props.put("bootstrap.servers", KAFKA.bootstrapServers());
    try (KafkaProducer<String, String> producer =
        new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
      for (String v : values) {
        producer.send(new ProducerRecord<>(topic, v));
      }
    }
    return values.size();
  }

  private StreamingQuery run() throws Exception {
    return run("orders", 700);
  }

  private StreamingQuery run(String topic, int maxOffsetsPerTrigger) throws Exception {
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
            OrdersBronze.dataflow(options, orders -> orders.map(new FailOnce()).uid("fail-once")))
        .queryName("bronze")
        .checkpointLocation(location().toString())
        .trigger(Trigger.availableNow())
        .parallelism(2)
        .stateBackend(StateBackendSettings.defaults())
        .start();
  }

  private Path location() {
    return dir.resolve("lake/_checkpoints/bronze");
  }

  private List<String> bronzeEventIds() throws Exception {
    List<String> ids = new ArrayList<>();
    for (Object[] row :
        new DeltaTableReader(
                DeltaTable.forPath(dir.resolve("lake/orders_bronze").toUri().toString()))
            .readLatest()) {
      ids.add((String) row[0]);
    }
    ids.sort(null);
    return ids;
  }

  private long deadLetters() throws Exception {
    Path table = dir.resolve("lake/orders_bronze_dead_letters");
    try (Stream<Path> files = Files.list(table)) {
      long n = 0;
      for (Path f : files.filter(p -> p.toString().endsWith(".jsonl")).toList()) {
        n += Files.readAllLines(f).size();
      }
      return n;
    }
  }

  private static List<String> ids(int n) {
    return IntStream.range(0, n).mapToObj(i -> "e-" + i).sorted().toList();
  }

  @Test
  void bronzeHoldsEachDistinctEventOnceDespiteFailuresAndLateDuplicates() throws Exception {
    KAFKA.createTopic("orders", 3);
    Random random = new Random(7);
    List<Integer> resend = random.ints(200, 0, 2000).boxed().toList();
    int produced = produce(0, 2000, resend, 20, 1);

    failAtOrder = 1200;
    StreamingQuery first = run();
    first.awaitTermination();
    assertThat(FAILED).as("the failure was injected").isTrue();
    assertThat(bronzeEventIds()).containsExactlyElementsOf(ids(2000));
    assertThat(deadLetters()).isEqualTo(20);
    long input = first.recentProgress().stream().mapToLong(p -> p.numInputRows()).sum();
    assertThat(input).as("input rows of the first run").isEqualTo(produced);

    // Second run: new orders plus re-sent old ones (producer retries within the hour).
    List<Integer> resendOld = random.ints(150, 0, 2000).boxed().toList();
    produce(2000, 3000, resendOld, 10, 2);
    failAtOrder = 2500;
    StreamingQuery second = run();
    second.awaitTermination();
    assertThat(second.appId()).isEqualTo(first.appId());

    assertThat(FAILED).isTrue();
    assertThat(bronzeEventIds()).containsExactlyElementsOf(ids(3000));
    assertThat(deadLetters()).isEqualTo(30);
    DeltaLogTxns log = DeltaLogTxns.read(dir.resolve("lake/orders_bronze")).assertEachEpochOnce();
    log.assertVersionPerEpoch(first.appId(), location(), "bronze-sink");
    assertThat(log.appIds()).containsExactly(first.appId());
  }

  /**
   * The broker crashes mid-run (SIGKILL, 3 s with nothing listening, back on the same port with the
   * same data): the query rides it out and ends with each distinct event once, every malformed
   * record a dead letter, and each epoch one Delta version.
   */
  @Test
  void aBrokerRestartMidRunLosesAndDuplicatesNothing() throws Exception {
    KAFKA.createTopic("restarting", 3);
    List<Integer> resend = new Random(11).ints(100, 0, 3000).boxed().toList();
    produce("restarting", 0, 3000, resend, 20, 4);
    StreamingQuery query = run("restarting", 150);
    EpochRecords.awaitCommittedEpoch(location(), 3, Duration.ofMinutes(2));
    KAFKA.broker().restart(Duration.ofSeconds(3));
    query.awaitTermination();

    assertThat(bronzeEventIds()).containsExactlyElementsOf(ids(3000));
    assertThat(deadLetters()).isEqualTo(20);
    DeltaLogTxns log = DeltaLogTxns.read(dir.resolve("lake/orders_bronze")).assertEachEpochOnce();
    log.assertVersionPerEpoch(query.appId(), location(), "bronze-sink");
    assertThat(EpochRecords.lastCommittedEpoch(location()))
        .as("epochs after the restart")
        .isGreaterThan(3);
  }

  /**
   * The seeds' first pitfall: the checkpoint location is moved away and the query runs again on the
   * same tables. Its epochs restart at 1, so with the old app id Delta would skip them as already
   * committed; the query gets a new id and so a new app id, announced in the log, and writes every
   * row again (in the Delta table and the dead letters).
   */
  @Test
  void aNewCheckpointLocationGetsANewAppIdAndWritesEveryRowAgain() throws Exception {
    KAFKA.createTopic("relocated", 3);
    produce("relocated", 0, 90, List.of(), 60, 3); // a third malformed: every epoch has some
    String firstAppId = runAnnouncingAppId();
    assertThat(bronzeEventIds()).containsExactlyElementsOf(ids(90));
    assertThat(deadLetters()).isEqualTo(60);

    Files.move(location(), dir.resolve("old-checkpoint-location"));
    String secondAppId = runAnnouncingAppId();

    List<String> twice = new ArrayList<>(ids(90));
    twice.addAll(ids(90));
    twice.sort(null);
    assertThat(bronzeEventIds())
        .as("every order written again by the query on the new checkpoint location")
        .containsExactlyElementsOf(twice);
    assertThat(deadLetters()).as("every dead letter written again").isEqualTo(120);
    assertThat(secondAppId).as("the new query's app id").isNotEqualTo(firstAppId);
    DeltaLogTxns log = DeltaLogTxns.read(dir.resolve("lake/orders_bronze")).assertEachEpochOnce();
    assertThat(log.appIds()).containsExactly(firstAppId, secondAppId);
    // Delta skips an epoch at or below the app id's recorded txn version: under the old app id
    // the new query's first epoch would have been skipped as already committed.
    assertThat(Collections.min(log.epochsOf(secondAppId)))
        .as("the new query's first epoch (the old query's last: %s)", log.epochsOf(firstAppId))
        .isLessThanOrEqualTo(Collections.max(log.epochsOf(firstAppId)));
    log.assertVersionPerEpoch(secondAppId, location(), "bronze-sink");
  }

  /** Runs the query on topic relocated until done; returns the app id its start announced. */
  private String runAnnouncingAppId() throws Exception {
    try (CapturedLogs logs = CapturedLogs.of("io.lakestream.runtime")) {
      StreamingQuery query = run("relocated", 30);
      query.awaitTermination();
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
}
