package io.lakestream.runtime;

import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * When the query's epochs were cut and made durable, as the in-job runner sees it on the
 * JobManager: Flink asks the runner (a source coordinator) to snapshot when it triggers checkpoint
 * N, right before the sources inject the barrier that ends epoch N, and tells it when checkpoint N
 * completed. Epoch N starts where epoch N-1 was cut, or, for the first epoch this runner sees, when
 * the runner started (the job's sources start reading then, after a failover too).
 *
 * <p>Thread-safe: Flink calls {@link #triggered} and {@link #completed} on the coordinator thread,
 * the progress tracker reads on the runner's worker thread. Times of epochs cut before this runner
 * started (an earlier run, or before a failover) are unknown: {@link #of} gives null for them.
 */
final class EpochClock {
  private static final int RETAIN = 200;

  private final Instant started;
  private volatile long firstTriggered = -1;
  private final ConcurrentSkipListMap<Long, Instant> triggered = new ConcurrentSkipListMap<>();
  private final ConcurrentSkipListMap<Long, Instant> completed = new ConcurrentSkipListMap<>();

  EpochClock(Instant started) {
    this.started = started;
  }

  /** Checkpoint {@code epoch} was triggered at {@code at}: the barrier ending the epoch follows. */
  void triggered(long epoch, Instant at) {
    if (firstTriggered < 0) {
      firstTriggered = epoch;
    }
    triggered.put(epoch, at);
    trim(triggered);
  }

  /** Checkpoint {@code epoch} completed at {@code at}: its state and positions are durable. */
  void completed(long epoch, Instant at) {
    completed.put(epoch, at);
    trim(completed);
  }

  /**
   * The times of {@code epoch}, or null when its checkpoint was not triggered in this runner's
   * lifetime.
   */
  EpochTimes of(long epoch) {
    Instant cut = triggered.get(epoch);
    if (cut == null) {
      return null;
    }
    Map.Entry<Long, Instant> previous = triggered.lowerEntry(epoch);
    if (previous == null && epoch != firstTriggered) {
      return null; // the previous cut was trimmed
    }
    Instant start = previous == null ? started : previous.getValue();
    return new EpochTimes(start, cut, completed.get(epoch));
  }

  private static void trim(ConcurrentSkipListMap<Long, Instant> times) {
    while (times.size() > RETAIN) {
      times.pollFirstEntry();
    }
  }

  /**
   * One epoch's times.
   *
   * @param start when its first rows could be read: the previous epoch's cut, or the runner's start
   * @param cut when the checkpoint ending it was triggered
   * @param checkpointed when that checkpoint completed; null when Flink did not say (a checkpoint
   *     subsumed by a newer one before its notification)
   */
  record EpochTimes(Instant start, Instant cut, Instant checkpointed) {}
}
