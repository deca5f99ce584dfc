package io.lakestream.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * {@code bin/bench <id> [options]}: runs one bench (lakestream and its peer in this JVM) and prints
 * the result as markdown. Exits 0 on success, 1 if the bench failed, 2 on a usage error.
 */
public final class BenchMain {
  private BenchMain() {}

  public static void main(String[] args) throws Exception {
    BenchRegistry registry = BenchRegistry.standard();
    if (args.length == 0 || args[0].equals("--help") || args[0].equals("--list")) {
      System.out.println(usage(registry));
      System.exit(args.length == 0 ? 2 : 0);
    }
    Bench bench = registry.find(args[0]).orElse(null);
    if (bench == null) {
      System.err.println("Unknown bench '" + args[0] + "'.\n" + usage(registry));
      System.exit(2);
      return;
    }
    Path defaultDir =
        Path.of(
            System.getProperty("java.io.tmpdir"),
            "lakestream-bench-" + bench.id() + "-" + System.currentTimeMillis());
    BenchOptions options;
    try {
      options = BenchOptions.parse(Arrays.asList(args).subList(1, args.length), defaultDir);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.exit(2);
      return;
    }
    int status = 0;
    try {
      System.out.println(run(bench, options));
    } catch (Exception | Error e) {
      System.err.println("bench " + bench.id() + " FAILED: " + e);
      e.printStackTrace();
      status = 1;
    } finally {
      if (!options.keep()) {
        deleteRecursively(options.workDir());
      } else {
        System.out.println("data kept in " + options.workDir());
      }
    }
    System.exit(status);
  }

  /** Runs the warm-up round (if any) and the measured round; returns the report. */
  public static String run(Bench bench, BenchOptions options) throws Exception {
    if (options.warmupRows() > 0 && bench.warmsUp()) {
      Path warmDir = options.workDir().resolve("warmup");
      System.err.printf(
          Locale.ROOT, "%s: warm-up with %,d rows%n", bench.id(), options.warmupRows());
      bench.run(options.withRows(options.warmupRows(), warmDir));
      deleteRecursively(warmDir);
    }
    double loadBefore = ResourcePeaks.loadAverage();
    long rows = options.rowsOr(bench.defaultRows());
    System.err.printf(Locale.ROOT, "%s: measuring with %,d rows%n", bench.id(), rows);
    BenchResult result = bench.run(options.withRows(rows, options.workDir().resolve("measured")));
    double loadAfter = ResourcePeaks.loadAverage();
    return result.toMarkdown()
        + String.format(
            Locale.ROOT,
            "- machine: %d cores, JVM max heap %,d MiB, Java %s; 1-min load average %.2f before,"
                + " %.2f after%n",
            Runtime.getRuntime().availableProcessors(),
            Runtime.getRuntime().maxMemory() / (1024 * 1024),
            System.getProperty("java.version"),
            loadBefore,
            loadAfter);
  }

  static String usage(BenchRegistry registry) {
    StringBuilder out = new StringBuilder("Usage: bin/bench <id> [options]\n\nBenches:\n");
    for (Bench bench : registry.all()) {
      out.append(String.format(Locale.ROOT, "  %-14s %s%n", bench.id(), bench.description()));
    }
    out.append("\nOptions:\n");
    for (String option : BenchOptions.NAMES) {
      out.append("  ").append(option).append('\n');
    }
    return out.toString();
  }

  /** Deletes {@code dir} and everything under it; nothing if it does not exist. */
  public static void deleteRecursively(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      List<Path> all = paths.sorted(Comparator.reverseOrder()).toList();
      for (Path p : all) {
        Files.deleteIfExists(p);
      }
    }
  }
}
