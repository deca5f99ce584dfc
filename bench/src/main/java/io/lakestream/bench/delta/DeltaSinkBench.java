package io.lakestream.bench.delta;

import io.lakestream.bench.Bench;
import io.lakestream.bench.BenchMain;
import io.lakestream.bench.BenchOptions;
import io.lakestream.bench.BenchResult;
import io.lakestream.bench.BenchServices;
import io.lakestream.bench.Measurement;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.StringJoiner;

/**
 * delta-sink (issue 4): rows/s of the Delta sink in a Flink job against plain Parquet writer loops
 * on the same data, the local physical limit: Kernel's Parquet writer ({@link KernelParquetLoop})
 * and the sink's own write path without Flink ({@link DeltaWriterLoop}). The faster loop is the
 * peer of the ratio, the other is shown beside it. Each checks its output's record count. The
 * sink's job runs with Flink's object reuse on (the sink keeps no reference to an element; without
 * it Flink copies every row between the chained source and sink with its reflective POJO
 * serializer), and once more with Flink's default, shown beside.
 *
 * <p>A trial writes {@link #defaultRows()} rows, sized so that every side's trial lasts at least
 * {@link #MIN_TRIAL} on a 2-core machine (a 10M-row trial lasted 1.3-1.9 s, short enough for the
 * job's fixed start and stop and the machine's drift to move a single trial by tens of percent).
 * The four sides run {@link #DEFAULT_TRIALS} interleaved rounds (every side once per round), and
 * each side reports its median trial; all trials are listed under the table with their seconds, and
 * a note names the trials shorter than {@link #MIN_TRIAL} (then raise {@code --rows}). The build's
 * smoke test runs a few thousand rows with {@code --rows}.
 */
public final class DeltaSinkBench implements Bench {
  /** Interleaved rounds of the four sides; each side reports its median. */
  public static final int DEFAULT_TRIALS = 3;

  /** The shortest trial worth measuring; a shorter one is named in the notes. */
  public static final Duration MIN_TRIAL = Duration.ofSeconds(10);

  private final int trials;

  public DeltaSinkBench() {
    this(DEFAULT_TRIALS);
  }

  /** With {@code trials} rounds (the smoke test uses 2). */
  public DeltaSinkBench(int trials) {
    if (trials < 1) {
      throw new IllegalArgumentException("trials must be >= 1, was " + trials);
    }
    this.trials = trials;
  }

  @Override
  public String id() {
    return "delta-sink";
  }

  @Override
  public String description() {
    return "Delta sink (Flink MiniCluster, p=2) vs the faster of two plain Parquet writer loops"
        + " (Kernel's; lakestream's Delta writer without Flink; 2 threads each); 100M narrow rows"
        + " (>= 10 s per trial), 3 interleaved rounds, medians";
  }

  @Override
  public long defaultRows() {
    return 100_000_000; // 10M rows took 1.3-1.9 s per trial on 2 cores
  }

  @Override
  public void check(BenchServices services) throws Exception {
    services.flink();
    services.load("io.delta.kernel.defaults.engine.DefaultEngine");
  }

  @Override
  public BenchResult run(BenchOptions options) throws Exception {
    long rows = options.rowsOr(defaultRows());
    Path dir = Files.createDirectories(options.workDir());
    List<Measurement> peers = new ArrayList<>();
    List<Measurement> writerLoops = new ArrayList<>();
    List<Measurement> jobs = new ArrayList<>();
    List<Measurement> copyingJobs = new ArrayList<>();
    for (int t = 0; t < trials; t++) {
      // each trial writes afresh; the last trial's data stays for inspection
      peers.add(KernelParquetLoop.run(fresh(dir, "peer"), rows, options.parallelism()));
      writerLoops.add(DeltaWriterLoop.run(fresh(dir, "writer-loop"), rows, options.parallelism()));
      jobs.add(DeltaSinkJob.run(options, fresh(dir, "lakestream"), rows, true));
      copyingJobs.add(DeltaSinkJob.run(options, fresh(dir, "lakestream-copying"), rows, false));
    }
    Measurement peer = median(peers);
    Measurement writerOnly = median(writerLoops);
    Measurement ours = median(jobs);
    Measurement copying = median(copyingJobs);
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
            "both sides write to " + dir + " on the same disk",
            String.format(
                Locale.ROOT,
                "%d interleaved trials per side (order per round: Kernel loop, Delta writer loop,"
                    + " lakestream, object reuse off), median shown; rows/s (seconds) of each"
                    + " trial: lakestream %s; Kernel loop %s; Delta writer loop %s; object reuse"
                    + " off %s",
                trials,
                rates(jobs),
                rates(peers),
                rates(writerLoops),
                rates(copyingJobs)),
            shortTrials(List.of(jobs, peers, writerLoops, copyingJobs))));
  }

  /** Names how many trials were shorter than {@link #MIN_TRIAL}, or says that none was. */
  static String shortTrials(List<List<Measurement>> sides) {
    long shortest = Long.MAX_VALUE;
    int count = 0;
    for (List<Measurement> side : sides) {
      for (Measurement m : side) {
        shortest = Math.min(shortest, m.nanos());
        count += m.nanos() < MIN_TRIAL.toNanos() ? 1 : 0;
      }
    }
    return count == 0
        ? String.format(
            Locale.ROOT,
            "every trial lasted at least %d s (shortest %.1f s)",
            MIN_TRIAL.toSeconds(),
            shortest / 1e9)
        : String.format(
            Locale.ROOT,
            "%d trials lasted less than %d s (shortest %.1f s): too short to compare closely;"
                + " raise --rows",
            count,
            MIN_TRIAL.toSeconds(),
            shortest / 1e9);
  }

  private static Path fresh(Path dir, String side) throws IOException {
    Path path = dir.resolve(side);
    BenchMain.deleteRecursively(path);
    return path;
  }

  /** The trial with the median rows/s (the lower middle one for an even count). */
  static Measurement median(List<Measurement> trials) {
    List<Measurement> sorted = new ArrayList<>(trials);
    sorted.sort(Comparator.comparingDouble(Measurement::rowsPerSecond));
    return sorted.get((sorted.size() - 1) / 2);
  }

  private static String rates(List<Measurement> trials) {
    StringJoiner out = new StringJoiner(", ");
    for (Measurement m : trials) {
      out.add(String.format(Locale.ROOT, "%,.0f (%.1f s)", m.rowsPerSecond(), m.nanos() / 1e9));
    }
    return out.toString();
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
