package io.lakestream.connectors.delta.source.enumerator;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.source.EpochQuota;
import io.lakestream.connectors.source.WaitingReaders;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.function.ToLongFunction;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;

/**
 * The work queue of a Delta source enumerator: the discovered files not yet admitted, the admitted
 * splits not yet handed out (returned ones first) and the readers waiting for work. Hands splits to
 * waiting readers, admitting discovered files in order while the epoch's {@link DeltaSourceLimits}
 * allow ({@link EpochQuota}: {@code maxFilesPerTrigger}, and {@code maxBytesPerTrigger} as a soft
 * limit: the file that crosses it is admitted), and paces discovery ({@link #mayDiscoverAfter},
 * {@link #discoverThrough}).
 *
 * <p>Used from the enumerator's coordinator thread, except {@link #mayDiscoverAfter} which the
 * discovery worker calls. It holds no stream position: the enumerator moves its position in the
 * {@code admit} callback and checkpoints {@link #pending()} itself.
 *
 * @param <F> a discovered file
 * @param <S> the split a file becomes
 */
@Internal
public final class FileAdmission<F, S extends SourceSplit> {
  /** Versions read per discovery round. */
  private static final int VERSIONS_PER_POLL = 100;

  private final DeltaSourceLimits limits;
  private final ToLongFunction<F> size;
  private final Function<F, S> admit;
  private final Deque<S> pending;
  private final Deque<F> discovered = new ArrayDeque<>();
  private final WaitingReaders<S> waiting;
  private final EpochQuota quota;
  private volatile int discoveredCount;

  /**
   * @param context the enumerator's context, to assign splits
   * @param limits the per-epoch limits and the end version
   * @param pending admitted splits not handed out yet (from a checkpoint)
   * @param size a file's size in bytes
   * @param admit moves the enumerator's position past a file and returns the file's split
   */
  public FileAdmission(
      SplitEnumeratorContext<S> context,
      DeltaSourceLimits limits,
      Collection<S> pending,
      ToLongFunction<F> size,
      Function<F, S> admit) {
    this.limits = limits;
    this.size = size;
    this.admit = admit;
    this.pending = new ArrayDeque<>(pending);
    this.waiting = new WaitingReaders<>(context);
    this.quota =
        new EpochQuota(
            limits.maxFilesPerTrigger(), limits.maxBytesPerTrigger(), limits.ignoreLimits());
  }

  /**
   * Worker thread: whether to look for versions after {@code through}, i.e. the read-ahead has room
   * and the end version (if any) is not yet discovered.
   */
  public boolean mayDiscoverAfter(long through) {
    return discoveredCount < limits.readAhead()
        && (limits.endVersion() < 0 || through < limits.endVersion());
  }

  /** The last version to discover in one round after {@code through}, given the latest version. */
  public long discoverThrough(long through, long latest) {
    long to = Math.min(latest, through + VERSIONS_PER_POLL);
    if (limits.endVersion() >= 0) {
      to = Math.min(to, limits.endVersion());
    }
    return to;
  }

  /** Queues files found by discovery, in order, behind those discovered before. */
  public void addDiscovered(List<F> files) {
    discovered.addAll(files);
    discoveredCount = discovered.size();
  }

  /** A reader asks for work. */
  public void addWaiting(int subtaskId) {
    waiting.add(subtaskId);
  }

  /** Forgets a waiting reader (told there is no more work). */
  public void removeWaiting(int subtaskId) {
    waiting.remove(subtaskId);
  }

  /** The readers waiting for work, in the order they asked. */
  public Set<Integer> waiting() {
    return waiting.subtasks();
  }

  /** Hands splits to waiting readers, admitting discovered files while the limits allow. */
  public void assign() {
    waiting.assign(() -> pending.isEmpty() ? admitNext() : pending.poll());
  }

  /** The next discovered file if this epoch's limits allow it. */
  private S admitNext() {
    if (discovered.isEmpty() || !quota.hasRoom()) {
      return null;
    }
    F file = discovered.poll();
    discoveredCount = discovered.size();
    quota.count(size.applyAsLong(file));
    return admit.apply(file);
  }

  /** Files discovered and not yet admitted to an epoch (Spark's {@code numFilesOutstanding}). */
  public long outstandingFiles() {
    return discovered.size();
  }

  /** The bytes of {@link #outstandingFiles()} (Spark's {@code numBytesOutstanding}). */
  public long outstandingBytes() {
    return discovered.stream().mapToLong(size).sum();
  }

  /** Nothing discovered is left to admit and nothing admitted is left to hand out. */
  public boolean drained() {
    return discovered.isEmpty() && pending.isEmpty();
  }

  /** As many readers wait for work as the source has subtasks. */
  public boolean allReadersWaiting() {
    return waiting.all();
  }

  /** Splits a failed reader had, to hand out again first, in their order. */
  public void addBack(List<S> splits, int subtaskId) {
    List<S> back = new ArrayList<>(splits);
    Collections.reverse(back);
    back.forEach(pending::addFirst);
    waiting.remove(subtaskId);
  }

  /** The admitted splits not handed out yet, for a checkpoint. */
  public List<S> pending() {
    return new ArrayList<>(pending);
  }

  /** A new epoch starts (a checkpoint was taken): its limits count from zero. */
  public void startEpoch() {
    quota.startEpoch();
  }
}
