package io.lakestream.bench.lakebase;

import io.lakestream.connectors.kafka.KafkaRecord;
import io.lakestream.connectors.kafka.source.KafkaSourceBuilder;
import io.lakestream.connectors.lakebase.LakebaseSchema;
import io.lakestream.connectors.lakebase.LakebaseSinkBuilder;
import io.lakestream.connectors.lakebase.sink.LakebaseSink;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.runtime.Dataflow;
import io.lakestream.runtime.StreamingQuery;
import io.lakestream.runtime.StreamingQueryBuilder;
import io.lakestream.runtime.Trigger;
import io.lakestream.state.StateBackendSettings;
import io.lakestream.state.query.OutputMode;
import io.lakestream.state.query.QueryContext;
import io.lakestream.testkit.kafka.KafkaBroker;
import io.lakestream.testkit.postgres.PostgresDatabase;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.java.tuple.Tuple3;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * One measured run of lakebase-latency-p99-ms: a realTime query (Kafka source -> parse -> Lakebase
 * sink, chained in each of 2 subtasks) writing every record as its own row; a producer paced at
 * {@code rate} records/s stamps each record with its send time (microseconds, in the value); a
 * {@code BEFORE INSERT OR UPDATE} trigger stamps the row with {@code clock_timestamp()} when the
 * sink's statement writes it. Latency = written - sent, both from the same machine's real-time
 * clock. The commit follows in the same transaction right after the statement, so the row is
 * visible a fraction of a millisecond later than stamped (the writer's commit time, see the notes).
 */
final class LatencyRun {
  private static final LakebaseSchema SCHEMA =
      LakebaseSchema.builder()
          .column("id", ColumnType.LONG, false)
          .column("sent_us", ColumnType.LONG, false)
          .column("seen_us", ColumnType.LONG, false)
          .build();

  private LatencyRun() {}

  /** Latencies in microseconds of the measured records, sorted, plus how long producing took. */
  record Result(
      long[] latencyMicros,
      long[] toJobMicros,
      long produceNanos,
      long records,
      Duration batchInterval) {
    double percentileMillis(double p) {
      return percentile(latencyMicros, p);
    }

    /** The part from send to the job's parse operator (Kafka and the source). */
    double toJobPercentileMillis(double p) {
      return percentile(toJobMicros, p);
    }

    private static double percentile(long[] sorted, double p) {
      int i = (int) Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1);
      return sorted[Math.max(0, i)] / 1000.0;
    }

    double maxMillis() {
      return latencyMicros[latencyMicros.length - 1] / 1000.0;
    }
  }

  static Result run(
      KafkaBroker kafka,
      PostgresDatabase db,
      Path dir,
      String name,
      String batchInterval,
      long warmupRecords,
      long measuredRecords,
      int rate)
      throws Exception {
    String topic = "latency_" + name;
    String table = "latency_" + name;
    kafka
        .admin()
        .createTopics(
            java.util.List.of(new org.apache.kafka.clients.admin.NewTopic(topic, 2, (short) 1)))
        .all()
        .get(30, TimeUnit.SECONDS);
    try (Connection c = db.connect();
        Statement s = c.createStatement()) {
      s.execute("DROP TABLE IF EXISTS " + table);
      s.execute(
          "CREATE TABLE "
              + table
              + " (id int8 PRIMARY KEY, sent_us int8 NOT NULL, seen_us int8 NOT NULL,"
              + " written_at timestamptz)");
      s.execute(
          "CREATE OR REPLACE FUNCTION stamp_written_at() RETURNS trigger LANGUAGE plpgsql AS"
              + " $$ BEGIN NEW.written_at := clock_timestamp(); RETURN NEW; END $$");
      s.execute(
          "CREATE TRIGGER stamp BEFORE INSERT OR UPDATE ON "
              + table
              + " FOR EACH ROW EXECUTE FUNCTION stamp_written_at()");
    }
    AtomicReference<Duration> used = new AtomicReference<>();
    Map<String, String> source =
        Map.of(
            "kafka.bootstrap.servers",
            kafka.bootstrapServers(),
            "subscribe",
            topic,
            "startingOffsets",
            "earliest");
    Dataflow dataflow =
        (env, query) ->
            env.fromSource(
                    KafkaSourceBuilder.kafka("latency-kafka").options(source).query(query).build(),
                    WatermarkStrategy.noWatermarks(),
                    "latency-kafka")
                .uid("latency-kafka")
                .map(new Parse())
                .uid("parse")
                .sinkTo(sink(db, table, batchInterval, query, used))
                .uid("lakebase");
    StreamingQuery query =
        StreamingQueryBuilder.of(dataflow)
            .queryName("latency_" + name)
            .checkpointLocation(dir.resolve("chk-" + name).toString())
            .trigger(Trigger.realTime(Duration.ofSeconds(10)))
            .outputMode(OutputMode.UPDATE)
            .parallelism(2)
            .stateBackend(StateBackendSettings.defaults())
            .start();
    long total = 1 + warmupRecords + measuredRecords;
    try (KafkaProducer<String, String> producer = producer(kafka)) {
      // a probe record: producing starts once the query writes, so no record waits for startup
      send(producer, topic, 0);
      awaitRows(db, table, 1, query, Duration.ofMinutes(3));
      long start = System.nanoTime();
      long intervalNanos = 1_000_000_000L / rate;
      for (long seq = 1; seq < total; seq++) {
        long due = start + (seq - 1) * intervalNanos;
        long wait = due - System.nanoTime();
        if (wait > 0) {
          LockSupport.parkNanos(wait);
        }
        send(producer, topic, seq);
      }
      producer.flush();
      long produceNanos = System.nanoTime() - start;
      awaitRows(db, table, total, query, Duration.ofMinutes(3));
      query.stop();
      long[][] latencies = latencies(db, table, 1 + warmupRecords, total);
      return new Result(latencies[0], latencies[1], produceNanos, total - 1, used.get());
    } finally {
      if (query.isActive()) {
        query.cancel();
      }
    }
  }

  /**
   * The sink; option batchinterval only if given, and the interval it resolved to in {@code used}.
   */
  private static LakebaseSink<Tuple3<Long, Long, Long>> sink(
      PostgresDatabase db,
      String table,
      String batchInterval,
      QueryContext query,
      AtomicReference<Duration> used) {
    LakebaseSink<Tuple3<Long, Long, Long>> sink =
        LakebaseSinkBuilder.<Tuple3<Long, Long, Long>>forSchema(
                SCHEMA, row -> new Object[] {row.f0, row.f1, row.f2})
            .option("endpoint", db.jdbcUrl())
            .option("user", db.user())
            .option("password", db.password())
            .option("dbtable", table)
            .options(batchInterval == null ? Map.of() : Map.of("batchinterval", batchInterval))
            .query(query)
            .build();
    used.set(sink.config().batchInterval());
    return sink;
  }

  /** Parses {@code "<seq>,<sent micros>"} and stamps when the job saw the record (micros). */
  static final class Parse implements MapFunction<KafkaRecord, Tuple3<Long, Long, Long>> {
    @Override
    public Tuple3<Long, Long, Long> map(KafkaRecord record) {
      String v = new String(record.value, StandardCharsets.UTF_8);
      int comma = v.indexOf(',');
      return Tuple3.of(
          Long.parseLong(v.substring(0, comma)),
          Long.parseLong(v.substring(comma + 1)),
          ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now()));
    }
  }

  private static KafkaProducer<String, String> producer(KafkaBroker kafka) {
    Properties props = kafka.clientProperties();
    props.put(ProducerConfig.LINGER_MS_CONFIG, "0");
    props.put(ProducerConfig.ACKS_CONFIG, "1");
    return new KafkaProducer<>(props, new StringSerializer(), new StringSerializer());
  }

  private static void send(KafkaProducer<String, String> producer, String topic, long seq) {
    Instant now = Instant.now();
    long micros = ChronoUnit.MICROS.between(Instant.EPOCH, now);
    producer.send(new ProducerRecord<>(topic, Long.toString(seq), seq + "," + micros));
  }

  private static void awaitRows(
      PostgresDatabase db, String table, long rows, StreamingQuery query, Duration timeout)
      throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (count(db, table) < rows) {
      if (!query.isActive()) {
        query.awaitTermination(); // throws the query's failure
        throw new IllegalStateException("the query ended before writing " + rows + " rows");
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "table "
                + table
                + " holds "
                + count(db, table)
                + " of "
                + rows
                + " rows after "
                + timeout);
      }
      Thread.sleep(100);
    }
  }

  private static long count(PostgresDatabase db, String table) throws SQLException {
    try (Connection c = db.connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT count(*) FROM " + table)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /** Latencies of ids in [from, to): every one must be there exactly once. */
  private static long[][] latencies(PostgresDatabase db, String table, long from, long to)
      throws SQLException {
    long[] out = new long[(int) (to - from)];
    long[] toJob = new long[out.length];
    int n = 0;
    try (Connection c = db.connect();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT id, (extract(epoch FROM written_at) * 1000000)::int8 - sent_us,"
                    + " seen_us - sent_us FROM "
                    + table
                    + " WHERE id >= "
                    + from
                    + " AND id < "
                    + to
                    + " ORDER BY id")) {
      long expected = from;
      while (rs.next()) {
        if (rs.getLong(1) != expected) {
          throw new IllegalStateException(
              "table " + table + ": row " + rs.getLong(1) + " where " + expected + " was expected");
        }
        toJob[n] = rs.getLong(3);
        out[n++] = rs.getLong(2);
        expected++;
      }
    }
    if (n != out.length) {
      throw new IllegalStateException(
          "table " + table + " holds " + n + " of " + out.length + " rows");
    }
    Arrays.sort(out);
    Arrays.sort(toJob);
    return new long[][] {out, toJob};
  }
}
