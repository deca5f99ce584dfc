package io.lakestream.connectors.kafka.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.kafka.security.CapturedLogs;
import io.lakestream.connectors.kafka.security.InvalidKafkaOptionException;
import io.lakestream.connectors.kafka.security.KafkaAuthenticationException;
import io.lakestream.connectors.kafka.security.KafkaClientSecurity;
import io.lakestream.state.query.OutputMode;
import io.lakestream.state.query.QueryContext;
import io.lakestream.testkit.kafka.KafkaBrokerExtension;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The Kafka sink on a real broker that requires SCRAM-SHA-512 logins, in MiniCluster jobs where a
 * task fails once mid-epoch after checkpoints have completed.
 */
class KafkaSinkITCase {

  private static final String PASSWORD = "Writer-S3cret-77";
  private static final long ROWS = 3_000;

  @RegisterExtension
  @Order(1)
  static final KafkaBrokerExtension KAFKA =
      KafkaBrokerExtension.withScram(Map.of("transaction.max.timeout.ms", "900000"));

  @RegisterExtension
  @Order(2)
  static final MiniClusterExtension CLUSTER =
      new MiniClusterExtension(
          new MiniClusterResourceConfiguration.Builder()
              .setNumberTaskManagers(1)
              .setNumberSlotsPerTaskManager(2)
              .build());

  static final AtomicInteger CHECKPOINTS_COMPLETED = new AtomicInteger();
  static final AtomicBoolean FAILED = new AtomicBoolean();

  private static CapturedLogs logs;

  @BeforeAll
  static void setUp() {
    KAFKA.createScramUser("writer", PASSWORD);
    logs = CapturedLogs.open();
  }

  @AfterAll
  static void noPasswordWasEverLogged() {
    try {
      assertThat(logs.lines()).isNotEmpty().noneMatch(line -> line.contains(PASSWORD));
    } finally {
      logs.close();
    }
  }

  @BeforeEach
  void resetFailure() {
    CHECKPOINTS_COMPLETED.set(0);
    FAILED.set(false);
  }

  @Test
  void exactlyOnceReadCommittedSeesEveryRowOnceDespiteATaskFailure() throws Exception {
    KAFKA.createTopic("eos-out", 3);
    Map<String, String> options = new HashMap<>(connection(PASSWORD));
    options.put("topic", "eos-out");

    StreamExecutionEnvironment env = environment();
    KafkaSinkBuilder.<Long>forQuery(query("eos"), "kafka-out")
        .options(options)
        .keyString(id -> "k" + id)
        .valueString(String::valueOf)
        .checkpointInterval(Duration.ofMillis(200))
        .sinkTo(env.fromSequence(0, ROWS - 1).map(new SlowAndFailOnce()).uid("slow-fail-once"));
    env.execute("kafka-sink-exactly-once");

    assertThat(FAILED).isTrue();
    List<Long> committed = ids(read("eos-out", "read_committed"));
    assertThat(committed.stream().sorted().collect(Collectors.toList()))
        .containsExactlyElementsOf(LongStream.range(0, ROWS).boxed().collect(Collectors.toList()));
    // Proof the failure mattered: the aborted transaction's rows are in the log, invisible above.
    assertThat(read("eos-out", "read_uncommitted").size()).isGreaterThan((int) ROWS);
  }

  @Test
  void atLeastOnceWritesEveryRowToTheTopicOfItsColumn() throws Exception {
    KAFKA.createTopic("alo-even", 2);
    KAFKA.createTopic("alo-odd", 2);
    Map<String, String> options = new HashMap<>(connection(PASSWORD));
    options.put("deliveryGuarantee", "at-least-once");
    options.put("kafka.linger.ms", "5");

    StreamExecutionEnvironment env = environment();
    KafkaSinkBuilder.<Long>forQuery(query("alo"), "kafka-routed")
        .options(options)
        .topicColumn(id -> id % 2 == 0 ? "alo-even" : "alo-odd")
        .value(id -> String.valueOf(id).getBytes(StandardCharsets.UTF_8))
        .sinkTo(env.fromSequence(0, ROWS - 1).map(new SlowAndFailOnce()).uid("slow-fail-once"));
    env.execute("kafka-sink-at-least-once");

    assertThat(FAILED).isTrue();
    List<Long> even = ids(read("alo-even", "read_uncommitted"));
    List<Long> odd = ids(read("alo-odd", "read_uncommitted"));
    assertThat(even).allMatch(id -> id % 2 == 0);
    assertThat(odd).allMatch(id -> id % 2 == 1);
    List<Long> all = new ArrayList<>(even);
    all.addAll(odd);
    assertThat(all.stream().distinct().sorted().collect(Collectors.toList()))
        .containsExactlyElementsOf(LongStream.range(0, ROWS).boxed().collect(Collectors.toList()));
    System.out.println("at-least-once: " + (all.size() - ROWS) + " duplicates after the failure");
  }

  @Test
  void buildFailsEagerlyOnAWrongPasswordAndOnATimeoutAboveTheBrokerLimit() {
    Map<String, String> wrong = new HashMap<>(connection("Wrong-Pa55-123"));
    wrong.put("topic", "never");
    assertThatThrownBy(
            () ->
                KafkaSinkBuilder.<Long>forQuery(query("bad"), "out")
                    .options(wrong)
                    .valueString(String::valueOf)
                    .build())
        .isInstanceOf(KafkaAuthenticationException.class)
        .hasMessageContaining("authentication failed for user 'writer'")
        .hasMessageContaining(KAFKA.scramBootstrapServers())
        .hasMessageContaining("SCRAM-SHA-512")
        .hasMessageContaining("kafka.sasl.jaas.config")
        .hasMessageNotContaining("Wrong-Pa55-123")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("KAFKA_AUTHENTICATION_FAILED");

    Map<String, String> tooLong = new HashMap<>(connection(PASSWORD));
    tooLong.put("topic", "never");
    tooLong.put("kafka.transaction.timeout.ms", "3600000");
    assertThatThrownBy(
            () ->
                KafkaSinkBuilder.<Long>forQuery(query("bad"), "out")
                    .options(tooLong)
                    .valueString(String::valueOf)
                    .build())
        .isInstanceOf(InvalidKafkaOptionException.class)
        .hasMessageStartingWith(
            "[KAFKA_INVALID_OPTION] Option 'kafka.transaction.timeout.ms': 3600000 ms exceeds")
        .hasMessageContaining("transaction.max.timeout.ms of 900000 ms")
        .hasMessageContaining("lower it to at most 900000 ms")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("KAFKA_INVALID_OPTION");

    // at-least-once uses no transactions: the same timeout is fine there
    tooLong.put("deliveryGuarantee", "at-least-once");
    KafkaSinkBuilder.<Long>forQuery(query("ok"), "out")
        .options(tooLong)
        .valueString(String::valueOf)
        .build();
  }

  private static StreamExecutionEnvironment environment() {
    Configuration conf = new Configuration();
    conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMillis(200));
    conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
    conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 3);
    conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(100));
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
    env.setParallelism(2);
    return env;
  }

  private static QueryContext query(String name) {
    return new QueryContext(
        "qid-" + name,
        name,
        "run-1",
        QueryContext.appIdFor(name, "qid-" + name),
        "file:///tmp/unused-" + name,
        false,
        false,
        OutputMode.APPEND);
  }

  private static Map<String, String> connection(String password) {
    return Map.of(
        "kafka.bootstrap.servers",
        KAFKA.scramBootstrapServers(),
        "kafka.security.protocol",
        "SASL_PLAINTEXT",
        "kafka.sasl.mechanism",
        "SCRAM-SHA-512",
        "kafka.sasl.jaas.config",
        "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"writer\""
            + " password=\""
            + password
            + "\";");
  }

  /** Every record of {@code topic} up to its current end, read over the SCRAM listener. */
  private static List<ConsumerRecord<byte[], byte[]>> read(String topic, String isolation) {
    Properties props = KafkaClientSecurity.fromOptions(connection(PASSWORD)).clientProperties();
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation);
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    Map<TopicPartition, Long> end = KAFKA.broker().endOffsets(topic);
    List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
    try (KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      consumer.assign(end.keySet());
      consumer.seekToBeginning(end.keySet());
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (end.entrySet().stream().anyMatch(e -> consumer.position(e.getKey()) < e.getValue())) {
        assertThat(System.nanoTime()).as("reading %s to its end", topic).isLessThan(deadline);
        consumer.poll(Duration.ofMillis(200)).forEach(records::add);
      }
    }
    return records;
  }

  private static List<Long> ids(List<ConsumerRecord<byte[], byte[]>> records) {
    return records.stream()
        .map(r -> Long.parseLong(new String(r.value(), StandardCharsets.UTF_8)))
        .collect(Collectors.toList());
  }

  /**
   * Slows the stream to a few epochs' length and fails once, mid-epoch, after two checkpoints
   * completed, leaving time for the open transaction's rows to reach the broker first.
   */
  static final class SlowAndFailOnce extends RichMapFunction<Long, Long>
      implements CheckpointListener {
    private int rowsSinceCheckpoint;

    @Override
    public Long map(Long id) throws Exception {
      Thread.sleep(1);
      rowsSinceCheckpoint++;
      if (CHECKPOINTS_COMPLETED.get() >= 2
          && rowsSinceCheckpoint >= 50
          && FAILED.compareAndSet(false, true)) {
        Thread.sleep(300);
        throw new IllegalStateException("injected task failure mid-epoch at row " + id);
      }
      return id;
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {
      rowsSinceCheckpoint = 0;
      CHECKPOINTS_COMPLETED.incrementAndGet();
    }
  }
}
