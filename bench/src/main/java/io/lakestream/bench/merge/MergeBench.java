package io.lakestream.bench.merge;

import io.lakestream.bench.Bench;
import io.lakestream.bench.BenchMain;
import io.lakestream.bench.BenchOptions;
import io.lakestream.bench.BenchResult;
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
 * <p>{@code --rows} is the initial table's size (default 5M; the large table is 4x). Environment:
 * {@code BENCH_CHILD_JAVA_OPTS} (default {@code -Xmx2g}), {@code BENCH_MERGE_EPOCHS} (default 5),
 * {@code BENCH_MERGE_BATCH} (default 50000), {@code BENCH_MERGE_FILE_ROWS} (default 65536), {@code
 * BENCH_MERGE_LARGE} ({@code none}, {@code lakestream} or {@code both}; default {@code both}).
 */
public final class MergeBench implements Bench {
  static final String SPARK_MAIN = "io.lakestream.bench.spark.SparkMergeMain";

  @Override
  public String id() {
    return "merge";
  }

  @Override
  public String description() {
    return "per-epoch MERGE of 50k upserts (20% new) into a 5M-row CDF table clustered by key,"
        + " lakestream vs Spark 4.2 + delta-spark 4.4 foreachBatch (own JVMs); then 20M rows";
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
  public BenchResult run(BenchOptions options) throws Exception {
    Path root = Path.of(System.getProperty("bench.root", ".")).toAbsolutePath();
    String sparkClasspath = E2BronzeBench.sparkClasspath(root);
    List<String> javaOptions = ChildJvm.defaultJavaOptions();
    MergeWorkload small =
        new MergeWorkload(
            options.rows(),
            env("BENCH_MERGE_BATCH", 50_000),
            env("BENCH_MERGE_EPOCHS", 5),
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

    List<String> notes = new ArrayList<>();
    Side lakeLarge = null;
    Side sparkLarge = null;
    Path base = dir.resolve("base");
    writeBase(small, base);
    Side lake5 = runLakestream(small, base, source, dir.resolve("lakestream-small"), javaOptions);
    Side spark5 =
        runSpark(
            small, base, source, dir.resolve("spark-small"), javaOptions, sparkClasspath, options);
    BenchMain.deleteRecursively(base);
    // Printed now too: the large table's runs take a while.
    System.err.println(MergeReport.sideBySide(small, lake5.epochs, spark5.epochs));
    MergeWorkload big = small.withBaseRows(options.rows() * 4);
    if (!large.equals("none")) {
      writeBase(big, base);
      lakeLarge = runLakestream(big, base, source, dir.resolve("lakestream-large"), javaOptions);
      if (large.equals("both")) {
        sparkLarge =
            runSpark(
                big,
                base,
                source,
                dir.resolve("spark-large"),
                javaOptions,
                sparkClasspath,
                options);
      }
      BenchMain.deleteRecursively(base);
    }

    StringBuilder appendix = new StringBuilder();
    appendix.append(MergeReport.sideBySide(small, lake5.epochs, spark5.epochs));
    if (lakeLarge != null) {
      appendix
          .append('\n')
          .append(
              MergeReport.scaling(
                  small,
                  big,
                  lake5.epochs,
                  lakeLarge.epochs,
                  spark5.epochs,
                  sparkLarge == null ? null : sparkLarge.epochs));
    }
    notes.add(
        String.format(
            Locale.ROOT,
            "workload: initial table %,d rows (keys 0..%,d) in %,d files of %,d consecutive keys,"
                + " CDF on; %d epochs of %,d upserts (%,d existing keys from a window of %,d keys,"
                + " %,d new keys); written once, copied for each side, not timed",
            small.baseRows(),
            small.baseRows() - 1,
            (small.baseRows() + small.fileRows() - 1) / small.fileRows(),
            small.fileRows(),
            small.epochs(),
            small.batchRows(),
            small.updatesPerBatch(),
            (long) small.updatesPerBatch() * MergeWorkload.WINDOW_DENSITY,
            small.insertsPerBatch()));
    notes.add(
        "wall s and CPU s = sum over the epochs of each epoch's MERGE (reading the batch's file"
            + " included); peak RSS/heap = the whole child JVM ("
            + String.join(" ", javaOptions)
            + "); every merged table equals the reference model and every version's change data"
            + " feed holds the batch's inserts and update pre/post-images");
    return new BenchResult(
        id(), lake5.measurement, spark5.measurement, List.of(), notes, appendix.toString());
  }

  /** One side's run: its measurement (epoch sums) and per-epoch timings. */
  private record Side(Measurement measurement, List<EpochTiming> epochs) {}

  private static void writeBase(MergeWorkload w, Path base) throws IOException {
    long t0 = System.nanoTime();
    log("writing the initial table of %,d rows to %s", w.baseRows(), base);
    MergeTables.writeBase(w, base);
    log("initial table written in %.1f s", (System.nanoTime() - t0) / 1e9);
  }

  private Side runLakestream(
      MergeWorkload w, Path base, Path source, Path table, List<String> javaOptions)
      throws Exception {
    MergeTables.copy(base, table);
    log("lakestream: merging into %,d rows...", w.baseRows());
    Path report = table.resolveSibling(table.getFileName() + ".epochs");
    double load = ResourcePeaks.loadAverage();
    Measurement m =
        new ChildJvm(
                "lakestream: DeltaMergeCommit",
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
                    "report=" + report));
    return checked(w, table, m, EpochTiming.read(report), load);
  }

  private Side runSpark(
      MergeWorkload w,
      Path base,
      Path source,
      Path table,
      List<String> javaOptions,
      String classpath,
      BenchOptions options)
      throws Exception {
    MergeTables.copy(base, table);
    log("Spark: merging into %,d rows...", w.baseRows());
    Path report = table.resolveSibling(table.getFileName() + ".epochs");
    List<String> expected = new ArrayList<>();
    for (int e = 0; e < w.epochs(); e++) {
      long[] ui = w.updatesAndInserts(e);
      expected.add(ui[0] + ":" + ui[1]);
    }
    double load = ResourcePeaks.loadAverage();
    Measurement m =
        new ChildJvm(
                "peer: Spark foreachBatch + delta-spark MERGE",
                javaOptions,
                classpath,
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
    return checked(w, table, m, EpochTiming.read(report), load);
  }

  /** Checks the table and the reported counts; the measurement becomes the epochs' sums. */
  private static Side checked(
      MergeWorkload w, Path table, Measurement child, List<EpochTiming> epochs, double loadBefore)
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
