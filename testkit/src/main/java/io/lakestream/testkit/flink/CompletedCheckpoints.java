package io.lakestream.testkit.flink;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.state.CheckpointListener;

/**
 * A pass-through map for jobs on an in-JVM mini cluster that notes, under a name, the newest
 * checkpoint whose completion it was notified of, so a test can wait for checkpoints instead of
 * sleeping: {@code stream.map(new CompletedCheckpoints<>("it")).uid("checkpoints")}, then {@link
 * #awaitMore(String, int, Duration)}.
 *
 * <p>Sinks commit an epoch when its checkpoint completes, so once checkpoint N+1 completed, every
 * commit of checkpoint N (including a replay after a restore) has run. Waits fail with {@link
 * AssertionError} on timeout.
 *
 * @param <T> the stream's type
 */
public final class CompletedCheckpoints<T> implements MapFunction<T, T>, CheckpointListener {
  private static final long serialVersionUID = 1L;
  private static final Map<String, AtomicLong> LATEST = new ConcurrentHashMap<>();

  private final String name;

  /** An observer recording under {@code name} (reset to none). */
  public CompletedCheckpoints(String name) {
    this.name = name;
    LATEST.put(name, new AtomicLong());
  }

  @Override
  public T map(T value) {
    return value;
  }

  @Override
  public void notifyCheckpointComplete(long checkpointId) {
    LATEST.computeIfAbsent(name, n -> new AtomicLong()).accumulateAndGet(checkpointId, Math::max);
  }

  /** The newest completed checkpoint seen under {@code name}; 0 before the first. */
  public static long latest(String name) {
    AtomicLong latest = LATEST.get(name);
    return latest == null ? 0 : latest.get();
  }

  /**
   * Waits until {@code more} checkpoints after the newest one seen so far have completed.
   *
   * @return the newest completed checkpoint
   * @throws AssertionError if they do not complete within {@code timeout}
   */
  public static long awaitMore(String name, int more, Duration timeout)
      throws InterruptedException {
    long target = latest(name) + more;
    long deadline = System.nanoTime() + timeout.toNanos();
    while (latest(name) < target) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            "checkpoint "
                + target
                + " of '"
                + name
                + "' did not complete within "
                + timeout
                + " (newest: "
                + latest(name)
                + ")");
      }
      Thread.sleep(20);
    }
    return latest(name);
  }
}
