package io.lakestream.connectors.jdbc.source.enumerator;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.jdbc.source.split.JdbcPartitionSplit;
import io.lakestream.connectors.source.EpochPositions;
import io.lakestream.connectors.source.SplitCaughtUp;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;

/**
 * Hands one partition at a time to the reader that asks (so fast readers take more), and tells a
 * reader there are no more once none is left. A reader that has read all it was given and was told
 * there are no more reports {@link SplitCaughtUp} with id {@code reader-<subtask>}; in an
 * availableNow run the enumerator signals the runner once every reader has, which is when every
 * partition has been emitted to its end.
 */
@Internal
public final class JdbcEnumerator
    implements SplitEnumerator<JdbcPartitionSplit, JdbcEnumeratorState> {
  private final SplitEnumeratorContext<JdbcPartitionSplit> context;
  private final int partitions;
  private final Deque<JdbcPartitionSplit> unassigned;
  private final EpochPositions positions;

  public JdbcEnumerator(
      SplitEnumeratorContext<JdbcPartitionSplit> context,
      JdbcEnumeratorState state,
      EpochPositions positions) {
    this.context = context;
    this.partitions = state.partitions();
    this.unassigned = new ArrayDeque<>(state.unassigned());
    this.positions = positions;
  }

  @Override
  public void start() {}

  @Override
  public void handleSplitRequest(int subtaskId, String requesterHostname) {
    JdbcPartitionSplit next = unassigned.poll();
    if (next != null) {
      context.assignSplit(next, subtaskId);
    } else {
      context.signalNoMoreSplits(subtaskId);
    }
  }

  @Override
  public void addSplitsBack(List<JdbcPartitionSplit> splits, int subtaskId) {
    splits.forEach(unassigned::addFirst);
  }

  @Override
  public void addReader(int subtaskId) {}

  @Override
  public void handleSourceEvent(int subtaskId, SourceEvent event) {
    if (event instanceof SplitCaughtUp caughtUp) {
      positions.onCaughtUp(caughtUp.splitId(), context.currentParallelism());
    }
  }

  @Override
  public JdbcEnumeratorState snapshotState(long checkpointId) {
    return new JdbcEnumeratorState(partitions, List.copyOf(unassigned));
  }

  @Override
  public void close() {}
}
