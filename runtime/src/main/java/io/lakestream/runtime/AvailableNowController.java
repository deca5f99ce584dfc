package io.lakestream.runtime;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.state.checkpoint.EpochLog;
import java.io.IOException;
import java.time.Duration;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ends an availableNow (or once) run: when every source has reported that it read what was
 * available when the run started, stops the job with a savepoint WITHOUT draining, so state, open
 * windows and the watermark survive and the next run resumes exactly after the data read. The
 * savepoint is the run's last epoch; its commit happens before the job ends.
 *
 * <p>Like Spark's final no-data batch, it first lets the watermark settle: between the catch-up and
 * the stop it waits a few auto-watermark intervals, so the watermark of the last rows reaches the
 * stateful operators and the windows it closes are emitted (and committed by the savepoint).
 */
final class AvailableNowController {
  private static final Logger LOG = LoggerFactory.getLogger(AvailableNowController.class);

  private final EpochLog log;
  private final String runId;
  private final Set<String> sources;
  private final String savepointDir;
  private final Duration settle;
  private long caughtUpAtNanos = -1;

  /** Stops tried before giving up; with the backoff below they span about two minutes. */
  static final int MAX_STOP_ATTEMPTS = 8;

  /** Wait after the first failed stop; doubled after each further one, at most 30 s. */
  static final Duration FIRST_RETRY_DELAY = Duration.ofSeconds(1);

  private static final Duration MAX_RETRY_DELAY = Duration.ofSeconds(30);

  private final AtomicBoolean stopping = new AtomicBoolean();
  private final Duration firstRetryDelay;
  private int failedStops;
  private volatile long nextAttemptNanos;
  private final CompletableFuture<String> savepoint = new CompletableFuture<>();

  /**
   * @param sources file-name-safe names of the sources that must catch up
   */
  AvailableNowController(
      EpochLog log, String runId, Set<String> sources, String savepointDir, Duration settle) {
    this(log, runId, sources, savepointDir, settle, FIRST_RETRY_DELAY);
  }

  AvailableNowController(
      EpochLog log,
      String runId,
      Set<String> sources,
      String savepointDir,
      Duration settle,
      Duration firstRetryDelay) {
    this.firstRetryDelay = firstRetryDelay;
    this.nextAttemptNanos = System.nanoTime();
    this.settle = settle;
    this.log = log;
    this.runId = runId;
    this.sources = new TreeSet<>(sources);
    this.savepointDir = savepointDir;
  }

  /** Checks the sources; once all caught up, starts the stop (only once). */
  void poll(JobControl job) throws IOException {
    if (stopping.get() || !log.caughtUpSources(runId).containsAll(sources)) {
      return;
    }
    if (caughtUpAtNanos < 0) {
      caughtUpAtNanos = System.nanoTime();
    }
    if (System.nanoTime() - caughtUpAtNanos < settle.toNanos()) {
      return; // the watermark of the last rows is still on its way
    }
    if (System.nanoTime() - nextAttemptNanos < 0) {
      return; // backing off after a failed stop
    }
    if (stopping.compareAndSet(false, true)) {
      LOG.info(
          "availableNow: all sources {} read what was available at start; stopping with a"
              + " savepoint (no drain) in {}",
          sources,
          savepointDir);
      job.stopWithSavepoint(savepointDir)
          .whenComplete(
              (path, error) -> {
                if (error != null) {
                  onStopFailed(job, error);
                } else {
                  LOG.info("availableNow: stopped; the next run resumes from savepoint {}", path);
                  savepoint.complete(path);
                }
              });
    }
  }

  /**
   * A stop fails while the job is restarting after a task failure or a checkpoint is declined (a
   * loaded machine restarts slowly); try again after a growing delay (1, 2, 4 ... 30 s), and give
   * up (cancel, fail the query) after {@value #MAX_STOP_ATTEMPTS} attempts.
   */
  private synchronized void onStopFailed(JobControl job, Throwable error) {
    failedStops++;
    if (failedStops < MAX_STOP_ATTEMPTS) {
      Duration delay = retryDelay(failedStops);
      LOG.warn(
          "availableNow: stop with savepoint failed (attempt {} of {}), retrying in {} ms: {}",
          failedStops,
          MAX_STOP_ATTEMPTS,
          delay.toMillis(),
          error.toString());
      nextAttemptNanos = System.nanoTime() + delay.toNanos();
      stopping.set(false);
      return;
    }
    savepoint.completeExceptionally(
        new LakestreamException(
            QueryErrorClass.QUERY_STOP_FAILED,
            "availableNow: could not stop with a savepoint after "
                + MAX_STOP_ATTEMPTS
                + " attempts; the job was cancelled and resumes from its last checkpoint on the"
                + " next run",
            error));
    job.cancel();
  }

  /** The wait after the {@code failed}th failed stop. */
  Duration retryDelay(int failed) {
    Duration delay = firstRetryDelay.multipliedBy(1L << Math.min(failed - 1, 20));
    return delay.compareTo(MAX_RETRY_DELAY) > 0 ? MAX_RETRY_DELAY : delay;
  }

  boolean stopping() {
    return stopping.get();
  }

  CompletableFuture<String> savepoint() {
    return savepoint;
  }
}
