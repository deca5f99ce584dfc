package io.lakestream.sql.streamingtable;

import io.lakestream.api.annotation.PublicEvolving;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A streaming table refreshing on its schedule ({@link StreamingTableRefresh#startSchedule}), in a
 * thread of its own: refreshes never overlap, and each starts at least the schedule's interval
 * after the previous one started (at once when that one took longer). {@link #stop} lets a running
 * refresh end and starts no other. A refresh that fails ends the schedule (no retry: the next run,
 * or a restarted schedule, resumes from the table's checkpoint), and {@link #awaitTermination}
 * throws its failure.
 */
@PublicEvolving
public final class ScheduledRefresh implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ScheduledRefresh.class);

  /** Waits until an instant of the schedule's clock, unless the schedule stops first. */
  interface Wait {
    /**
     * @return whether the instant came (false: {@code stop} was counted down)
     */
    boolean until(Instant when, CountDownLatch stop) throws InterruptedException;
  }

  private final String table;
  private final Callable<?> refresh;
  private final Duration interval;
  private final Clock clock;
  private final Wait wait;
  private final CountDownLatch stop = new CountDownLatch(1);
  private final CountDownLatch ended = new CountDownLatch(1);
  private final List<Instant> starts = new CopyOnWriteArrayList<>();
  private volatile Exception failure;

  private ScheduledRefresh(
      String table, Callable<?> refresh, Duration interval, Clock clock, Wait wait) {
    this.table = table;
    this.refresh = refresh;
    this.interval = interval;
    this.clock = clock;
    this.wait = wait;
  }

  static ScheduledRefresh start(
      String table, Callable<?> refresh, Duration interval, Clock clock, Wait wait) {
    ScheduledRefresh scheduled = new ScheduledRefresh(table, refresh, interval, clock, wait);
    Thread thread = new Thread(scheduled::run, "refresh-" + table);
    thread.start();
    return scheduled;
  }

  /** Waiting on the system clock. */
  static Wait realTime(Clock clock) {
    return (when, stop) -> {
      long millis = Duration.between(clock.instant(), when).toMillis();
      return millis <= 0 ? stop.getCount() > 0 : !stop.await(millis, TimeUnit.MILLISECONDS);
    };
  }

  private void run() {
    try {
      Instant next = clock.instant();
      while (wait.until(next, stop)) {
        Instant start = clock.instant();
        starts.add(start);
        LOG.info("Streaming table {}: refresh {} starts", table, starts.size());
        refresh.call();
        next = start.plus(interval);
        LOG.info(
            "Streaming table {}: refresh {} done; the next starts at {}",
            table,
            starts.size(),
            next);
      }
    } catch (Exception e) {
      failure = e;
      LOG.error(
          "Streaming table {}: refresh {} failed; the schedule ends", table, starts.size(), e);
    } finally {
      ended.countDown();
    }
  }

  /** When each refresh started, oldest first. */
  public List<Instant> refreshStarts() {
    return List.copyOf(starts);
  }

  /** Whether refreshes may still start. */
  public boolean isActive() {
    return ended.getCount() > 0;
  }

  /** Starts no further refresh and waits for a running one to end. */
  public void stop() throws InterruptedException {
    stop.countDown();
    ended.await();
  }

  /**
   * Waits until the schedule ends ({@link #stop} or a failed refresh).
   *
   * @throws Exception the failure of the refresh that ended it
   */
  public void awaitTermination() throws Exception {
    ended.await();
    if (failure != null) {
      throw failure;
    }
  }

  @Override
  public void close() throws InterruptedException {
    stop();
  }
}
