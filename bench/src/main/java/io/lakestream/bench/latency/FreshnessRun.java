package io.lakestream.bench.latency;

import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.sink.DeltaSinkBuilder;
import io.lakestream.connectors.kafka.KafkaRecord;
import io.lakestream.connectors.kafka.source.KafkaSourceBuilder;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.runtime.Dataflow;
import io.lakestream.runtime.QueryProgress;
import io.lakestream.runtime.StreamingQuery;
import io.lakestream.runtime.StreamingQueryBuilder;
import io.lakestream.runtime.Trigger;
import io.lakestream.state.StateBackendSettings;
import io.lakestream.state.query.OutputMode;
import io.lakestream.testkit.kafka.KafkaBroker;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.kafka.clients.admin.NewTopic;

/**
 * One measured run of delta-freshness: a bronze-like query (Kafka, 2 partitions -> Delta append,
 * parallelism 2, source and sink writer chained) with the given trigger, fed by a {@link
 * PacedProducer} and watched by a {@link VisibilityPoller}. A probe record goes first and the paced
 * records only once it is visible, so no record waits for the job's start; the first {@code warmup}
 * paced records are excluded from the sample. The epochs' {@code durationMs} come from the query's
 * progress.
 */
final class FreshnessRun {
  private static final Duration TIMEOUT = Duration.ofMinutes(3);

  /** The bronze table: the parsed id and send time beside the Kafka position and raw value. */
  static final DeltaTableSchema SCHEMA =
      DeltaTableSchema.builder()
          .column("id", ColumnType.LONG, false)
          .column("sent_us", ColumnType.LONG, false)
          .column("kafka_partition", ColumnType.INT, false)
          .column("kafka_offset", ColumnType.LONG, false)
          .column("value", ColumnType.STRING, false)
          .build();

  /** The progress phases printed, Structured Streaming's {@code durationMs} names. */
  static final List<String> PHASES =
      List.of("addBatch", "walCommit", "commitOffsets", "triggerExecution");

  private FreshnessRun() {}

  /** A run's latencies and the progress of the epochs that carried rows. */
  record Result(PacedRun run, List<QueryProgress> epochs, String pollerLoads) {
    /** {@code phase: median x ms, max y ms} for each of {@link #PHASES}, over the epochs. */
    String breakdown() {
      List<String> parts = new ArrayList<>();
      for (String phase : PHASES) {
        long[] ms =
            epochs.stream()
                .filter(p -> p.json().path("durationMs").path(phase).isNumber())
                .mapToLong(p -> p.json().path("durationMs").path(phase).asLong())
                .sorted()
                .toArray();
        parts.add(
            ms.length == 0
                ? phase + " -"
                : String.format(
                    Locale.ROOT,
                    "%s median %d ms, max %d ms",
                    phase,
                    ms[ms.length / 2],
                    ms[ms.length - 1]));
      }
      return epochs.size() + " epochs with rows: " + String.join("; ", parts);
    }
  }

  static Result run(
      KafkaBroker kafka,
      Path dir,
      String name,
      Trigger trigger,
      long warmup,
      long measured,
      int rate)
      throws Exception {
    String topic = "freshness_" + name;
    kafka
        .admin()
        .createTopics(List.of(new NewTopic(topic, 2, (short) 1)))
        .all()
        .get(30, TimeUnit.SECONDS);
    String tablePath = dir.resolve("table-" + name).toUri().toString();
    long total = 1 + warmup + measured;
    StreamingQuery query =
        StreamingQueryBuilder.of(dataflow(kafka, topic, tablePath))
            .queryName("freshness_" + name)
            .checkpointLocation(dir.resolve("chk-" + name).toString())
            .trigger(trigger)
            .outputMode(OutputMode.APPEND)
            .parallelism(2)
            .stateBackend(StateBackendSettings.defaults())
            .start();
    try (VisibilityPoller poller =
            new VisibilityPoller(DeltaTable.forPath(tablePath), 1 + warmup, total);
        PacedProducer producer = new PacedProducer(kafka, topic)) {
      producer.send(0);
      await(() -> poller.seen(0), query, "the probe record");
      long produceNanos = producer.sendPaced(1, total, rate);
      await(() -> poller.seenCount() >= total, query, "all " + total + " records");
      // the progress of an epoch is written a little after its commit: wait for the last one
      await(() -> reported(query) >= total, query, "the progress of all epochs");
      long firstBatch =
          query.recentProgress().stream()
              .filter(p -> p.numInputRows() > 1)
              .mapToLong(QueryProgress::batchId)
              .min()
              .orElse(Long.MAX_VALUE);
      List<QueryProgress> epochs =
          query.recentProgress().stream()
              .filter(p -> p.batchId() >= firstBatch && p.numInputRows() > 0)
              .toList();
      query.cancel(); // measured: no savepoint needed, and a stop would only take longer
      if (poller.duplicates() > 0) {
        throw new IllegalStateException(
            name + ": " + poller.duplicates() + " rows visible twice in a run without failures");
      }
      return new Result(
          new PacedRun(poller.sample(), null, produceNanos, total - 1),
          epochs,
          poller.loadSummary());
    } finally {
      if (query.isActive()) {
        query.cancel();
      }
    }
  }

  /** Input rows in the progress kept (the newest 100 epochs; a longer run counts as complete). */
  private static long reported(StreamingQuery query) {
    List<QueryProgress> recent = query.recentProgress();
    return recent.size() >= 100
        ? Long.MAX_VALUE
        : recent.stream().mapToLong(QueryProgress::numInputRows).sum();
  }

  private static Dataflow dataflow(KafkaBroker kafka, String topic, String tablePath) {
    Map<String, String> source =
        Map.of(
            "kafka.bootstrap.servers",
            kafka.bootstrapServers(),
            "subscribe",
            topic,
            "startingOffsets",
            "earliest");
    return (env, query) ->
        env.fromSource(
                KafkaSourceBuilder.kafka("in").options(source).query(query).build(),
                WatermarkStrategy.noWatermarks(),
                "in")
            .uid("in")
            .sinkTo(
                DeltaSinkBuilder.forTable(tablePath, SCHEMA, FreshnessRun::toRow)
                    .query(query)
                    .sinkName("bronze")
                    .build())
            .uid("bronze");
  }

  /** {@code <id>,<send µs>} parsed, with the record's partition, offset and raw value. */
  static Object[] toRow(KafkaRecord record) {
    String v = new String(record.value, StandardCharsets.UTF_8);
    int comma = v.indexOf(',');
    return new Object[] {
      Long.parseLong(v.substring(0, comma)),
      Long.parseLong(v.substring(comma + 1)),
      record.partition,
      record.offset,
      v
    };
  }

  private static void await(KafkaLatencyRun.Check check, StreamingQuery query, String what)
      throws Exception {
    long deadline = System.nanoTime() + TIMEOUT.toNanos();
    while (!check.holds()) {
      if (!query.isActive()) {
        query.awaitTermination(); // throws the query's failure
        throw new IllegalStateException("the query ended before " + what + " was seen");
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(what + " not seen after " + TIMEOUT);
      }
      Thread.sleep(20);
    }
  }
}
