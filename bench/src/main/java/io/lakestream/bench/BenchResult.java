package io.lakestream.bench;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Both sides of one bench run and the ratio lakestream / peer (of rows per second), rendered as a
 * markdown table by {@link #toMarkdown()}.
 *
 * @param benchId the bench
 * @param ours lakestream's measurement
 * @param peer the peer's measurement
 * @param diagnostics further measurements shown in the table but not in the ratio (e.g. a part of
 *     lakestream's path run alone)
 * @param notes extra lines printed under the table (settings, load)
 * @param appendix further markdown printed after the notes (a bench's own tables), or empty
 */
public record BenchResult(
    String benchId,
    Measurement ours,
    Measurement peer,
    List<Measurement> diagnostics,
    List<String> notes,
    String appendix) {

  public BenchResult {
    Objects.requireNonNull(benchId, "benchId");
    Objects.requireNonNull(ours, "ours");
    Objects.requireNonNull(peer, "peer");
    Objects.requireNonNull(appendix, "appendix");
    diagnostics = List.copyOf(diagnostics);
    notes = List.copyOf(notes);
  }

  /** Without an appendix. */
  public BenchResult(
      String benchId,
      Measurement ours,
      Measurement peer,
      List<Measurement> diagnostics,
      List<String> notes) {
    this(benchId, ours, peer, diagnostics, notes, "");
  }

  /** lakestream's rate divided by the peer's: 1.0 means as fast as the peer. */
  public double ratio() {
    return ours.rowsPerSecond() / peer.rowsPerSecond();
  }

  /** The result as a markdown table plus notes. */
  public String toMarkdown() {
    StringBuilder out = new StringBuilder();
    out.append("### ").append(benchId).append("\n\n");
    out.append(
        "| side | rows | wall s | rows/s | CPU s | rows/CPU-s | peak RSS MiB | peak heap MiB"
            + " | how |\n");
    out.append("|---|---:|---:|---:|---:|---:|---:|---:|---|\n");
    List<Measurement> all = new java.util.ArrayList<>(List.of(ours, peer));
    all.addAll(diagnostics);
    for (Measurement m : all) {
      out.append(
          String.format(
              Locale.ROOT,
              "| %s | %,d | %.2f | %,.0f | %.2f | %,.0f | %s | %s | %s |%n",
              m.side(),
              m.rows(),
              m.seconds(),
              m.rowsPerSecond(),
              m.cpuNanos() / 1e9,
              m.rowsPerCpuSecond(),
              mib(m.peakRssBytes()),
              mib(m.peakHeapBytes()),
              m.detail()));
    }
    out.append(String.format(Locale.ROOT, "%nratio (lakestream / peer, rows/s): %.2f%n", ratio()));
    out.append(
        String.format(
            Locale.ROOT,
            "CPU ratio (lakestream / peer, rows per CPU-second of the process): %.2f%n",
            ours.rowsPerCpuSecond() / peer.rowsPerCpuSecond()));
    for (String note : notes) {
      out.append("- ").append(note).append('\n');
    }
    if (!appendix.isEmpty()) {
      out.append('\n').append(appendix);
    }
    return out.toString();
  }

  private static String mib(long bytes) {
    return bytes < 0 ? "n/a" : String.format(Locale.ROOT, "%,d", bytes / (1024 * 1024));
  }
}
