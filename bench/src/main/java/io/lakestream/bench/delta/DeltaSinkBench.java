package io.lakestream.bench.delta;

import io.lakestream.bench.Bench;
import io.lakestream.bench.BenchOptions;
import io.lakestream.bench.BenchResult;
import io.lakestream.bench.Measurement;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * delta-sink (issue 4): rows/s of the Delta sink in a Flink job against plain Parquet writer loops
 * on the same data, the local physical limit: Kernel's Parquet writer ({@link KernelParquetLoop})
 * and the sink's own write path without Flink ({@link DeltaWriterLoop}). The faster loop is the
 * peer of the ratio, the other is shown beside it. Each checks its output's record count. The
 * sink's job runs with Flink's object reuse on (the sink keeps no reference to an element; without
 * it Flink copies every row between the chained source and sink with its reflective POJO
 * serializer), and once more with Flink's default, shown beside.
 */
public final class DeltaSinkBench implements Bench {
  @Override
  public String id() {
    return "delta-sink";
  }

  @Override
  public String description() {
    return "Delta sink (Flink MiniCluster, p=2) vs the faster of two plain Parquet writer loops"
        + " (Kernel's; lakestream's Delta writer without Flink; 2 threads each); 10M narrow rows";
  }

  @Override
  public long defaultRows() {
    return 10_000_000;
  }

  @Override
  public BenchResult run(BenchOptions options) throws Exception {
    long rows = options.rowsOr(defaultRows());
    Path dir = Files.createDirectories(options.workDir());
    Measurement peer = KernelParquetLoop.run(dir.resolve("peer"), rows, options.parallelism());
    Measurement writerOnly =
        DeltaWriterLoop.run(dir.resolve("writer-loop"), rows, options.parallelism());
    Measurement ours = DeltaSinkJob.run(options, dir.resolve("lakestream"), rows, true);
    Measurement copying = DeltaSinkJob.run(options, dir.resolve("lakestream-copying"), rows, false);
    // The local physical limit is the faster writer loop: lakestream's own Parquet writer (without
    // Flink) outruns Kernel's, and the ratio must not flatter the sink by comparing with the
    // slower.
    boolean kernelFaster = peer.rowsPerSecond() >= writerOnly.rowsPerSecond();
    Measurement kernel =
        named(peer, kernelFaster ? "peer" : "beside", "Kernel Parquet writer loop");
    Measurement own =
        named(writerOnly, kernelFaster ? "beside" : "peer", "Delta writer loop without Flink");
    return new BenchResult(
        id(),
        ours,
        kernelFaster ? kernel : own,
        List.of(kernelFaster ? own : kernel, copying),
        List.of(
            "data: id long, ts timestamp, category string (8 values), amount double; all NOT NULL,"
                + " unpartitioned",
            "both sides write to " + dir + " on the same disk"));
  }

  private static Measurement named(Measurement m, String role, String what) {
    return new Measurement(
        role + ": " + what,
        m.rows(),
        m.nanos(),
        m.cpuNanos(),
        m.peakRssBytes(),
        m.peakHeapBytes(),
        m.detail());
  }
}
