package io.lakestream.bench.delta;

import io.lakestream.bench.Bench;
import io.lakestream.bench.BenchOptions;
import io.lakestream.bench.BenchResult;
import io.lakestream.bench.Measurement;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * delta-sink (issue 4): rows/s of the Delta sink in a Flink job against a plain Parquet writer loop
 * on the same data with the same Parquet writer ({@link KernelParquetLoop}). The peer runs first,
 * then the diagnostic {@link DeltaWriterLoop} (the sink's write path without Flink), then
 * lakestream; each checks its output's record count.
 */
public final class DeltaSinkBench implements Bench {
  @Override
  public String id() {
    return "delta-sink";
  }

  @Override
  public String description() {
    return "Delta sink (Flink MiniCluster, p=2) vs a plain Kernel Parquet writer loop (2 threads);"
        + " 10M narrow rows";
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
    Measurement ours = DeltaSinkJob.run(options, dir.resolve("lakestream"), rows);
    return new BenchResult(
        id(),
        ours,
        peer,
        List.of(writerOnly),
        List.of(
            "data: id long, ts timestamp, category string (8 values), amount double; all NOT NULL,"
                + " unpartitioned",
            "both sides write to " + dir + " on the same disk"));
  }
}
