package io.lakestream.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Command-line options shared by all benches. Parsing is strict: an unknown option or a bad value
 * fails with a message naming the option and listing the valid ones.
 *
 * @param rows rows to process (0 = the bench's default)
 * @param warmupRows rows of an untimed warm-up round of both sides before the measured round
 * @param parallelism Flink parallelism of lakestream's job and thread count of the peer
 * @param checkpointInterval the Flink checkpoint interval (one commit per checkpoint)
 * @param workDir where tables and files are written; deleted after the run unless {@code keep}
 * @param keep keep the written data for inspection
 * @param keys distinct keys, for benches whose data has keys (dedup-state: ids); 0 = the bench's
 *     default
 * @param postgres the PostgreSQL server of lakebase-upsert: {@code embedded} (default, the
 *     testkit's embedded PostgreSQL) or {@code debian} (Debian's package, installed when missing)
 */
public record BenchOptions(
    long rows,
    long warmupRows,
    int parallelism,
    Duration checkpointInterval,
    Path workDir,
    boolean keep,
    long keys,
    String postgres) {

  /** The PostgreSQL servers {@code --postgres} names. */
  public static final List<String> POSTGRES_SERVERS = List.of("embedded", "debian");

  /** Option names, as listed in errors and {@code --help}. */
  public static final List<String> NAMES =
      List.of(
          "--rows N (e.g. 10M, 500K; default per bench; --records, --events and --files are the same)",
          "--ids N (distinct keys, for dedup-state; default per bench)",
          "--warmup-rows N (default 500K, 0 = none; benches running fresh JVMs skip it)",
          "--parallelism N (default 2)",
          "--checkpoint-interval DURATION (e.g. 3s, 500ms; default 3s)",
          "--dir PATH (default: a new directory under java.io.tmpdir)",
          "--keep (keep the written data)",
          "--postgres embedded|debian (lakebase-upsert: the testkit's embedded PostgreSQL, default,"
              + " or Debian's, installed with apt-get when missing)");

  public BenchOptions {
    Objects.requireNonNull(checkpointInterval, "checkpointInterval");
    Objects.requireNonNull(workDir, "workDir");
    Objects.requireNonNull(postgres, "postgres");
  }

  /** Without {@code postgres} (the embedded server). */
  public BenchOptions(
      long rows,
      long warmupRows,
      int parallelism,
      Duration checkpointInterval,
      Path workDir,
      boolean keep,
      long keys) {
    this(rows, warmupRows, parallelism, checkpointInterval, workDir, keep, keys, "embedded");
  }

  /** Without {@code keys} (each bench's default). */
  public BenchOptions(
      long rows,
      long warmupRows,
      int parallelism,
      Duration checkpointInterval,
      Path workDir,
      boolean keep) {
    this(rows, warmupRows, parallelism, checkpointInterval, workDir, keep, 0);
  }

  /** The key count for a bench: {@code --ids} or the bench's default. */
  public long keysOr(long defaultKeys) {
    return keys > 0 ? keys : defaultKeys;
  }

  /** The row count for a bench: {@code --rows} or the bench's default. */
  public long rowsOr(long defaultRows) {
    return rows > 0 ? rows : defaultRows;
  }

  /** Same options with another row count and work directory (for the warm-up round). */
  public BenchOptions withRows(long newRows, Path dir) {
    return new BenchOptions(newRows, 0, parallelism, checkpointInterval, dir, keep, keys, postgres);
  }

  /**
   * Parses options after the bench id.
   *
   * @throws IllegalArgumentException naming the bad option
   */
  public static BenchOptions parse(List<String> args, Path defaultWorkDir) {
    long rows = 0;
    long warmup = 500_000;
    int parallelism = 2;
    Duration interval = Duration.ofSeconds(3);
    Path dir = defaultWorkDir;
    boolean keep = false;
    long keys = 0;
    String postgres = "embedded";
    List<String> rest = new ArrayList<>(args);
    while (!rest.isEmpty()) {
      String name = rest.remove(0);
      switch (name) {
        case "--keep" -> keep = true;
        case "--rows", "--records", "--events", "--files" ->
            rows = parseCount(name, value(name, rest));
        case "--ids" -> keys = parseCount(name, value(name, rest));
        case "--warmup-rows" -> warmup = parseCount(name, value(name, rest));
        case "--parallelism" -> parallelism = (int) parseCount(name, value(name, rest));
        case "--checkpoint-interval" -> interval = parseDuration(name, value(name, rest));
        case "--dir" -> dir = Path.of(value(name, rest)).toAbsolutePath();
        case "--postgres" -> postgres = value(name, rest).toLowerCase(Locale.ROOT);
        default ->
            throw new IllegalArgumentException(
                "Unknown option '" + name + "'. Valid options: " + String.join(", ", NAMES));
      }
    }
    if (rows < 0 || warmup < 0 || parallelism < 1 || keys < 0) {
      throw new IllegalArgumentException(
          "--rows, --warmup-rows and --ids must be >= 0 and --parallelism >= 1");
    }
    if (!POSTGRES_SERVERS.contains(postgres)) {
      throw new IllegalArgumentException(
          "Option --postgres takes one of " + POSTGRES_SERVERS + ", was '" + postgres + "'");
    }
    return new BenchOptions(rows, warmup, parallelism, interval, dir, keep, keys, postgres);
  }

  private static String value(String name, List<String> rest) {
    if (rest.isEmpty()) {
      throw new IllegalArgumentException("Option " + name + " needs a value");
    }
    return rest.remove(0);
  }

  static long parseCount(String name, String text) {
    String t = text.trim().toUpperCase(Locale.ROOT).replace("_", "");
    long factor = 1;
    if (t.endsWith("K")) {
      factor = 1_000;
    } else if (t.endsWith("M")) {
      factor = 1_000_000;
    } else if (t.endsWith("G")) {
      factor = 1_000_000_000;
    }
    if (factor > 1) {
      t = t.substring(0, t.length() - 1);
    }
    try {
      return Math.multiplyExact(Long.parseLong(t), factor);
    } catch (NumberFormatException | ArithmeticException e) {
      throw new IllegalArgumentException(
          "Option " + name + " takes a count like 10M, 500K or 2000, was '" + text + "'");
    }
  }

  static Duration parseDuration(String name, String text) {
    String t = text.trim().toLowerCase(Locale.ROOT);
    try {
      if (t.endsWith("ms")) {
        return Duration.ofMillis(Long.parseLong(t.substring(0, t.length() - 2)));
      }
      if (t.endsWith("s")) {
        return Duration.ofSeconds(Long.parseLong(t.substring(0, t.length() - 1)));
      }
    } catch (NumberFormatException e) {
      // fall through to the error below
    }
    throw new IllegalArgumentException(
        "Option " + name + " takes a duration like 3s or 500ms, was '" + text + "'");
  }
}
