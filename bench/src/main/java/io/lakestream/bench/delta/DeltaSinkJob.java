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
import io.lakestream.state.checkpoint.CheckpointLocation;
import io.lakestream.state.query.OutputMode;
import io.lakestream.state.query.QueryContext;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.execution.ExecutionState;
import org.apache.flink.runtime.executiongraph.AccessExecutionVertex;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.runtime.scheduler.stopwithsavepoint.StopWithSavepointStoppingException;
import org.apache.flink.streaming.api.CheckpointingMode;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.ExceptionUtils;

/**
 * lakestream's side of delta-sink: a Flink job on a MiniCluster (started before the clock runs) in
 * which lakestream's rate source (unlimited rate, one partition per subtask) generates the narrow
 * rows and the real Delta sink ({@link DeltaSinkBuilder}: parallel writers, one committer, one
 * Delta version per checkpoint) writes them. The run is bounded the way lakestream's availableNow
 * runner bounds a query: long epochs (its 10 s interval for sources without per-epoch limits), and
 * once the source reports that it read everything, a stop with a savepoint whose commit is the last
 * epoch. Timed from job submission to the Delta commit that makes all rows visible. The table must
 * then hold exactly the rows sent, committed under the query's app id; more rows, or none within
 * the timeout, fail the bench.
 */
final class DeltaSinkJob {
  /** lakestream's availableNow epoch length when no source limits its epochs (TriggerSettings). */
  private static final Duration AVAILABLE_NOW_INTERVAL = Duration.ofSeconds(10);

  /** Stop-with-savepoint attempts before the bench fails; the wait grows by this delay each. */
  private static final int MAX_STOP_ATTEMPTS = 8;

  private static final Duration STOP_RETRY_DELAY = Duration.ofMillis(500);

  private DeltaSinkJob() {}

  /**
   * @param objectReuse Flink's {@code pipeline.object-reuse}: on, the source hands each row to the
   *     chained sink writer without a serializer copy (the sink keeps no reference to an element,
   *     so it is safe; lakestream's own pipelines run with it); off is Flink's default
   */
  static Measurement run(BenchOptions options, Path dir, long rows, boolean objectReuse)
      throws Exception {
    Path tablePath = dir.resolve("table");
    String queryId = UUID.randomUUID().toString();
    QueryContext query =
        new QueryContext(
            queryId,
            "delta-sink-bench",
            UUID.randomUUID().toString(),
            QueryContext.appIdFor("delta-sink-bench", queryId),
            dir.resolve("query").toUri().toString(),
            true, // availableNow: the source reports when it has emitted every row
            false,
            OutputMode.APPEND);
    EpochSink<NarrowRow, DeltaWrittenFile> sink =
        DeltaSinkBuilder.forTable(tablePath.toString(), NarrowRows.SCHEMA, DeltaSinkJob::toRow)
            .query(query)
            .sinkName("delta-sink-bench")
            .build(); // creates the table: not part of the timed section

    StreamExecutionEnvironment env = new StreamExecutionEnvironment(new Configuration());
    if (objectReuse) {
      env.getConfig().enableObjectReuse();
    }
    env.setParallelism(options.parallelism());
    env.enableCheckpointing(AVAILABLE_NOW_INTERVAL.toMillis(), CheckpointingMode.EXACTLY_ONCE);
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
      CheckpointLocation location = new CheckpointLocation(URI.create(query.checkpointLocation()));
      CompletableFuture<String> stop = null;
      int failedStops = 0;
      long nextStopNanos = start;
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
        if (stop != null && stop.isCompletedExceptionally()) {
          // e.g. "Not all required tasks are currently running": the savepoint was not even
          // triggered. Retry, as lakestream's availableNow runner does. A failure after the
          // savepoint (its commit may have landed) is not retried: it fails the bench.
          Throwable failure = stop.handle((path, e) -> e).get();
          if (++failedStops >= MAX_STOP_ATTEMPTS
              || ExceptionUtils.findThrowable(failure, StopWithSavepointStoppingException.class)
                  .isPresent()) {
            stop.get(); // throws the failure
          }
          System.err.println("delta-sink: stop with savepoint failed, retrying: " + failure);
          stop = null;
          nextStopNanos = System.nanoTime() + STOP_RETRY_DELAY.toNanos() * failedStops;
        }
        if (stop == null
            && System.nanoTime() - nextStopNanos >= 0
            && !location.epochs().caughtUpSources(query.runId()).isEmpty()
            && allTasksRunning(cluster, id)) {
          stop = stop(cluster, id, dir);
        }
        Thread.sleep(stop == null ? 20 : 100);
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
      if (stop == null) {
        // A tiny run only: Flink delays the first periodic checkpoint by a random part of the
        // interval, so it can commit every row before the bench saw the catch-up. The clock has
        // stopped at that commit; end the job as usual (its savepoint adds nothing).
        while (!allTasksRunning(cluster, id)) {
          Thread.sleep(20);
        }
        stop = stop(cluster, id, dir);
      }
      stop.get(); // the job has ended: no later commit can add rows
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
          objectReuse
              ? "lakestream: Flink + Delta sink, object reuse on"
              : "beside: the same job with Flink's default (object reuse off)",
          rows,
          (lastCommitMillis - startMillis) * 1_000_000L,
          cpuNanos,
          rss,
          heap,
          String.format(
              Locale.ROOT,
              "rate source -> Delta sink on a MiniCluster, p=%d, run bounded like availableNow"
                  + " (checkpoint every %d s, stop with savepoint once the source caught up);"
                  + " submit -> Delta commit holding all rows; %d versions (last epoch %d), %d"
                  + " files, %,d MiB",
              options.parallelism(),
              AVAILABLE_NOW_INTERVAL.toSeconds(),
              version,
              lastEpoch,
              files[0],
              files[1] / (1024 * 1024)));
    }
  }

  /** Stops the job with a savepoint without draining, as lakestream's availableNow runner does. */
  private static CompletableFuture<String> stop(MiniCluster cluster, JobID id, Path dir) {
    return cluster.stopWithSavepoint(
        id, dir.resolve("savepoints").toUri().toString(), false, SavepointFormatType.NATIVE);
  }

  /**
   * Whether every task of the job is running: a savepoint is refused while one is still being
   * deployed or initialized, which a small run can reach before it has caught up.
   */
  private static boolean allTasksRunning(MiniCluster cluster, JobID id) throws Exception {
    for (AccessExecutionVertex vertex :
        cluster.getExecutionGraph(id).get().getAllExecutionVertices()) {
      if (vertex.getExecutionState() != ExecutionState.RUNNING) {
        return false;
      }
    }
    return true;
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
