package io.lakestream.bench.dedup;

import io.lakestream.bench.dedup.DedupStateJob.Run;
import java.util.List;
import java.util.Locale;

/**
 * The dedup-state bench's own tables: per run events/s with numRowsTotal and memory at 10%, 50% and
 * 100% of the events plus the plateau (mean, min and max of the samples from 40% on, when the first
 * 2 delays of event time have passed), then numRowsTotal by progress next to the {@link
 * ReferenceModel}, and "ids per delay" with the ratio BENCHMARKS.md reports.
 */
final class DedupStateReport {
  /** From this fraction of the events on the state is steady (event time past 2 delays). */
  static final double PLATEAU_FROM = 0.4;

  private final DedupWorkload workload;
  private final ReferenceModel model;
  private final List<Run> runs;

  DedupStateReport(DedupWorkload workload, ReferenceModel model, List<Run> runs) {
    this.workload = workload;
    this.model = model;
    this.runs = List.copyOf(runs);
  }

  /** The first sample at or past {@code fraction} of the events (the last one if none). */
  static StateSample at(Run run, double fraction) {
    for (StateSample s : run.samples()) {
      if (s.processed() >= fraction * run.events()) {
        return s;
      }
    }
    return run.samples().get(run.samples().size() - 1);
  }

  /** {mean, min, max} of numRowsTotal over the samples from {@link #PLATEAU_FROM} on. */
  static long[] plateau(Run run) {
    long sum = 0;
    long n = 0;
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    for (StateSample s : run.samples()) {
      if (s.processed() >= PLATEAU_FROM * run.events()) {
        sum += s.numRowsTotal();
        n++;
        min = Math.min(min, s.numRowsTotal());
        max = Math.max(max, s.numRowsTotal());
      }
    }
    return n == 0 ? new long[] {0, 0, 0} : new long[] {sum / n, min, max};
  }

  /** The bench's ratio: the dedup run's plateau over the expected ids per delay. */
  double ratio() {
    return plateau(runs.get(0))[0] / workload.expectedIdsPerDelay();
  }

  String markdown() {
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            Locale.ROOT,
            "ids per delay (distinct ids in one 10-minute window of event time): expected %,.0f"
                + " from the generator's parameters, %,d counted in the stream mid-way.%n"
                + "Expected dedup state once steady: the keys that passed within the last 2 delays"
                + " (bound = event time + delay, freed when the watermark = max event time - delay"
                + " passes it): %,.0f from the parameters, %,d by the reference model (mean from"
                + " %.0f%% of the stream).%n%n",
            workload.expectedIdsPerDelay(),
            model.idsPerDelay(),
            workload.expectedPlateau(),
            model.plateau(),
            PLATEAU_FROM * 100));
    out.append(
        "| run | events/s | numRowsTotal 10% / 50% / end | numRowsTotal plateau (mean, min-max"
            + " from 40%) | heap after GC MiB 10% / 50% / end | RocksDB est. MiB 10% / 50% / end |"
            + " RocksDB keys 50% / end | peak RSS MiB | output rows (= model) |\n");
    out.append("|---|---:|---|---|---|---|---:|---:|---:|\n");
    for (Run run : runs) {
      StateSample s10 = at(run, 0.1);
      StateSample s50 = at(run, 0.5);
      StateSample end = run.samples().get(run.samples().size() - 1);
      long[] p = plateau(run);
      out.append(
          String.format(
              Locale.ROOT,
              "| %s | %,.0f | %,d / %,d / %,d | %,d (%,d-%,d) | %.1f / %.1f / %.1f | %.1f / %.1f / %.1f"
                  + " | %,d / %,d | %,.0f | %,d |%n",
              run.variant().label,
              run.eventsPerSecond(),
              s10.numRowsTotal(),
              s50.numRowsTotal(),
              end.numRowsTotal(),
              p[0],
              p[1],
              p[2],
              mib(s10.heapAfterGcBytes()),
              mib(s50.heapAfterGcBytes()),
              mib(end.heapAfterGcBytes()),
              mib(s10.rocksDbBytes()),
              mib(s50.rocksDbBytes()),
              mib(end.rocksDbBytes()),
              s50.rocksDbKeys(),
              end.rocksDbKeys(),
              run.peakRssBytes() < 0 ? -1 : mib(run.peakRssBytes()),
              run.outputRows()));
    }
    out.append(
        String.format(
            Locale.ROOT,
            "%nratio = dedup plateau / expected ids per delay = %.2f (the state spans 2 delays of"
                + " event time, so about 2 x delay / (delay + burst) is the rule's own"
                + " value); plain dropDuplicates ends at %,d keys.%n%n",
            ratio(),
            runs.get(2).samples().get(runs.get(2).samples().size() - 1).numRowsTotal()));
    out.append(
        "numRowsTotal by events taken in (and how far the dedup's input watermark trailed the"
            + " model's ideal one then):\n\n");
    out.append("| events in | reference model (within watermark) |");
    for (Run run : runs) {
      out.append(' ').append(run.variant().label).append(" |");
    }
    out.append(" dedup's watermark lag (event-time s) |");
    out.append("\n|---:|---:|");
    out.append("---:|".repeat(runs.size() + 1));
    out.append('\n');
    for (int k = 1; k <= 10; k++) {
      out.append(String.format(Locale.ROOT, "| %d%% | %,d |", k * 10, model.heldKeysAt(k * 2)));
      for (Run run : runs) {
        out.append(String.format(Locale.ROOT, " %,d |", at(run, k / 10.0).numRowsTotal()));
      }
      long lag = at(runs.get(0), k / 10.0).watermarkLagMillis();
      out.append(lag < 0 ? " – |" : String.format(Locale.ROOT, " %.1f |", lag / 1000.0));
      out.append('\n');
    }
    return out.toString();
  }

  private static double mib(long bytes) {
    return bytes / (1024.0 * 1024);
  }
}
