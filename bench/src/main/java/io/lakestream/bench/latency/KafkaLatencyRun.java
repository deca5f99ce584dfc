package io.lakestream.bench.latency;

import io.lakestream.bench.latency.OutputConsumer.Stamp;
import io.lakestream.connectors.kafka.KafkaRecord;
import io.lakestream.connectors.kafka.sink.KafkaSinkBuilder;
import io.lakestream.connectors.kafka.source.KafkaSourceBuilder;
import io.lakestream.runtime.Dataflow;
import io.lakestream.runtime.StreamingQuery;
import io.lakestream.runtime.StreamingQueryBuilder;
import io.lakestream.runtime.Trigger;
import io.lakestream.state.StateBackendSettings;
import io.lakestream.state.query.OutputMode;
import io.lakestream.testkit.kafka.KafkaBroker;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;

/**
 * One measured run of realtime-kafka-p99-ms: a realTime query from one Kafka topic to another (2
 * partitions each, parallelism 2) with one of the {@link Pipeline}s, fed by a {@link PacedProducer}
 * and read by an {@link OutputConsumer}. A probe record goes first and the paced records only once
 * it came out, so no record waits for the job's start; the first {@code warmup} paced records are
 * excluded from the sample.
 */
final class KafkaLatencyRun {
  private static final Duration TIMEOUT = Duration.ofMinutes(3);

  /** What the query does between the topics. */
  enum Pipeline {
    /**
     * Parse and re-emit each record; at-least-once (idempotent producer, the realTime sink's
     * linger.ms 0).
     */
    STATELESS("at-least-once"),
    /** Count per key in 1 s tumbling windows, emitting the updated count per record. */
    WINDOWED_COUNT("at-least-once"),
    /** As STATELESS into a transactional sink, read with read_committed. */
    STATELESS_EXACTLY_ONCE("exactly-once");

    final String guarantee;

    Pipeline(String guarantee) {
      this.guarantee = guarantee;
    }
  }

  private KafkaLatencyRun() {}

  static PacedRun run(
      KafkaBroker kafka,
      Path dir,
      String name,
      Pipeline pipeline,
      Duration checkpointInterval,
      long warmup,
      long measured,
      int rate)
      throws Exception {
    String in = name + "_in";
    String out = name + "_out";
    kafka.admin().createTopics(List.of(topic(in), topic(out))).all().get(30, TimeUnit.SECONDS);
    long total = 1 + warmup + measured;
    boolean readCommitted = pipeline == Pipeline.STATELESS_EXACTLY_ONCE;
    StreamingQuery query =
        StreamingQueryBuilder.of(dataflow(kafka, in, out, pipeline, checkpointInterval))
            .queryName(name)
            .checkpointLocation(dir.resolve("chk-" + name).toString())
            .trigger(Trigger.realTime(checkpointInterval))
            .outputMode(OutputMode.UPDATE)
            .parallelism(2)
            .stateBackend(StateBackendSettings.defaults())
            .start();
    try (OutputConsumer consumer =
            new OutputConsumer(kafka, out, readCommitted, 1 + warmup, total);
        OutputConsumer kafkaAlone = new OutputConsumer(kafka, in, false, 1 + warmup, total);
        PacedProducer producer = new PacedProducer(kafka, in)) {
      producer.send(0);
      await(() -> consumer.seen(0), query, "the probe record in " + out);
      long produceNanos = producer.sendPaced(1, total, rate);
      await(() -> consumer.seenCount() >= total, query, total + " records in " + out);
      await(() -> kafkaAlone.seenCount() >= total, query, total + " records in " + in);
      query.cancel(); // measured: no savepoint needed, and a stop would only take longer
      if (consumer.duplicates() > 0) {
        throw new IllegalStateException(
            name
                + ": "
                + consumer.duplicates()
                + " records came out twice in a run without failures");
      }
      return new PacedRun(
          consumer.sample(),
          hops(
              consumer,
              new Stamp[] {Stamp.SENT, Stamp.SEEN_BY_JOB, Stamp.APPENDED, Stamp.RECEIVED},
              new String[] {"send -> the job's first operator", "-> output append", "-> receive"}),
          produceNanos,
          total - 1,
          kafkaAlone.sample(),
          hops(
              kafkaAlone,
              new Stamp[] {Stamp.SENT, Stamp.APPENDED, Stamp.RECEIVED},
              new String[] {"send -> broker append", "-> receive"}));
    } finally {
      if (query.isActive()) {
        query.cancel();
      }
    }
  }

  /**
   * {@code <name>: p50 .., p99 ..; <name>: ...} for the hops between consecutive stamps; the hops a
   * topic's records cannot show (no LogAppendTime, no job stamp) are left out.
   */
  static String hops(OutputConsumer consumer, Stamp[] stamps, String[] names) {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i + 1 < stamps.length; i++) {
      LatencySample hop = consumer.hop(stamps[i], stamps[i + 1]);
      if (hop != null) {
        text.append(text.length() == 0 ? "" : "; ")
            .append(names[i])
            .append(": ")
            .append(hop.percentiles());
      }
    }
    return text.length() == 0 ? null : text.toString();
  }

  private static Dataflow dataflow(
      KafkaBroker kafka, String in, String out, Pipeline pipeline, Duration checkpointInterval) {
    Map<String, String> source =
        Map.of(
            "kafka.bootstrap.servers",
            kafka.bootstrapServers(),
            "subscribe",
            in,
            "startingOffsets",
            "earliest");
    Map<String, String> sink =
        Map.of(
            "kafka.bootstrap.servers",
            kafka.bootstrapServers(),
            "topic",
            out,
            "deliveryGuarantee",
            pipeline.guarantee,
            "kafka.enable.idempotence",
            "true");
    return (env, query) -> {
      DataStream<KafkaRecord> records =
          env.fromSource(
                  KafkaSourceBuilder.kafka("in").options(source).query(query).build(),
                  WatermarkStrategy.noWatermarks(),
                  "in")
              .uid("in");
      DataStream<Tuple2<String, String>> results =
          pipeline == Pipeline.WINDOWED_COUNT
              ? records
                  .map(new Reformat())
                  .uid("reformat")
                  .keyBy(t -> t.f0, Types.STRING)
                  .process(new WindowCount())
                  .uid("window-count")
              : records.map(new Reformat()).uid("reformat");
      KafkaSinkBuilder.<Tuple2<String, String>>forQuery(query, "out")
          .options(sink)
          .keyString(t -> t.f0)
          .valueString(t -> t.f1)
          .checkpointInterval(checkpointInterval)
          .sinkTo(results);
    };
  }

  /**
   * The stateless map: parses {@code <id>,<send µs>} and writes it again with the time it saw the
   * record ({@code ,<µs>}), keyed as read.
   */
  static final class Reformat implements MapFunction<KafkaRecord, Tuple2<String, String>> {
    @Override
    public Tuple2<String, String> map(KafkaRecord record) {
      String v = new String(record.value, StandardCharsets.UTF_8);
      int comma = v.indexOf(',');
      long id = Long.parseLong(v.substring(0, comma));
      long sentMicros = Long.parseLong(v.substring(comma + 1));
      return Tuple2.of(
          record.keyAsString(), id + "," + sentMicros + "," + PacedProducer.nowMicros());
    }
  }

  /**
   * Count per key in 1 s tumbling windows of the send time (event time), emitted in update mode:
   * every record emits its window's count so far, {@code <id>,<send µs>,<seen µs>,<key>,<window
   * start ms>,<count>}. The state is the key's current window (start, count); a record of a later
   * window starts a new one (a key's records arrive in send order: one partition, one producer).
   */
  static final class WindowCount
      extends KeyedProcessFunction<String, Tuple2<String, String>, Tuple2<String, String>> {
    static final long WINDOW_MILLIS = 1_000;
    private transient ValueState<Tuple2<Long, Long>> window;

    @Override
    public void open(Configuration parameters) {
      window =
          getRuntimeContext()
              .getState(new ValueStateDescriptor<>("window", Types.TUPLE(Types.LONG, Types.LONG)));
    }

    @Override
    public void processElement(
        Tuple2<String, String> in, Context ctx, Collector<Tuple2<String, String>> out)
        throws Exception {
      long sentMicros = Long.parseLong(in.f1.split(",")[1]);
      long start = sentMicros / 1000 / WINDOW_MILLIS * WINDOW_MILLIS;
      Tuple2<Long, Long> current = window.value();
      long count = current != null && current.f0 == start ? current.f1 + 1 : 1;
      window.update(Tuple2.of(start, count));
      out.collect(Tuple2.of(in.f0, in.f1 + "," + in.f0 + "," + start + "," + count));
    }
  }

  /**
   * Two partitions; the broker stamps each record's append time (LogAppendTime), which splits the
   * latency into hops (the records' own timestamps are not used).
   */
  private static NewTopic topic(String name) {
    return new NewTopic(name, 2, (short) 1)
        .configs(Map.of(TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG, "LogAppendTime"));
  }

  /** A condition polled until true. */
  interface Check {
    boolean holds() throws Exception;
  }

  private static void await(Check check, StreamingQuery query, String what) throws Exception {
    long deadline = System.nanoTime() + TIMEOUT.toNanos();
    while (!check.holds()) {
      if (!query.isActive()) {
        query.awaitTermination(); // throws the query's failure
        throw new IllegalStateException("the query ended before " + what + " came out");
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("no " + what + " after " + TIMEOUT);
      }
      Thread.sleep(20);
    }
  }
}
