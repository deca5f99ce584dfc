package io.lakestream.bench.merge;

import io.lakestream.bench.Bench;
import io.lakestream.bench.BenchMain;
import io.lakestream.bench.BenchOptions;
import io.lakestream.bench.BenchResult;
import io.lakestream.bench.BenchServices;
import io.lakestream.bench.Measurement;
import io.lakestream.bench.ResourcePeaks;
import io.lakestream.bench.e2.ChildJvm;
import io.lakestream.bench.e2.E2BronzeBench;
import io.lakestream.connectors.delta.DeltaTable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Issue 8: a streaming upsert (foreachBatch MERGE) into a silver table with change data feed,
 * lakestream's {@code DeltaMergeCommit} against Spark 4.2 + delta-spark 4.4's {@code
 * DeltaTable.merge} in a foreachBatch query, on the same data and machine; then the same batches
 * into a table four times as large (same clustering and file size), to show that lakestream's MERGE
 * cost follows the files it touches, not the table's size.
 *
 * <p>This JVM writes the initial tables and the source table of batches once ({@link MergeTables},
 * not timed), copies the initial table for each side, and runs each side alone in its own child JVM
 * ({@link LakestreamMergeMain}, {@code io.lakestream.bench.spark.SparkMergeMain} from {@code
 * bench-spark}, built with {@code -Pspark-bench}). Each side times every epoch's MERGE and checks
 * its change data feed; afterwards this JVM checks every merged table against the reference model
 * ({@link MergeTableCheck}) and that each side's reported updates and inserts are the model's. Any
 * difference fails the bench.
 *
 * <p>{@code merge-dv} ({@link MergeMode#DELETION_VECTORS}) is the same bench on tables with {@code
 * delta.enableDeletionVectors=true}: both sides MERGE with deletion vectors (merge-on-read), and at
 * each size lakestream also merges copy-on-write into a copy of the same table, so the report
 * compares the two. Every epoch must have been written in its mode ({@link MergeMode#check}: rows
 * copied 0 with deletion vectors), else the bench fails.
 *
 * <p>{@code --rows} is the initial table's size (default 5M; the large table is 4x). Environment:
 * {@code BENCH_CHILD_JAVA_OPTS} (default {@code -Xmx2g}), {@code BENCH_MERGE_EPOCHS} (default 15:
 * the median epoch is past both sides' JIT warm-up, which takes the first 3-5 epochs), {@code
 * BENCH_MERGE_BATCH} (default 50000), {@code BENCH_MERGE_FILE_ROWS} (default 65536), {@code
 * BENCH_MERGE_LARGE} ({@code none}, {@code lakestream} or {@code both}; default {@code both}).
 */
public final class MergeBench implements Bench {
  static final String SPARK_MAIN = "io.lakestream.bench.spark.SparkMergeMain";

  private final MergeMode mode;

  /** The {@code merge} bench (copy-on-write). */
  public MergeBench() {
    this(MergeMode.COPY_ON_WRITE);
  }

  /** The bench of {@code mode}: {@code merge} or {@code merge-dv}. */
  public MergeBench(MergeMode mode) {
    this.mode = mode;
  }

  @Override
  public String id() {
    return mode.benchId();
  }

  @Override
  public String description() {
    return switch (mode) {
      case COPY_ON_WRITE ->
          "15 epochs, each a MERGE of 50k upserts (20% new) into a 5M-row CDF table clustered by"
              + " key,"
              + " lakestream vs Spark 4.2 + delta-spark 4.4 foreachBatch (own JVMs); then 20M rows";
      case DELETION_VECTORS ->
          "the merge bench on a table with deletion vectors (merge-on-read), lakestream vs Spark"
              + " 4.2 + delta-spark 4.4 both writing deletion vectors, 5M and 20M rows; beside it"
              + " lakestream copy-on-write on the same table";
    };
  }

  @Override
  public long defaultRows() {
    return 5_000_000;
  }

  @Override
  public boolean warmsUp() {
    return false; // every side is a fresh JVM
  }

  @Override
  public void check(BenchServices services) throws Exception {
    services.load(LakestreamMergeMain.class.getName());
    services.load("io.delta.kernel.defaults.engine.DefaultEngine");
    services.sparkClasspath();
  }

  @Override
  public BenchResult run(BenchOptions options) throws Exception {
    Path root = Path.of(System.getProperty("bench.root", ".")).toAbsolutePath();
    String sparkClasspath = E2BronzeBench.sparkClasspath(root);
    List<String> javaOptions = ChildJvm.defaultJavaOptions();
    MergeWorkload small =
        new MergeWorkload(
            options.rows(),
            env("BENCH_MERGE_BATCH", 50_000),
            env("BENCH_MERGE_EPOCHS", 15),
            env("BENCH_MERGE_FILE_ROWS", 65_536));
    String large = System.getenv().getOrDefault("BENCH_MERGE_LARGE", "both").trim();
    if (!List.of("none", "lakestream", "both").contains(large)) {
      throw new IllegalArgumentException(
          "BENCH_MERGE_LARGE must be none, lakestream or both, was " + large);
    }
    Path dir = options.workDir();
    Files.createDirectories(dir);
    Path source = dir.resolve("source");
    log("writing %,d batches of %,d rows to %s", small.epochs(), small.batchRows(), source);
    MergeTables.writeBatches(small, source);
    Sides sides = new Sides(dir, source, javaOptions, sparkClasspath, options);

    SizeRuns five = sides.runSize(small, "small", true);
    // Printed now too: the large table's runs take a while.
    System.err.println(MergeReport.sideBySide(mode, small, five.lake.epochs, five.spark.epochs));
    MergeWorkload big = small.withBaseRows(options.rows() * 4);
    SizeRuns twenty =
        large.equals("none") ? null : sides.runSize(big, "large", large.equals("both"));

    StringBuilder appendix = new StringBuilder();
    appendix.append(MergeReport.sideBySide(mode, small, five.lake.epochs, five.spark.epochs));
    if (twenty != null) {
      appendix
          .append('\n')
          .append(
              MergeReport.scaling(
                  mode,
                  small,
                  big,
                  five.lake.epochs,
                  twenty.lake.epochs,
                  five.spark.epochs,
                  twenty.spark == null ? null : twenty.spark.epochs));
    }
    if (five.copyOnWrite != null) {
      appendix
          .append('\n')
          .append(
              MergeReport.versusCopyOnWrite(
                  small,
                  five.lake.epochs,
                  five.copyOnWrite.epochs,
                  big,
                  twenty == null ? null : twenty.lake.epochs,
                  twenty == null ? null : twenty.copyOnWrite.epochs));
    }
    List<String> notes = new ArrayList<>();
    notes.add(
        String.format(
            Locale.ROOT,
            "workload: initial table %,d rows (keys 0..%,d) in %,d files of %,d consecutive keys,"
                + " CDF on%s; %d epochs of %,d upserts (%,d existing keys from a window of %,d"
                + " keys, %,d new keys); written once, copied for each side, not timed",
            small.baseRows(),
            small.baseRows() - 1,
            (small.baseRows() + small.fileRows() - 1) / small.fileRows(),
            small.fileRows(),
            mode.deletionVectors() ? ", delta.enableDeletionVectors=true" : "",
            small.epochs(),
            small.batchRows(),
            small.updatesPerBatch(),
            (long) small.updatesPerBatch() * MergeWorkload.WINDOW_DENSITY,
            small.insertsPerBatch()));
    notes.add(
        "wall s and CPU s = sum over the epochs of each epoch's MERGE (reading the batch's file"
            + " included); peak RSS/heap = the whole child JVM ("
            + String.join(" ", javaOptions)
            + "); every merged table equals the reference model, every version's change data"
            + " feed holds the batch's inserts and update pre/post-images, and every epoch copied "
            + (mode.deletionVectors() ? "no unchanged row (deletion vectors)" : "unchanged rows"));
    return new BenchResult(
        id(), five.lake.measurement, five.spark.measurement, List.of(), notes, appendix.toString());
  }

  /** The runs at one table size; spark and copyOnWrite may be null. */
  private record SizeRuns(Side lake, Side spark, Side copyOnWrite) {}

  /** Runs the sides of one table size, each on its own copy of one initial table. */
  private final class Sides {
    private final Path dir;
    private final Path source;
    private final List<String> javaOptions;
    private final String sparkClasspath;
    private final BenchOptions options;

    Sides(
        Path dir,
        Path source,
        List<String> javaOptions,
        String sparkClasspath,
        BenchOptions options) {
      this.dir = dir;
      this.source = source;
      this.javaOptions = javaOptions;
      this.sparkClasspath = sparkClasspath;
      this.options = options;
    }

    /**
     * lakestream in this bench's mode, with deletion vectors also lakestream copy-on-write on the
     * same table, then Spark if {@code withSpark}.
     */
    SizeRuns runSize(MergeWorkload w, String name, boolean withSpark) throws Exception {
      Path base = dir.resolve("base");
      writeBase(w, base);
      Side lake = runLakestream(w, base, dir.resolve("lakestream-" + name), mode);
      Side cow =
          mode.deletionVectors()
              ? runLakestream(
                  w, base, dir.resolve("lakestream-cow-" + name), MergeMode.COPY_ON_WRITE)
              : null;
      Side spark = withSpark ? runSpark(w, base, dir.resolve("spark-" + name)) : null;
      BenchMain.deleteRecursively(base);
      return new SizeRuns(lake, spark, cow);
    }

    private void writeBase(MergeWorkload w, Path base) throws IOException {
      long t0 = System.nanoTime();
      log("writing the initial table of %,d rows (%s) to %s", w.baseRows(), mode.label(), base);
      MergeTables.writeBase(w, base, mode);
      log("initial table written in %.1f s", (System.nanoTime() - t0) / 1e9);
    }

    private Side runLakestream(MergeWorkload w, Path base, Path table, MergeMode as)
        throws Exception {
      MergeTables.copy(base, table);
      log("lakestream (%s): merging into %,d rows...", as.label(), w.baseRows());
      Path report = table.resolveSibling(table.getFileName() + ".epochs");
      double load = ResourcePeaks.loadAverage();
      Measurement m =
          new ChildJvm(
                  "lakestream: DeltaMergeCommit" + suffix(as),
                  javaOptions,
                  System.getProperty("java.class.path"),
                  LakestreamMergeMain.class.getName(),
                  table.resolveSibling(table.getFileName() + ".log"))
              .run(
                  List.of(
                      "table=" + table,
                      "source=" + source,
                      "baseRows=" + w.baseRows(),
                      "updateSpan=" + w.updateSpan(),
                      "batchRows=" + w.batchRows(),
                      "epochs=" + w.epochs(),
                      "fileRows=" + w.fileRows(),
                      "mode=" + as.name(),
                      "parallelism=" + options.parallelism(),
                      "report=" + report));
      return checked(w, as, table, m, EpochTiming.read(report), load);
    }

    private Side runSpark(MergeWorkload w, Path base, Path table) throws Exception {
      MergeTables.copy(base, table);
      log("Spark (%s): merging into %,d rows...", mode.label(), w.baseRows());
      Path report = table.resolveSibling(table.getFileName() + ".epochs");
      List<String> expected = new ArrayList<>();
      for (int e = 0; e < w.epochs(); e++) {
        long[] ui = w.updatesAndInserts(e);
        expected.add(ui[0] + ":" + ui[1]);
      }
      double load = ResourcePeaks.loadAverage();
      Measurement m =
          new ChildJvm(
                  "peer: Spark foreachBatch + delta-spark MERGE" + suffix(mode),
                  javaOptions,
                  sparkClasspath,
                  SPARK_MAIN,
                  table.resolveSibling(table.getFileName() + ".log"))
              .run(
                  List.of(
                      "table=" + table,
                      "source=" + source,
                      "checkpoint=" + table.resolveSibling(table.getFileName() + "-checkpoint"),
                      "parallelism=" + options.parallelism(),
                      "epochs=" + w.epochs(),
                      "batchRows=" + w.batchRows(),
                      "expected=" + String.join(",", expected),
                      "report=" + report));
      return checked(w, mode, table, m, EpochTiming.read(report), load);
    }
  }

  /** The side name's suffix: none for the copy-on-write bench, else the mode. */
  private String suffix(MergeMode as) {
    return mode == MergeMode.COPY_ON_WRITE ? "" : ", " + as.label();
  }

  /** One side's run: its measurement (epoch sums) and per-epoch timings. */
  private record Side(Measurement measurement, List<EpochTiming> epochs) {}

  /** Checks the table and the reported counts; the measurement becomes the epochs' sums. */
  private static Side checked(
      MergeWorkload w,
      MergeMode as,
      Path table,
      Measurement child,
      List<EpochTiming> epochs,
      double loadBefore)
      throws IOException {
    double loadAfter = ResourcePeaks.loadAverage();
    if (epochs.size() != w.epochs()) {
      throw new IllegalStateException(
          child.side() + " reported " + epochs.size() + " epochs, expected " + w.epochs());
    }
    long nanos = 0;
    long cpu = 0;
    for (EpochTiming e : epochs) {
      long[] ui = w.updatesAndInserts(e.epoch());
      if (e.updated() != ui[0] || e.inserted() != ui[1]) {
        throw new IllegalStateException(
            String.format(
                Locale.ROOT,
                "%s: epoch %d updated %d and inserted %d rows, the model %d and %d",
                child.side(),
                e.epoch(),
                e.updated(),
                e.inserted(),
                ui[0],
                ui[1]));
      }
      as.check(child.side(), e);
      nanos += e.nanos();
      cpu += e.cpuNanos();
    }
    log("%s: checking %s against the model...", child.side(), table);
    int files = MergeTableCheck.verify(w, DeltaTable.forPath(table.toString()));
    String detail =
        String.format(
            Locale.ROOT,
            "%s; %,d-row table; table = model (%,d rows, %,d files); load %.1f -> %.1f",
            child.detail(),
            w.baseRows(),
            w.finalRows(),
            files,
            loadBefore,
            loadAfter);
    log("%s: ok (%s)", child.side(), detail);
    return new Side(
        new Measurement(
            child.side(),
            (long) w.batchRows() * w.epochs(),
            nanos,
            cpu,
            child.peakRssBytes(),
            child.peakHeapBytes(),
            detail),
        epochs);
  }

  private static int env(String name, int defaultValue) {
    String v = System.getenv(name);
    if (v == null || v.isBlank()) {
      return defaultValue;
    }
    try {
      return Integer.parseInt(v.trim().replace("_", ""));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + " must be a whole number, was '" + v + "'");
    }
  }

  private static void log(String format, Object... args) {
    System.err.printf(Locale.ROOT, "merge: " + format + "%n", args);
  }
}
