package io.lakestream.bench.dedup;

import io.lakestream.bench.BenchOptions;
import io.lakestream.bench.ResourcePeaks;
import io.lakestream.connectors.rate.source.RateSourceBuilder;
import io.lakestream.operators.dedup.DeduplicationBuilder;
import io.lakestream.operators.row.KeyColumns;
import io.lakestream.operators.state.StateMetrics;
import io.lakestream.operators.watermark.Watermarks;
import io.lakestream.operators.window.WindowAggregate;
import io.lakestream.operators.window.WindowAggregationBuilder;
import io.lakestream.operators.window.WindowSpec;
import io.lakestream.state.query.OutputMode;
import io.lakestream.state.query.QueryContext;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.streaming.api.CheckpointingMode;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * One job of the dedup-state bench on its own MiniCluster (parallelism p, RocksDB with incremental
 * checkpoints as in {@code flink-conf/config.yaml}, checkpointing on): lakestream's rate source
 * generating the {@link DedupWorkload} (event {@code i} on source subtask {@code i % p}, unlimited
 * rate, subtasks kept within 30 s of event time of each other) -> {@code withWatermark(event_time,
 * 10 minutes)} (emitted every {@link #WATERMARK_INTERVAL}) -> the {@link Variant}'s stateful
 * operator -> a {@link CountingSink}. While it runs, the operator's state metrics, RocksDB's size
 * gauges and the JVM heap are sampled through {@link CapturingReporter}. Timed from submission
 * until the stateful operator has taken in every event; then the output must reach what the {@link
 * ReferenceModel} says (and not exceed it), or the run fails.
 */
final class DedupStateJob {
  private static final long SAMPLE_EVERY_MILLIS = 1_000;
  private static final Duration OUTPUT_SETTLE_TIMEOUT = Duration.ofSeconds(60);
  private static final Duration MAX_SOURCE_DRIFT = Duration.ofSeconds(30);

  /**
   * The withWatermark operator's emission interval. Rows that pass between two emissions meet a
   * watermark that trails by all of them; for the output to match the model that trail must stay
   * inside the workload's margin, and the margin in rows shrinks with the stream (1M events over
   * 50K ids lose a row once about 135K rows, 8 minutes of event time, go by on one watermark).
   * Flink's default 200 ms let that many through in a burst on a CI machine; 50 ms needs a rate
   * four times higher.
   */
  private static final Duration WATERMARK_INTERVAL = Duration.ofMillis(50);

  /** The stateful operator under test. */
  enum Variant {
    WITHIN_WATERMARK("dedup: withWatermark + dropDuplicatesWithinWatermark(id)"),
    E5_WINDOW("E5: withWatermark -> 5-min tumbling count by adId, append"),
    UNBOUNDED("contrast: withWatermark + dropDuplicates(id)");

    final String label;

    Variant(String label) {
      this.label = label;
    }
  }

  /** What one run measured. */
  record Run(
      Variant variant,
      long events,
      long nanos,
      long cpuNanos,
      long peakRssBytes,
      List<StateSample> samples,
      long outputRows,
      long outputWeight) {
    double eventsPerSecond() {
      return events / (nanos / 1e9);
    }
  }

  private DedupStateJob() {}

  /**
   * Runs {@code variant} over {@code workload} and checks its output against {@code model} (unless
   * {@code checkOutput} is false: an untimed warm-up too small for the workload's margins).
   *
   * @throws IllegalStateException if the output does not match the model or the run times out
   */
  static Run run(
      Variant variant,
      DedupWorkload workload,
      ReferenceModel model,
      BenchOptions options,
      Path dir,
      boolean checkOutput)
      throws Exception {
    String sinkName = "dedup-state-" + variant.name() + "-" + UUID.randomUUID();
    StreamExecutionEnvironment env = new StreamExecutionEnvironment(stateConfig(dir));
    env.setParallelism(options.parallelism());
    env.getConfig().setAutoWatermarkInterval(WATERMARK_INTERVAL.toMillis());
    env.enableCheckpointing(
        options.checkpointInterval().toMillis(), CheckpointingMode.EXACTLY_ONCE);
    String queryId = UUID.randomUUID().toString();
    QueryContext query =
        new QueryContext(
            queryId,
            "dedup-state-bench",
            UUID.randomUUID().toString(),
            QueryContext.appIdFor("dedup-state-bench", queryId),
            dir.resolve("query").toUri().toString(),
            false,
            false,
            OutputMode.APPEND);
    DataStream<DedupEvent> events =
        Watermarks.withWatermark(
            env.fromSource(
                    RateSourceBuilder.rate(
                            "dedup-events", workload::at, TypeInformation.of(DedupEvent.class))
                        .rows(workload.events())
                        .rowsPerSecond(0)
                        .numPartitions(options.parallelism())
                        .query(query)
                        .build(),
                    alignedSources(),
                    "dedup-events")
                .uid("dedup-events"),
            e -> e.eventTimeMillis,
            DedupWorkload.DELAY,
            "dedup-watermark");
    KeyColumns<DedupEvent> byId = KeyColumns.of("id", (DedupEvent e) -> e.id);
    switch (variant) {
      case WITHIN_WATERMARK ->
          DeduplicationBuilder.dropDuplicatesWithinWatermark(events, byId)
              .uid("dedup-within-watermark")
              .build()
              .sinkTo(new CountingSink<DedupEvent>(sinkName, e -> 1))
              .uid("count-sink");
      case UNBOUNDED ->
          DeduplicationBuilder.dropDuplicates(events, byId)
              .uid("dedup-unbounded")
              .build()
              .sinkTo(new CountingSink<DedupEvent>(sinkName, e -> 1))
              .uid("count-sink");
      case E5_WINDOW ->
          WindowAggregationBuilder.window(events, WindowSpec.tumbling("5 minutes"))
              .groupBy(KeyColumns.of("ad_id", (DedupEvent e) -> e.adId))
              .outputMode(OutputMode.APPEND)
              .uid("clicks-per-ad")
              .build()
              .sinkTo(new CountingSink<WindowAggregate>(sinkName, w -> w.count))
              .uid("count-sink");
    }
    JobGraph job = env.getStreamGraph().getJobGraph();

    Configuration clusterConf = stateConfig(dir);
    clusterConf.setString(
        "metrics.reporter.capture.factory.class", CapturingReporter.Factory.class.getName());
    MiniClusterConfiguration config =
        new MiniClusterConfiguration.Builder()
            .setConfiguration(clusterConf)
            .setNumTaskManagers(1)
            .setNumSlotsPerTaskManager(options.parallelism())
            .build();
    CapturingReporter.reset();
    try (MiniCluster cluster = new MiniCluster(config)) {
      cluster.start();
      ResourcePeaks peaks = ResourcePeaks.start();
      long start = System.nanoTime();
      JobID id = cluster.submitJob(job).get().getJobID();
      List<StateSample> samples = new ArrayList<>();
      long deadline = start + Duration.ofMinutes(30).plusMillis(workload.events() / 5).toNanos();
      long nextSample = start;
      long processed = 0;
      long maxWatermarkLag = 0;
      while (processed < workload.events()) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException(
              variant.label
                  + ": only "
                  + processed
                  + " of "
                  + workload.events()
                  + " events in time");
        }
        if (cluster.getJobStatus(id).get().isGloballyTerminalState()) {
          cluster
              .requestJobResult(id)
              .get()
              .toJobExecutionResult(DedupStateJob.class.getClassLoader());
          throw new IllegalStateException(variant.label + ": the job ended early");
        }
        Thread.sleep(50);
        processed = CapturingReporter.sum(CapturingReporter.STATEFUL_RECORDS_IN);
        maxWatermarkLag = Math.max(maxWatermarkLag, watermarkLag(processed, workload));
        long now = System.nanoTime();
        if (now >= nextSample || processed >= workload.events()) {
          samples.add(sample(start, now, processed, workload));
          nextSample = now + SAMPLE_EVERY_MILLIS * 1_000_000L;
        }
      }
      long nanos = System.nanoTime() - start;
      long cpu = peaks.cpuNanos();
      long rss = peaks.peakRssBytes();
      samples.set(samples.size() - 1, sampleAfterNextEpoch(start, processed, workload));
      if (processed != workload.events()) {
        throw new IllegalStateException(
            variant.label
                + ": the operator took in "
                + processed
                + " rows, "
                + workload.events()
                + " were sent");
      }
      long[] output =
          checkOutput
              ? awaitOutput(variant, model, sinkName, maxWatermarkLag)
              : new long[] {CountingSink.rows(sinkName), CountingSink.weights(sinkName)};
      cluster.cancelJob(id).get();
      return new Run(variant, workload.events(), nanos, cpu, rss, samples, output[0], output[1]);
    }
  }

  /**
   * Keeps the source subtasks within {@link #MAX_SOURCE_DRIFT} of event time of each other. The
   * stateful operator's watermark is the minimum over its inputs, and nothing else stops one source
   * subtask from running far ahead of a starved one (a loaded machine): its rows would then meet a
   * watermark minutes of event time behind them, keys expire late, and rows the model lets pass are
   * dropped (the workload's margin is 3 minutes). Structured Streaming has no such skew (one global
   * watermark per micro-batch). These source watermarks only pace the sources: the withWatermark
   * operator sets its own (max event time - delay) and ignores its input's.
   */
  private static WatermarkStrategy<DedupEvent> alignedSources() {
    return WatermarkStrategy.<DedupEvent>forBoundedOutOfOrderness(DedupWorkload.JITTER)
        .withTimestampAssigner((e, previous) -> e.eventTimeMillis)
        .withWatermarkAlignment("dedup-events", MAX_SOURCE_DRIFT, Duration.ofMillis(20));
  }

  /** Waits until the sink holds what the model expects, then checks that nothing more arrives. */
  private static long[] awaitOutput(
      Variant variant, ReferenceModel model, String sink, long maxWatermarkLag)
      throws InterruptedException {
    long expectedRows =
        switch (variant) {
          case WITHIN_WATERMARK -> model.passesWithinWatermark();
          case UNBOUNDED -> model.distinctIds();
          case E5_WINDOW -> model.emittedWindows();
        };
    long expectedWeight = variant == Variant.E5_WINDOW ? model.emittedWindowRows() : expectedRows;
    long deadline = System.nanoTime() + OUTPUT_SETTLE_TIMEOUT.toNanos();
    while (CountingSink.rows(sink) < expectedRows && System.nanoTime() < deadline) {
      Thread.sleep(100);
    }
    Thread.sleep(1_000); // anything beyond the expected output would show now
    long rows = CountingSink.rows(sink);
    long weight = CountingSink.weights(sink);
    if (rows != expectedRows || weight != expectedWeight) {
      throw new IllegalStateException(
          String.format(
              "%s: the job emitted %,d rows (weight %,d); the reference model of the rule says"
                  + " %,d rows (weight %,d). The operator's watermark trailed the ideal one by up"
                  + " to %,d s of event time where sampled (every 50 ms); fewer rows than the"
                  + " model mean it trailed further than the workload's margin at some row",
              variant.label, rows, weight, expectedRows, expectedWeight, maxWatermarkLag / 1000));
    }
    return new long[] {rows, weight};
  }

  /**
   * The last sample, taken once every subtask has ended an epoch after the last event arrived:
   * numRowsTotal is read as of epoch ends (see {@link #sample}), so the final value must come from
   * an epoch that holds every event.
   */
  private static StateSample sampleAfterNextEpoch(
      long start, long processed, DedupWorkload workload) throws InterruptedException {
    long lastEpoch = CapturingReporter.max(StateMetrics.EPOCH).orElse(-1);
    long deadline = System.nanoTime() + OUTPUT_SETTLE_TIMEOUT.toNanos();
    while (CapturingReporter.min(StateMetrics.EPOCH).orElse(-1) <= lastEpoch) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "no epoch ended within "
                + OUTPUT_SETTLE_TIMEOUT
                + " after the last event: is checkpointing on (--checkpoint-interval)?");
      }
      Thread.sleep(20);
    }
    return sample(start, System.nanoTime(), processed, workload);
  }

  /**
   * One sample. numRowsTotal and the state memory estimate are the values as of the last epoch end
   * ({@link StateMetrics#epochName}), which is what Spark's progress reports too (state rows after
   * the micro-batch's eviction); the rest is live.
   */
  private static StateSample sample(long start, long now, long processed, DedupWorkload workload) {
    MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
    long afterGc = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP && pool.getCollectionUsage() != null) {
        afterGc += pool.getCollectionUsage().getUsed();
      }
    }
    return new StateSample(
        (now - start) / 1e9,
        processed,
        CapturingReporter.sum(StateMetrics.epochName(StateMetrics.NUM_ROWS_TOTAL)),
        CapturingReporter.sum(StateMetrics.epochName(StateMetrics.MEMORY_USED_BYTES)),
        CapturingReporter.sum(CapturingReporter.ROCKSDB_LIVE)
            + CapturingReporter.sum(CapturingReporter.ROCKSDB_MEMTABLES),
        CapturingReporter.sum(CapturingReporter.ROCKSDB_KEYS),
        heap.getUsed(),
        afterGc,
        watermarkLag(processed, workload));
  }

  /** The ideal watermark after {@code processed} events minus the operator's, -1 if unknown. */
  private static long watermarkLag(long processed, DedupWorkload workload) {
    java.util.OptionalLong watermark = CapturingReporter.min(CapturingReporter.STATEFUL_WATERMARK);
    if (processed == 0 || watermark.isEmpty() || watermark.getAsLong() <= 0) {
      return -1;
    }
    long ideal =
        DedupWorkload.ORIGIN_MILLIS
            + Math.multiplyExact(processed - 1, DedupWorkload.SPAN.toMillis()) / workload.events()
            - DedupWorkload.DELAY.toMillis();
    return Math.max(0, ideal - watermark.getAsLong());
  }

  /** RocksDB as in production (flink-conf/config.yaml) plus its native size metrics. */
  private static Configuration stateConfig(Path dir) {
    Configuration conf = new Configuration();
    conf.setString("state.backend.type", "rocksdb");
    conf.setString("execution.checkpointing.incremental", "true");
    conf.setString("execution.checkpointing.dir", dir.resolve("checkpoints").toUri().toString());
    conf.setString("state.backend.rocksdb.localdir", dir.resolve("rocksdb").toString());
    conf.setString("state.backend.rocksdb.metrics.estimate-live-data-size", "true");
    conf.setString("state.backend.rocksdb.metrics.size-all-mem-tables", "true");
    conf.setString("state.backend.rocksdb.metrics.estimate-num-keys", "true");
    // the rate source's reader cannot pause single splits; its subtasks are paced as a whole
    conf.setString("pipeline.watermark-alignment.allow-unaligned-source-splits", "true");
    return conf;
  }
}
