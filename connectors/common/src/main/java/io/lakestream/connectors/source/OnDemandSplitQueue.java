package io.lakestream.connectors.source;

import io.lakestream.api.annotation.Internal;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.core.io.InputStatus;

/**
 * The splits a source reader holds when it pulls them from its enumerator one request at a time:
 * keeps them in arrival order, sends at most one split request until the enumerator answers, and
 * owns the reader's availability future, completed when splits or the end of the splits arrive.
 *
 * <p>Not thread-safe: Flink calls a source reader from its task thread only. A reader keeps the
 * split it is reading at the {@link #peek() head} until it has finished it, so a checkpoint taken
 * meanwhile still holds it.
 *
 * @param <S> the split type
 */
@Internal
public final class OnDemandSplitQueue<S extends SourceSplit> implements Iterable<S> {
  private final SourceReaderContext context;
  private final Deque<S> splits = new ArrayDeque<>();
  private CompletableFuture<Void> available = new CompletableFuture<>();
  private boolean requested;
  private boolean noMoreSplits;

  public OnDemandSplitQueue(SourceReaderContext context) {
    this.context = context;
  }

  /** Asks the enumerator for a split unless a request is still unanswered. */
  public void request() {
    if (!requested) {
      requested = true;
      context.sendSplitRequest();
    }
  }

  /** The split being read, or null when none is held. */
  public S peek() {
    return splits.peek();
  }

  /** Drops the finished head split. */
  public void finishHead() {
    splits.poll();
  }

  /** How many splits are held. */
  public int size() {
    return splits.size();
  }

  /**
   * What {@code pollNext} returns when no split is held: end of input once the enumerator has no
   * more splits, otherwise nothing available (with a split requested and the availability future
   * reset, so the task sleeps until the answer comes).
   */
  public InputStatus whenEmpty() {
    if (noMoreSplits) {
      return InputStatus.END_OF_INPUT;
    }
    request();
    if (available.isDone()) {
      available = new CompletableFuture<>();
    }
    return InputStatus.NOTHING_AVAILABLE;
  }

  /** For {@code SourceReader.isAvailable}. */
  public CompletableFuture<Void> isAvailable() {
    return available;
  }

  /** For {@code SourceReader.addSplits}: queues them and wakes the reader. */
  public void add(List<S> added) {
    splits.addAll(added);
    requested = false;
    available.complete(null);
  }

  /** For {@code SourceReader.notifyNoMoreSplits}: the queue ends once it is drained. */
  public void noMoreSplits() {
    noMoreSplits = true;
    available.complete(null);
  }

  /** The held splits, head first. */
  @Override
  public Iterator<S> iterator() {
    return splits.iterator();
  }
}
