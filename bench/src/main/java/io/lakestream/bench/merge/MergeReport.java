package io.lakestream.bench.merge;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.ToLongFunction;

/**
 * The markdown tables of {@code bin/bench merge} and {@code merge-dv}: per epoch side by side, 5M
 * vs 20M, and (merge-dv) deletion vectors vs copy-on-write.
 */
final class MergeReport {
  private MergeReport() {}

  /** Per-epoch MERGE times and files of both sides, with medians and totals. */
  static String sideBySide(
      MergeMode mode, MergeWorkload w, List<EpochTiming> ours, List<EpochTiming> spark) {
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            Locale.ROOT,
            "Per epoch, %,d-row table, %s (ratio = Spark time / lakestream time):%n%n",
            w.baseRows(),
            mode.label()));
    out.append(
        "| epoch | lakestream ms | Spark ms | ratio | lakestream CPU s | Spark CPU s | CPU ratio"
            + " | files read (ours, of table) | "
            + mode.removedFiles()
            + " ours / Spark | files added ours / Spark | change files ours / Spark | rows copied"
            + " ours / Spark | updated | inserted |\n");
    out.append("|---:|---:|---:|---:|---:|---:|---:|---|---|---|---|---|---:|---:|\n");
    for (int i = 0; i < ours.size(); i++) {
      EpochTiming o = ours.get(i);
      EpochTiming s = spark.get(i);
      out.append(
          String.format(
              Locale.ROOT,
              "| %d | %,.0f | %,.0f | %.2f | %.2f | %.2f | %.2f | %d of %d | %d / %d | %d / %d |"
                  + " %d / %d | %,d / %,d | %,d | %,d |%n",
              o.epoch(),
              o.nanos() / 1e6,
              s.nanos() / 1e6,
              (double) s.nanos() / o.nanos(),
              o.cpuNanos() / 1e9,
              s.cpuNanos() / 1e9,
              (double) s.cpuNanos() / o.cpuNanos(),
              o.filesRead(),
              o.filesInTable(),
              o.filesRemoved(),
              s.filesRemoved(),
              o.filesAdded(),
              s.filesAdded(),
              o.changeFiles(),
              s.changeFiles(),
              o.copied(),
              s.copied(),
              o.updated(),
              o.inserted()));
    }
    double oMed = median(ours, EpochTiming::nanos);
    double sMed = median(spark, EpochTiming::nanos);
    double oCpuMed = median(ours, EpochTiming::cpuNanos);
    double sCpuMed = median(spark, EpochTiming::cpuNanos);
    out.append(
        String.format(
            Locale.ROOT,
            "| median | %,.0f | %,.0f | **%.2f** | %.2f | %.2f | %.2f | | | | | | | |%n",
            oMed / 1e6,
            sMed / 1e6,
            sMed / oMed,
            oCpuMed / 1e9,
            sCpuMed / 1e9,
            sCpuMed / oCpuMed));
    double oSum = sum(ours, EpochTiming::nanos);
    double sSum = sum(spark, EpochTiming::nanos);
    double oCpu = sum(ours, EpochTiming::cpuNanos);
    double sCpu = sum(spark, EpochTiming::cpuNanos);
    out.append(
        String.format(
            Locale.ROOT,
            "| total | %,.0f | %,.0f | %.2f | %.2f | %.2f | %.2f | | | | | | | |%n",
            oSum / 1e6,
            sSum / 1e6,
            sSum / oSum,
            oCpu / 1e9,
            sCpu / 1e9,
            sCpu / oCpu));
    long rows = (long) w.batchRows() * ours.size();
    out.append(
        String.format(
            Locale.ROOT,
            "%nUpserts/s over all epochs: lakestream %,.0f, Spark %,.0f; at the median epoch:"
                + " lakestream %,.0f, Spark %,.0f.%n",
            rows / (oSum / 1e9),
            rows / (sSum / 1e9),
            w.batchRows() / (oMed / 1e9),
            w.batchRows() / (sMed / 1e9)));
    return out.toString();
  }

  /** The same batches into the small and the large table. */
  static String scaling(
      MergeMode mode,
      MergeWorkload small,
      MergeWorkload big,
      List<EpochTiming> oursSmall,
      List<EpochTiming> oursBig,
      List<EpochTiming> sparkSmall,
      List<EpochTiming> sparkBig) {
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            Locale.ROOT,
            "Same batches into a table %.0fx as large, %s (same clustering and file size; ratio ="
                + " large / small):%n%n",
            (double) big.baseRows() / small.baseRows(),
            mode.label()));
    out.append(
        "| side | table rows | files in table (epoch 0) | median ms | total ms | median CPU s |"
            + " files read per epoch | "
            + mode.removedFiles()
            + " per epoch |\n");
    out.append("|---|---:|---:|---:|---:|---:|---|---|\n");
    row(out, "lakestream", small, oursSmall);
    row(out, "lakestream", big, oursBig);
    scalingRow(out, "lakestream", small, big, oursSmall, oursBig);
    row(out, "Spark", small, sparkSmall);
    if (sparkBig != null) {
      row(out, "Spark", big, sparkBig);
      scalingRow(out, "Spark", small, big, sparkSmall, sparkBig);
    }
    return out.toString();
  }

  /**
   * lakestream with deletion vectors against lakestream copy-on-write on the same tables and
   * batches (ratio = copy-on-write / deletion vectors: above 1, deletion vectors are faster). The
   * large table's lists may be null (not run).
   */
  static String versusCopyOnWrite(
      MergeWorkload small,
      List<EpochTiming> dvSmall,
      List<EpochTiming> cowSmall,
      MergeWorkload big,
      List<EpochTiming> dvBig,
      List<EpochTiming> cowBig) {
    StringBuilder out = new StringBuilder();
    out.append(
        "lakestream with deletion vectors vs lakestream copy-on-write, same tables and batches"
            + " (ratio = copy-on-write / deletion vectors):\n\n");
    out.append(
        "| table rows | median ms DV | median ms CoW | ratio | median CPU s DV | median CPU s CoW"
            + " | CPU ratio | total ms DV | total ms CoW | files added per epoch DV / CoW | rows"
            + " copied per epoch CoW |\n");
    out.append("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|\n");
    versusRow(out, small, dvSmall, cowSmall);
    if (dvBig != null) {
      versusRow(out, big, dvBig, cowBig);
    }
    return out.toString();
  }

  private static void versusRow(
      StringBuilder out, MergeWorkload w, List<EpochTiming> dv, List<EpochTiming> cow) {
    double dvMed = median(dv, EpochTiming::nanos);
    double cowMed = median(cow, EpochTiming::nanos);
    double dvCpu = median(dv, EpochTiming::cpuNanos);
    double cowCpu = median(cow, EpochTiming::cpuNanos);
    out.append(
        String.format(
            Locale.ROOT,
            "| %,d | %,.0f | %,.0f | **%.2f** | %.2f | %.2f | %.2f | %,.0f | %,.0f | %s / %s | %s"
                + " |%n",
            w.baseRows(),
            dvMed / 1e6,
            cowMed / 1e6,
            cowMed / dvMed,
            dvCpu / 1e9,
            cowCpu / 1e9,
            cowCpu / dvCpu,
            sum(dv, EpochTiming::nanos) / 1e6,
            sum(cow, EpochTiming::nanos) / 1e6,
            list(dv, EpochTiming::filesAdded),
            list(cow, EpochTiming::filesAdded),
            list(cow, EpochTiming::copied)));
  }

  /** How one side's epochs grew from the small table to the large one. */
  private static void scalingRow(
      StringBuilder out,
      String side,
      MergeWorkload small,
      MergeWorkload big,
      List<EpochTiming> onSmall,
      List<EpochTiming> onBig) {
    out.append(
        String.format(
            Locale.ROOT,
            "| %s large / small | %.1fx | %.1fx | **%.2f** | %.2f | %.2f | | |%n",
            side,
            (double) big.baseRows() / small.baseRows(),
            (double) onBig.get(0).filesInTable() / onSmall.get(0).filesInTable(),
            median(onBig, EpochTiming::nanos) / median(onSmall, EpochTiming::nanos),
            sum(onBig, EpochTiming::nanos) / sum(onSmall, EpochTiming::nanos),
            median(onBig, EpochTiming::cpuNanos) / median(onSmall, EpochTiming::cpuNanos)));
  }

  private static void row(
      StringBuilder out, String side, MergeWorkload w, List<EpochTiming> epochs) {
    out.append(
        String.format(
            Locale.ROOT,
            "| %s | %,d | %d | %,.0f | %,.0f | %.2f | %s | %s |%n",
            side,
            w.baseRows(),
            epochs.get(0).filesInTable(),
            median(epochs, EpochTiming::nanos) / 1e6,
            sum(epochs, EpochTiming::nanos) / 1e6,
            median(epochs, EpochTiming::cpuNanos) / 1e9,
            list(epochs, EpochTiming::filesRead),
            list(epochs, EpochTiming::filesRemoved)));
  }

  private static String list(List<EpochTiming> epochs, ToLongFunction<EpochTiming> f) {
    if (epochs.stream().mapToLong(f).allMatch(v -> v < 0)) {
      return "n/a";
    }
    return String.join(", ", epochs.stream().map(e -> String.valueOf(f.applyAsLong(e))).toList());
  }

  static double median(List<EpochTiming> epochs, ToLongFunction<EpochTiming> f) {
    long[] v = epochs.stream().mapToLong(f).toArray();
    Arrays.sort(v);
    int n = v.length;
    return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
  }

  private static double sum(List<EpochTiming> epochs, ToLongFunction<EpochTiming> f) {
    return epochs.stream().mapToLong(f).sum();
  }
}
