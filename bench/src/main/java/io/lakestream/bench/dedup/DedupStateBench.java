package io.lakestream.bench.dedup;

import io.lakestream.bench.Bench;
import io.lakestream.bench.BenchOptions;
import io.lakestream.bench.BenchResult;
import io.lakestream.bench.BenchServices;
import io.lakestream.bench.Measurement;
import io.lakestream.bench.ResourcePeaks;
import io.lakestream.bench.dedup.DedupStateJob.Run;
import io.lakestream.bench.dedup.DedupStateJob.Variant;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * dedup-state (issue 6): does {@code dropDuplicatesWithinWatermark} keep its state bounded? Three
 * jobs over the same {@link DedupWorkload} stream (default 20M events over 1M ids, 1 h of event
 * time per 10 minutes of watermark delay), each on its own MiniCluster with RocksDB and
 * checkpointing: (1) withWatermark + dropDuplicatesWithinWatermark(id), (2) the E5 aggregation
 * (5-minute tumbling count by adId, append), (3) plain dropDuplicates(id) for contrast. Reports
 * events/s and the operator's numRowsTotal, RocksDB's size estimate and the heap over the run, next
 * to "ids per delay" and the {@link ReferenceModel}'s state size; every job's output is checked
 * against the model.
 *
 * <p>In {@link BenchResult} terms lakestream = (1), the peer = (3) and (2) is a diagnostic; the
 * printed rows/s ratio is a by-product, the bench's ratio (in BENCHMARKS.md) is the plateau of (1)
 * over ids per delay.
 */
public final class DedupStateBench implements Bench {
  public static final long DEFAULT_IDS = 1_000_000;

  @Override
  public String id() {
    return "dedup-state";
  }

  @Override
  public String description() {
    return "dropDuplicatesWithinWatermark state plateau vs plain dropDuplicates, plus E5 windows"
        + " (MiniCluster p=2, RocksDB); 20M events over 1M ids (--events, --ids)";
  }

  @Override
  public long defaultRows() {
    return 20_000_000;
  }

  /** Each job runs minutes on its own cluster: a warm-up round would only add minutes. */
  @Override
  public boolean warmsUp() {
    return false;
  }

  @Override
  public void check(BenchServices services) throws Exception {
    services.flink();
    services.load("org.apache.flink.contrib.streaming.state.EmbeddedRocksDBStateBackend");
  }

  @Override
  public BenchResult run(BenchOptions options) throws Exception {
    Outcome o = measure(options, true);
    return result(o, options);
  }

  /** The three runs of one bench run and what they were checked against. */
  record Outcome(
      DedupWorkload workload,
      ReferenceModel model,
      Run dedup,
      Run e5,
      Run unbounded,
      double loadStart,
      double loadEnd) {}

  /**
   * Computes the model, then runs the three jobs (after an untimed warm-up job if asked), each
   * checked against the model.
   */
  Outcome measure(BenchOptions options, boolean warmUp) throws Exception {
    DedupWorkload workload =
        new DedupWorkload(options.rowsOr(defaultRows()), options.keysOr(DEFAULT_IDS));
    Path dir = Files.createDirectories(options.workDir());
    double loadStart = ResourcePeaks.loadAverage();
    long modelStart = System.nanoTime();
    ReferenceModel model = ReferenceModel.of(workload, options.parallelism());
    double modelSeconds = (System.nanoTime() - modelStart) / 1e9;
    System.err.printf(
        Locale.ROOT,
        "dedup-state: reference model in %.1f s: %,d rows pass the dedup, %,d distinct ids, %,d"
            + " ids per delay, plateau %,d keys%n",
        modelSeconds,
        model.passesWithinWatermark(),
        model.distinctIds(),
        model.idsPerDelay(),
        model.plateau());
    if (model.lateWithinWatermark() != 0) {
      throw new IllegalStateException(
          "The workload has " + model.lateWithinWatermark() + " late rows; it should have none");
    }
    if (warmUp) {
      warmUp(workload, options, dir.resolve("warm-up"));
    }
    Run dedup = runOne(Variant.WITHIN_WATERMARK, workload, model, options, dir);
    Run e5 = runOne(Variant.E5_WINDOW, workload, model, options, dir);
    Run unbounded = runOne(Variant.UNBOUNDED, workload, model, options, dir);
    double loadEnd = ResourcePeaks.loadAverage();
    return new Outcome(workload, model, dedup, e5, unbounded, loadStart, loadEnd);
  }

  private BenchResult result(Outcome o, BenchOptions options) {
    DedupStateReport report =
        new DedupStateReport(o.workload(), o.model(), List.of(o.dedup(), o.e5(), o.unbounded()));
    return new BenchResult(
        id(),
        measurement(o.dedup()),
        measurement(o.unbounded()),
        List.of(measurement(o.e5())),
        List.of(
            o.workload().describe(),
            String.format(
                Locale.ROOT,
                "MiniCluster per job, parallelism %d, RocksDB (incremental checkpoints), checkpoint"
                    + " every %d ms; events/s = all events taken in by the stateful operator /"
                    + " seconds from job submission",
                options.parallelism(),
                options.checkpointInterval().toMillis()),
            String.format(
                Locale.ROOT,
                "1-min load average %.2f at the start, %.2f at the end: the 2 cores are shared"
                    + " with other engineers' builds, so events/s vary with their load",
                o.loadStart(),
                o.loadEnd())),
        report.markdown());
  }

  /**
   * A short untimed job first (100K events), so the first measured job does not pay alone for class
   * loading, RocksDB's native library and the JIT.
   */
  private static void warmUp(DedupWorkload workload, BenchOptions options, Path dir)
      throws Exception {
    DedupWorkload small =
        new DedupWorkload(Math.min(100_000, workload.events()), Math.min(10_000, workload.ids()));
    ReferenceModel model = ReferenceModel.of(small, options.parallelism());
    System.err.printf(
        Locale.ROOT, "dedup-state: untimed warm-up job (%,d events)%n", small.events());
    DedupStateJob.run(Variant.WITHIN_WATERMARK, small, model, options, dir, false);
  }

  private static Run runOne(
      Variant variant, DedupWorkload workload, ReferenceModel model, BenchOptions options, Path dir)
      throws Exception {
    System.err.printf(
        Locale.ROOT,
        "dedup-state: %s (1-min load average %.2f)%n",
        variant.label,
        ResourcePeaks.loadAverage());
    Run run =
        DedupStateJob.run(
            variant,
            workload,
            model,
            options,
            dir.resolve(variant.name().toLowerCase(Locale.ROOT)),
            true);
    System.err.printf(
        Locale.ROOT,
        "dedup-state: %s: %,.0f events/s, output %,d rows (as the model)%n",
        variant.label,
        run.eventsPerSecond(),
        run.outputRows());
    return run;
  }

  private static Measurement measurement(Run run) {
    StateSample last = run.samples().get(run.samples().size() - 1);
    return new Measurement(
        run.variant().label,
        run.events(),
        run.nanos(),
        run.cpuNanos(),
        run.peakRssBytes(),
        -1,
        String.format(
            Locale.ROOT,
            "output %,d rows = reference model; numRowsTotal at the end %,d",
            run.outputRows(),
            last.numRowsTotal()));
  }
}
