package io.lakestream.pipelines.lakebase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.connectors.kafka.KafkaRecord;
import io.lakestream.connectors.kafka.source.KafkaSourceBuilder;
import io.lakestream.connectors.lakebase.LakebaseSchema;
import io.lakestream.connectors.lakebase.LakebaseSinkBuilder;
import io.lakestream.connectors.lakebase.sink.LakebaseSink;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.runtime.Dataflow;
import io.lakestream.runtime.StreamingQuery;
import io.lakestream.runtime.StreamingQueryBuilder;
import io.lakestream.runtime.StreamingQueryException;
import io.lakestream.runtime.Trigger;
import io.lakestream.state.StateBackendSettings;
import io.lakestream.state.query.OutputMode;
import io.lakestream.testkit.kafka.KafkaBrokerExtension;
import io.lakestream.testkit.postgres.PostgresExtension;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A streaming query from a real Kafka topic of upserts (many updates per key) into PostgreSQL
 * through the Lakebase sink, with failures injected: a task failure mid-epoch restarted inside the
 * run, then a run that fails for good and is resumed by the next run from the checkpoint it
 * retained. After each run the whole table equals, row for row, the last value of every key in the
 * topic. A realTime query gets the sink's realTime batch interval and reaches the same final table
 * between checkpoints (its timer flushes, not the checkpoint).
 */
class LakebaseFromKafkaITCase {
  @RegisterExtension static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();
  @RegisterExtension static final PostgresExtension POSTGRES = new PostgresExtension();

  private static final String TOPIC = "upserts";
  private static final int KEYS = 300;
  private static final int BATCH = 6_000;

  static final AtomicBoolean FAILED = new AtomicBoolean();
  static volatile long failAtSeq = Long.MAX_VALUE;
  static final AtomicReference<Duration> BATCH_INTERVAL = new AtomicReference<>();

  private static final LakebaseSchema SCHEMA =
      LakebaseSchema.builder()
          .column("id", ColumnType.LONG, false)
          .column("seq", ColumnType.LONG)
          .column("label", ColumnType.STRING)
          .build();

  @TempDir Path dir;

  /** Every record produced so far, in order: key id -> its last sequence number. */
  private final Map<Long, Long> lastSeqPerKey = new TreeMap<>();

  @BeforeEach
  @AfterEach
  void reset() {
    FAILED.set(false);
    failAtSeq = Long.MAX_VALUE;
  }

  /** Throws once, on the record with sequence number {@link #failAtSeq}. */
  static final class FailOnce implements MapFunction<Tuple2<Long, Long>, Tuple2<Long, Long>> {
    @Override
    public Tuple2<Long, Long> map(Tuple2<Long, Long> row) {
      if (row.f1 == failAtSeq && FAILED.compareAndSet(false, true)) {
        throw new IllegalStateException("injected task failure at sequence number " + row.f1);
      }
      return row;
    }
  }

  /** Parses a record value {@code "<id>,<seq>"}. */
  static final class ParseUpsert implements MapFunction<KafkaRecord, Tuple2<Long, Long>> {
    @Override
    public Tuple2<Long, Long> map(KafkaRecord record) {
      String value = new String(record.value, StandardCharsets.UTF_8);
      int comma = value.indexOf(',');
      return Tuple2.of(
          Long.parseLong(value.substring(0, comma)), Long.parseLong(value.substring(comma + 1)));
    }
  }

  /**
   * Sends sequence numbers {@code [from, to)}; sequence number n updates key {@code (n / 20) %
   * KEYS}: every key gets bursts of 20 updates, and the last update of some key is never far away,
   * so a row lost anywhere (e.g. buffered at a checkpoint and not flushed) shows in the table. The
   * Kafka key is the row key, so one key's updates stay in one partition, in order.
   */
  private void produce(long from, long to) {
    produce(TOPIC, from, to);
  }

  private void produce(String topic, long from, long to) {
    var props = KAFKA.broker().clientProperties();
    try (KafkaProducer<String, String> producer =
        new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
      for (long seq = from; seq < to; seq++) {
        long id = (seq / 20) % KEYS;
        producer.send(new ProducerRecord<>(topic, "k" + id, id + "," + seq));
        lastSeqPerKey.put(id, seq);
      }
    }
  }

  private Dataflow dataflow(String topic, String table, Map<String, String> sinkOptions) {
    Map<String, String> source =
        Map.of(
            "kafka.bootstrap.servers",
            KAFKA.bootstrapServers(),
            "subscribe",
            topic,
            "startingOffsets",
            "earliest",
            "maxOffsetsPerTrigger",
            "1500");
    return (env, query) -> {
      LakebaseSink<Tuple2<Long, Long>> sink =
          LakebaseSinkBuilder.<Tuple2<Long, Long>>forSchema(
                  SCHEMA, row -> new Object[] {row.f0, row.f1, "v" + row.f1})
              .option("endpoint", POSTGRES.jdbcUrl())
              .option("user", POSTGRES.user())
              .option("password", POSTGRES.password())
              .option("dbtable", table)
              .option("upsertkey", "id")
              .options(sinkOptions)
              .query(query)
              .build();
      BATCH_INTERVAL.set(sink.config().batchInterval());
      env.fromSource(
              KafkaSourceBuilder.kafka("upserts-kafka").options(source).query(query).build(),
              WatermarkStrategy.noWatermarks(),
              "upserts-kafka")
          .uid("upserts-kafka")
          .map(new ParseUpsert())
          .uid("parse")
          .map(new FailOnce())
          .uid("fail-once")
          .keyBy(row -> row.f0)
          .sinkTo(sink)
          .uid("lakebase");
    };
  }

  private StreamingQuery start(int restartAttempts) throws Exception {
    Configuration conf = new Configuration();
    conf.set(
        RestartStrategyOptions.RESTART_STRATEGY, restartAttempts == 0 ? "none" : "fixed-delay");
    conf.set(
        RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, Math.max(1, restartAttempts));
    conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(100));
    // flushes come from checkpoints and full buffers, hardly from the timer: what the checkpoint
    // flush must write is never written by chance
    Map<String, String> sinkOptions = Map.of("batchsize", "400", "batchinterval", "10 s");
    return StreamingQueryBuilder.of(dataflow(TOPIC, "kafka_upserts", sinkOptions))
        .queryName("kafka_to_lakebase")
        .checkpointLocation(dir.resolve("chk").toString())
        .trigger(Trigger.availableNow())
        .outputMode(OutputMode.UPDATE)
        .parallelism(2)
        .stateBackend(StateBackendSettings.defaults())
        .flinkConfiguration(conf)
        .start();
  }

  @Test
  void theTableHoldsTheLastValuePerKeyAfterTaskFailuresAndAResumedRun() throws Exception {
    KAFKA.createTopic(TOPIC, 3);

    // Run 1: a task failure mid-stream, restarted inside the run from its last checkpoint.
    produce(0, BATCH);
    failAtSeq = BATCH / 2 + 17;
    start(3).awaitTermination();
    assertThat(FAILED).as("the first failure was injected").isTrue();
    assertTableIsLastValuePerKey();

    // Run 2 fails for good mid-stream (no restarts): the table is left half-updated.
    produce(BATCH, 2L * BATCH);
    FAILED.set(false);
    failAtSeq = BATCH + BATCH / 2 + 3;
    StreamingQuery failing = start(0);
    assertThatThrownBy(failing::awaitTermination)
        .isInstanceOf(StreamingQueryException.class)
        .hasMessageContaining("injected task failure");
    assertThat(table()).isNotEqualTo(expected());

    // Run 3 resumes from the checkpoint run 2 retained and replays the rest.
    failAtSeq = Long.MAX_VALUE;
    start(0).awaitTermination();
    assertTableIsLastValuePerKey();
  }

  @Test
  void aRealTimeQueryUpsertsWithTheRealTimeBatchIntervalByDefault() throws Exception {
    KAFKA.createTopic("realtime_upserts", 3);
    produce("realtime_upserts", 0, BATCH);
    StreamingQuery query =
        StreamingQueryBuilder.of(dataflow("realtime_upserts", "realtime_upserts", Map.of()))
            .queryName("kafka_to_lakebase_realtime")
            .checkpointLocation(dir.resolve("chk-realtime").toString())
            .trigger(Trigger.realTime(Duration.ofSeconds(5)))
            .outputMode(OutputMode.UPDATE)
            .parallelism(2)
            .stateBackend(StateBackendSettings.defaults())
            .start();
    try {
      long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
      while (!tableOrEmpty("realtime_upserts").equals(expected()) && System.nanoTime() < deadline) {
        assertThat(query.isActive()).as("query running").isTrue();
        Thread.sleep(100);
      }
      assertThat(table("realtime_upserts")).hasSize(KEYS).containsExactlyElementsOf(expected());
      assertThat(BATCH_INTERVAL.get()).isEqualTo(Duration.ofMillis(30));
    } finally {
      query.cancel();
    }
  }

  private static List<String> tableOrEmpty(String name) {
    try {
      return table(name);
    } catch (SQLException e) {
      return List.of(); // not created yet
    }
  }

  private List<String> expected() {
    List<String> rows = new ArrayList<>();
    lastSeqPerKey.forEach((id, seq) -> rows.add(id + "," + seq + ",v" + seq));
    return rows;
  }

  private void assertTableIsLastValuePerKey() throws SQLException {
    assertThat(table()).hasSize(KEYS).containsExactlyElementsOf(expected());
  }

  private static List<String> table() throws SQLException {
    return table("kafka_upserts");
  }

  private static List<String> table(String name) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (Connection c = POSTGRES.connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT id, seq, label FROM " + name + " ORDER BY id")) {
      while (rs.next()) {
        rows.add(rs.getLong(1) + "," + rs.getLong(2) + "," + rs.getString(3));
      }
    }
    return rows;
  }
}
