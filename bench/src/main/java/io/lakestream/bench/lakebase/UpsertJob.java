package io.lakestream.bench.lakebase;

import io.lakestream.bench.BenchOptions;
import io.lakestream.bench.Measurement;
import io.lakestream.bench.ResourcePeaks;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.streaming.api.CheckpointingMode;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * One side of lakebase-upsert: a bounded Flink job on the bench's MiniCluster that generates the
 * {@link UpsertWorkload} in one source subtask (so each key's updates are in order), partitions it
 * by key to {@code parallelism} sink subtasks and writes it through the given sink. Timed from
 * submission to the job's end (after the sinks' final flush); the same topology, checkpoint
 * interval and slots for both sides, so the difference is the sink.
 */
final class UpsertJob {
  private UpsertJob() {}

  static Measurement run(
      MiniCluster cluster,
      BenchOptions options,
      Path dir,
      UpsertWorkload workload,
      Sink<Tuple2<Long, Long>> sink,
      String side,
      String detail,
      Optional<PostgresCpu> server)
      throws Exception {
    StreamExecutionEnvironment env = new StreamExecutionEnvironment(new Configuration());
    env.setParallelism(options.parallelism());
    env.enableCheckpointing(
        options.checkpointInterval().toMillis(), CheckpointingMode.EXACTLY_ONCE);
    env.getCheckpointConfig().setCheckpointStorage(dir.resolve("flink-checkpoints").toUri());
    env.fromSource(
            new DataGeneratorSource<>(
                workload::row, workload.rows(), Types.TUPLE(Types.LONG, Types.LONG)),
            WatermarkStrategy.noWatermarks(),
            "upserts")
        .setParallelism(1)
        .uid("upserts")
        .keyBy(row -> row.f0)
        .sinkTo(sink)
        .uid("sink")
        .name(side);
    JobGraph job = env.getStreamGraph().getJobGraph();
    ResourcePeaks peaks = ResourcePeaks.start();
    long serverCpu0 = server.map(PostgresCpu::nanos).orElse(0L);
    long start = System.nanoTime();
    JobID id = cluster.submitJob(job).get().getJobID();
    cluster
        .requestJobResult(id)
        .get(timeout(workload.rows()).toMillis(), TimeUnit.MILLISECONDS)
        .toJobExecutionResult(UpsertJob.class.getClassLoader());
    long nanos = System.nanoTime() - start;
    long jvmCpu = peaks.cpuNanos();
    long serverCpu = server.map(PostgresCpu::nanos).orElse(0L) - serverCpu0;
    return new Measurement(
        side,
        workload.rows(),
        nanos,
        server.isPresent() ? jvmCpu + serverCpu : jvmCpu,
        peaks.peakRssBytes(),
        peaks.peakHeapBytes(),
        server.isPresent()
            ? String.format(
                Locale.ROOT,
                "%s; CPU s = JVM %.2f + PostgreSQL %.2f",
                detail,
                jvmCpu / 1e9,
                serverCpu / 1e9)
            : detail + "; CPU s = JVM only (external PostgreSQL)");
  }

  /** Generous: 10 minutes plus a millisecond per row. */
  private static Duration timeout(long rows) {
    return Duration.ofMinutes(10).plusMillis(rows);
  }
}
