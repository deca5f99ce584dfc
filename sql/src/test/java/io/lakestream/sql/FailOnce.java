package io.lakestream.sql;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.flink.table.functions.ScalarFunction;

/**
 * A SQL function that passes its argument through ({@code CREATE TEMPORARY FUNCTION fail_once AS
 * 'io.lakestream.sql.FailOnce'}); once {@link #arm armed}, it fails the task one time in the test
 * JVM, mid-epoch: at the first row it sees after a checkpoint of the run has completed in the
 * query's checkpoint location. So the restart restores that checkpoint and replays the rest of the
 * epoch (failing before any checkpoint of the run would only restart the run from its beginning).
 * The test checks {@link #failed()}; a run that ends before a checkpoint completes does not fail.
 * So that small inputs are not all processed before the first checkpoint completes (the race a
 * loaded machine loses), each instance paces its first {@value #PACED_ROWS} rows by {@value
 * #PACE_MILLIS} ms and looks for the checkpoint at each of them.
 */
public final class FailOnce extends ScalarFunction {
  private static final Pattern CHECKPOINT = Pattern.compile("chk-(\\d+)");
  private static final long CHECK_EVERY_NANOS = 20_000_000;
  private static final int PACED_ROWS = 1_000;
  private static final long PACE_MILLIS = 2;
  private static final AtomicBoolean FAILED = new AtomicBoolean();
  private static volatile Path location;
  private static volatile long checkpointBefore;

  private long nextCheck;
  private int pacedRows;

  /** Arms the failure for a run of the query at {@code checkpointLocation}. */
  public static void arm(Path checkpointLocation) {
    checkpointBefore = newestCheckpoint(checkpointLocation);
    FAILED.set(false);
    location = checkpointLocation;
  }

  /** Disarms it and forgets an earlier one. */
  public static void disarm() {
    location = null;
    FAILED.set(false);
  }

  /** Whether the armed failure happened. */
  public static boolean failed() {
    return FAILED.get();
  }

  public Long eval(Long value) {
    Path armed = location;
    if (armed == null || FAILED.get()) {
      return value;
    }
    if (pacedRows < PACED_ROWS) {
      pacedRows++;
      pace();
    } else if (System.nanoTime() < nextCheck) {
      return value;
    }
    nextCheck = System.nanoTime() + CHECK_EVERY_NANOS;
    if (newestCheckpoint(armed) > checkpointBefore && FAILED.compareAndSet(false, true)) {
      throw new IllegalStateException(
          "injected task failure mid-epoch, after a checkpoint of the run, at " + value);
    }
    return value;
  }

  private static void pace() {
    try {
      Thread.sleep(PACE_MILLIS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** The id of the newest completed checkpoint under {@code location}, or 0. */
  private static long newestCheckpoint(Path location) {
    if (!Files.isDirectory(location)) {
      return 0;
    }
    try (Stream<Path> files = Files.walk(location)) {
      return files
          .filter(f -> f.getFileName().toString().equals("_metadata"))
          .map(f -> CHECKPOINT.matcher(f.getParent().getFileName().toString()))
          .filter(Matcher::matches)
          .mapToLong(m -> Long.parseLong(m.group(1)))
          .max()
          .orElse(0);
    } catch (java.io.IOException | java.io.UncheckedIOException e) {
      return 0; // a checkpoint directory removed while listing: look again later
    }
  }
}
