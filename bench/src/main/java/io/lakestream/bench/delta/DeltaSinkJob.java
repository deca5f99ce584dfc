package io.lakestream.bench.delta;

import io.lakestream.bench.BenchOptions;
import io.lakestream.bench.Measurement;
import io.lakestream.bench.ResourcePeaks;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.connectors.delta.DeltaWrittenFile;
import io.lakestream.connectors.delta.sink.DeltaSinkBuilder;
import io.lakestream.connectors.rate.source.RateSourceBuilder;
import io.lakestream.connectors.sink.EpochSink;
import io.lakestream.state.query.OutputMode;
import io.lakestream.state.query.QueryContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.streaming.api.CheckpointingMode;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * lakestream's side of delta-sink: a Flink job on a MiniCluster (started before the clock runs) in
 * which lakestream's rate source (unlimited rate, one partition per subtask) generates the narrow
 * rows and the real Delta sink ({@link DeltaSinkBuilder}: parallel writers, one committer, one
 * Delta version per checkpoint) writes them. The rate source never finishes, as in a streaming
 * query, so the table is polled: timed from job submission to the Delta commit that makes all rows
 * visible. The table must then hold exactly the rows sent, committed under the query's app id; more
 * rows, or none within the timeout, fail the bench.
 */
final class DeltaSinkJob {
  private DeltaSinkJob() {}

  static Measurement run(BenchOptions options, Path dir, long rows) throws Exception {
    Path tablePath = dir.resolve("table");
    String queryId = UUID.randomUUID().toString();
    QueryContext query =
        new QueryContext(
            queryId,
            "delta-sink-bench",
            UUID.randomUUID().toString(),
            QueryContext.appIdFor("delta-sink-bench", queryId),
            dir.resolve("query").toUri().toString(),
            false,
            false,
            OutputMode.APPEND);
    EpochSink<NarrowRow, DeltaWrittenFile> sink =
        DeltaSinkBuilder.forTable(tablePath.toString(), NarrowRows.SCHEMA, DeltaSinkJob::toRow)
            .query(query)
            .sinkName("delta-sink-bench")
            .build(); // creates the table: not part of the timed section

    StreamExecutionEnvironment env = new StreamExecutionEnvironment(new Configuration());
    env.setParallelism(options.parallelism());
    env.enableCheckpointing(
        options.checkpointInterval().toMillis(), CheckpointingMode.EXACTLY_ONCE);
    env.getCheckpointConfig().setCheckpointStorage(dir.resolve("flink-checkpoints").toUri());
    env.fromSource(
            RateSourceBuilder.rate(
                    "narrow-rows", NarrowRow::at, TypeInformation.of(NarrowRow.class))
                .rows(rows)
                .rowsPerSecond(0)
                .numPartitions(options.parallelism())
                .query(query)
                .build(),
            WatermarkStrategy.noWatermarks(),
            "narrow-rows")
        .uid("narrow-rows")
        .sinkTo(sink)
        .uid("delta-sink-bench")
        .name("Delta sink");
    JobGraph job = env.getStreamGraph().getJobGraph();

    Configuration clusterConf = new Configuration();
    MiniClusterConfiguration config =
        new MiniClusterConfiguration.Builder()
            .setConfiguration(clusterConf)
            .setNumTaskManagers(1)
            .setNumSlotsPerTaskManager(options.parallelism())
            .build();
    try (MiniCluster cluster = new MiniCluster(config)) {
      cluster.start();
      DeltaTable table = DeltaTable.forPath(tablePath.toString());
      long seenVersion = table.latestSnapshot().orElseThrow().getVersion();
      ResourcePeaks peaks = ResourcePeaks.start();
      long startMillis = System.currentTimeMillis();
      long start = System.nanoTime();
      JobID id = cluster.submitJob(job).get().getJobID();
      long deadline = start + timeout(rows).toNanos();
      CommitWatcher watcher = new CommitWatcher(tablePath.resolve("_delta_log"), seenVersion);
      while (watcher.rows() < rows) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException(
              "The Delta sink committed only "
                  + watcher.rows()
                  + " of "
                  + rows
                  + " rows within "
                  + timeout(rows)
                  + " ("
                  + tablePath
                  + ")");
        }
        if (cluster.getJobStatus(id).get().isGloballyTerminalState()) {
          cluster
              .requestJobResult(id)
              .get()
              .toJobExecutionResult(DeltaSinkJob.class.getClassLoader());
          throw new IllegalStateException("The bench job ended before committing all rows");
        }
        Thread.sleep(200);
        watcher.poll();
      }
      long version = watcher.version();
      long lastCommitMillis =
          Files.getLastModifiedTime(
                  tablePath.resolve("_delta_log").resolve(String.format("%020d.json", version)))
              .toMillis();
      long cpuNanos = peaks.cpuNanos();
      long rss = peaks.peakRssBytes();
      long heap = peaks.peakHeapBytes();
      Thread.sleep(options.checkpointInterval().toMillis() + 500); // an extra commit would land now
      cluster.cancelJob(id).get();
      long finalCount = new DeltaTableReader(table).count();
      if (finalCount != rows) {
        throw new IllegalStateException(
            "The Delta sink committed "
                + finalCount
                + " rows, expected "
                + rows
                + " ("
                + tablePath
                + ")");
      }
      long lastEpoch =
          table
              .latestSnapshot()
              .orElseThrow()
              .getLatestTransactionVersion(table.engine(), query.appId())
              .orElseThrow(
                  () -> new IllegalStateException("No commit of the bench query's app id"));
      long[] files = parquetFiles(tablePath);
      return new Measurement(
          "lakestream: Flink + Delta sink",
          rows,
          (lastCommitMillis - startMillis) * 1_000_000L,
          cpuNanos,
          rss,
          heap,
          String.format(
              Locale.ROOT,
              "rate source -> Delta sink on a MiniCluster, p=%d, checkpoint every %d ms; submit ->"
                  + " Delta commit holding all rows; %d versions (last epoch %d), %d files, %,d MiB",
              options.parallelism(),
              options.checkpointInterval().toMillis(),
              version,
              lastEpoch,
              files[0],
              files[1] / (1024 * 1024)));
    }
  }

  /** Generous: 20 minutes plus a millisecond per row (a 2-core machine does far better). */
  private static Duration timeout(long rows) {
    return Duration.ofMinutes(20).plusMillis(rows);
  }

  static Object[] toRow(NarrowRow row) {
    return new Object[] {row.id, row.tsMicros, row.category, row.amount};
  }

  /** {count, bytes} of the Parquet files under the table. */
  private static long[] parquetFiles(Path table) throws IOException {
    try (Stream<Path> paths = Files.walk(table)) {
      long[] out = new long[2];
      paths
          .filter(p -> p.toString().endsWith(".parquet") && !p.toString().contains("_delta_log"))
          .forEach(
              p -> {
                out[0]++;
                out[1] += p.toFile().length();
              });
      return out;
    }
  }
}
