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
import io.lakestream.testkit.kafka.KafkaBrokerExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
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
 * table, and duplicates re-sent in a later run are still dropped (the dedup state survived).
 */
class OrdersBronzeITCase {
  @RegisterExtension static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

  static final AtomicBoolean FAILED = new AtomicBoolean();
  static volatile int failAtOrder = Integer.MAX_VALUE;

  private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");

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
        producer.send(new ProducerRecord<>("orders", v));
      }
    }
    return values.size();
  }

  private StreamingQuery run() throws Exception {
    PipelineOptions options =
        new PipelineOptions(
            dir.resolve("lake").toUri(),
            0,
            0,
            0,
            Map.of(
                "kafka.bootstrap.servers",
                KAFKA.bootstrapServers(),
                "maxOffsetsPerTrigger",
                "700"));
    return StreamingQueryBuilder.of(
            OrdersBronze.dataflow(options, orders -> orders.map(new FailOnce()).uid("fail-once")))
        .queryName("bronze")
        .checkpointLocation(dir.resolve("lake/_checkpoints/bronze").toString())
        .trigger(Trigger.availableNow())
        .parallelism(2)
        .stateBackend(StateBackendSettings.defaults())
        .start();
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
    run().awaitTermination();

    assertThat(FAILED).isTrue();
    assertThat(bronzeEventIds()).containsExactlyElementsOf(ids(3000));
    assertThat(deadLetters()).isEqualTo(30);
  }
}
