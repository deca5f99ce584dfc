package io.lakestream.connectors.source;

import io.lakestream.api.annotation.Internal;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;

/**
 * The readers that asked their enumerator for work ({@code handleSplitRequest}) and got none yet,
 * in the order they asked; hands them splits, first come first served. Readers that are no longer
 * registered (they failed) are dropped before each round of assignments.
 *
 * <p>Not thread-safe: used from the enumerator's coordinator thread.
 *
 * @param <S> the split type
 */
@Internal
public final class WaitingReaders<S extends SourceSplit> {
  private final SplitEnumeratorContext<S> context;
  private final Set<Integer> waiting = new LinkedHashSet<>();

  public WaitingReaders(SplitEnumeratorContext<S> context) {
    this.context = context;
  }

  /** Reader {@code subtaskId} asks for work. */
  public void add(int subtaskId) {
    waiting.add(subtaskId);
  }

  /** Reader {@code subtaskId} no longer waits (it failed: its splits came back). */
  public void remove(int subtaskId) {
    waiting.remove(subtaskId);
  }

  /** Whether no reader waits. */
  public boolean isEmpty() {
    return waiting.isEmpty();
  }

  /** The waiting readers' subtask ids, in the order they asked (a read-only view). */
  public Set<Integer> subtasks() {
    return Collections.unmodifiableSet(waiting);
  }

  /** As many readers wait as the source has subtasks. */
  public boolean all() {
    return waiting.size() >= context.currentParallelism();
  }

  /**
   * Hands the splits {@code next} gives to the waiting readers, one each in the order they asked,
   * until no reader waits or {@code next} has no split left (returns null).
   */
  public void assign(Supplier<S> next) {
    waiting.retainAll(context.registeredReaders().keySet());
    while (!waiting.isEmpty()) {
      S split = next.get();
      if (split == null) {
        break;
      }
      int reader = waiting.iterator().next();
      waiting.remove(reader);
      context.assignSplit(split, reader);
    }
  }
}
