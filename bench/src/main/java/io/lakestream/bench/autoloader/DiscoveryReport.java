package io.lakestream.bench.autoloader;

import java.util.List;
import java.util.Locale;

/** The autoloader-discovery tables (markdown) printed under the bench's summary. */
final class DiscoveryReport {
  private DiscoveryReport() {}

  static String render(
      long files,
      long fresh,
      AutoLoaderDiscoveryBench.SideRun ours,
      AutoLoaderDiscoveryBench.SideRun peer,
      ListingProbe.Pass incremental,
      ListingProbe.Pass idle,
      ListingProbe.Pass full,
      ListingProbe.Pass flink) {
    StringBuilder out = new StringBuilder();
    out.append("One discovery pass, alone, after the backfill (")
        .append(String.format(Locale.ROOT, "%,d", files + 2 * fresh))
        .append(" files in the prefix):\n\n");
    out.append("| pass | files found | S3 LIST | S3 HEAD | lister's own count | ms |\n");
    out.append("|---|---:|---:|---:|---:|---:|\n");
    row(out, "(a) lakestream incremental, " + fresh + " new files after the cursor", incremental);
    row(out, "(a) lakestream incremental, nothing new", idle);
    row(out, "(b) lakestream full relisting (start-after \"\")", full);
    row(out, "(c) Flink FileSource discovery pass (NonSplittingRecursiveEnumerator)", flink);
    out.append('\n');
    out.append("In the running jobs (S3 LIST requests counted by the proxy):\n\n");
    out.append(
        "| side | LIST in the idle window | window s | LIST per s | "
            + fresh
            + " new files: LIST | new files: s to ingest |\n");
    out.append("|---|---:|---:|---:|---:|---:|\n");
    job(out, "Auto Loader (one listing per 1 s trigger)", ours);
    job(out, "FileSource (one discovery pass per 1 s interval)", peer);
    out.append('\n');
    out.append("Heap used after GC vs files discovered (MiB):\n\n");
    out.append("| side | ").append(points(ours.heap(), peer.heap())).append('\n');
    heap(out, "FileSource (files: ingested = discovered)", peer.heap());
    heap(out, "Auto Loader (files: ingested; discovered is at most 20,000 ahead)", ours.heap());
    return out.toString();
  }

  private static void row(StringBuilder out, String name, ListingProbe.Pass p) {
    out.append(
        String.format(
            Locale.ROOT,
            "| %s | %,d | %,d | %,d | %s | %,.0f |%n",
            name,
            p.files(),
            p.lists(),
            p.heads(),
            p.listerCalls() < 0 ? "–" : String.format(Locale.ROOT, "%,d", p.listerCalls()),
            p.millis()));
  }

  private static void job(StringBuilder out, String name, AutoLoaderDiscoveryBench.SideRun r) {
    out.append(
        String.format(
            Locale.ROOT,
            "| %s | %,d | %.0f | %.1f | %,d | %.1f |%n",
            name,
            r.idleLists(),
            r.idleSeconds(),
            r.idleLists() / r.idleSeconds(),
            r.newLists(),
            r.newSeconds()));
  }

  private static String points(List<long[]> a, List<long[]> b) {
    StringBuilder header = new StringBuilder();
    int n = Math.max(a.size(), b.size());
    for (int i = 0; i < n; i++) {
      header.append("step ").append(i).append(" | ");
    }
    header.append("\n|---|");
    for (int i = 0; i < n; i++) {
      header.append("---:|");
    }
    return header.toString();
  }

  private static void heap(StringBuilder out, String name, List<long[]> samples) {
    out.append("| ").append(name).append(" | ");
    for (long[] s : samples) {
      out.append(String.format(Locale.ROOT, "%,d files: %,d | ", s[0], s[1] >> 20));
    }
    out.append('\n');
  }
}
