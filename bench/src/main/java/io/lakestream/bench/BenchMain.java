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
 * the result as markdown. Exits 0 on success, 1 if the bench failed, 2 on a usage error. {@code
 * bin/bench --check} starts every bench's first services instead ({@link #check}).
 */
public final class BenchMain {
  private BenchMain() {}

  public static void main(String[] args) throws Exception {
    BenchRegistry registry = BenchRegistry.standard();
    if (args.length == 0 || args[0].equals("--help") || args[0].equals("--list")) {
      System.out.println(usage(registry));
      System.exit(args.length == 0 ? 2 : 0);
    }
    if (args[0].equals("--check")) {
      System.exit(check(registry, Arrays.asList(args).subList(1, args.length)));
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

  /**
   * {@code bin/bench --check [id ...]}: for each bench (all without ids), in registry order, {@link
   * Bench#check} on services shared by all; prints one line per bench, {@code <id>: ok}, {@code
   * <id>: needs the Spark peer: ..} (its Spark side not built: not a failure) or {@code <id>:
   * FAILED: ..}. Measures nothing.
   *
   * @return 0 if every bench started (or only lacks the Spark peer), 1 if one failed, 2 for an
   *     unknown id
   */
  static int check(BenchRegistry registry, List<String> ids) throws Exception {
    List<Bench> benches = new java.util.ArrayList<>();
    for (String id : ids.isEmpty() ? registry.all().stream().map(Bench::id).toList() : ids) {
      Bench bench = registry.find(id).orElse(null);
      if (bench == null) {
        System.err.println("Unknown bench '" + id + "'.\n" + usage(registry));
        return 2;
      }
      benches.add(bench);
    }
    int status = 0;
    try (BenchServices services =
        new BenchServices(Path.of(System.getProperty("bench.root", ".")).toAbsolutePath())) {
      for (Bench bench : benches) {
        long start = System.nanoTime();
        try {
          bench.check(services);
          System.out.printf(
              Locale.ROOT, "%s: ok (%.1f s)%n", bench.id(), (System.nanoTime() - start) / 1e9);
        } catch (IllegalStateException e) {
          if (e.getMessage() != null && e.getMessage().contains("-Pspark-bench")) {
            System.out.println(bench.id() + ": needs the Spark peer: " + e.getMessage());
          } else {
            status = fail(bench, e);
          }
        } catch (Exception | Error e) {
          status = fail(bench, e);
        }
      }
    }
    return status;
  }

  private static int fail(Bench bench, Throwable e) {
    System.out.println(bench.id() + ": FAILED: " + e);
    e.printStackTrace();
    return 1;
  }

  static String usage(BenchRegistry registry) {
    StringBuilder out = new StringBuilder("Usage: bin/bench <id> [options]\n\nBenches:\n");
    for (Bench bench : registry.all()) {
      out.append(String.format(Locale.ROOT, "  %-14s %s%n", bench.id(), bench.description()));
    }
    out.append(
        "\nbin/bench --check [id ...]: start what each bench needs first and exit, measuring"
            + " nothing\n");
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
