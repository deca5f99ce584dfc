package io.lakestream.connectors.rate.source.enumerator;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.rate.source.split.SequenceSplit;
import io.lakestream.connectors.source.EpochPositions;
import io.lakestream.connectors.source.PositionReport;
import io.lakestream.connectors.source.SplitCaughtUp;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;

/**
 * Hands partition {@code p} to reader {@code p % parallelism}, records each epoch's offsets and
 * signals when an availableNow run has read every partition to its end.
 */
@Internal
public final class SequenceEnumerator
    implements SplitEnumerator<SequenceSplit, SequenceEnumeratorState> {
  private final SplitEnumeratorContext<SequenceSplit> context;
  private final int partitions;
  private final long rows;
  private final List<SequenceSplit> unassigned;
  private final EpochPositions positions;

  public SequenceEnumerator(
      SplitEnumeratorContext<SequenceSplit> context,
      SequenceEnumeratorState state,
      long rows,
      EpochPositions positions) {
    this.context = context;
    this.partitions = state.partitions();
    this.rows = rows;
    this.unassigned = new ArrayList<>(state.unassigned());
    this.positions = positions;
    Map<String, Long> seed = new TreeMap<>();
    for (SequenceSplit split : unassigned) {
      seed.put(split.splitId(), split.nextOffset());
    }
    positions.seed(seed);
  }

  @Override
  public void start() {}

  @Override
  public void handleSplitRequest(int subtaskId, String requesterHostname) {}

  @Override
  public void addSplitsBack(List<SequenceSplit> splits, int subtaskId) {
    unassigned.addAll(splits);
    if (context.registeredReaders().containsKey(subtaskId)) {
      assignPending();
    }
  }

  @Override
  public void addReader(int subtaskId) {
    assignPending();
  }

  private void assignPending() {
    int parallelism = context.currentParallelism();
    List<SequenceSplit> still = new ArrayList<>();
    for (SequenceSplit split : unassigned) {
      int owner = split.partition() % parallelism;
      if (context.registeredReaders().containsKey(owner)) {
        context.assignSplit(split, owner);
      } else {
        still.add(split);
      }
    }
    unassigned.clear();
    unassigned.addAll(still);
    if (unassigned.isEmpty()) {
      for (int reader : context.registeredReaders().keySet()) {
        context.signalNoMoreSplits(reader);
      }
    }
  }

  @Override
  public void handleSourceEvent(int subtaskId, SourceEvent event) {
    if (event instanceof PositionReport report) {
      positions.onReport(report);
    } else if (event instanceof SplitCaughtUp caughtUp) {
      positions.onCaughtUp(caughtUp.splitId(), partitions);
    }
  }

  @Override
  public SequenceEnumeratorState snapshotState(long checkpointId) {
    return new SequenceEnumeratorState(partitions, unassigned);
  }

  @Override
  public void notifyCheckpointComplete(long checkpointId) {
    Map<String, Long> ends = new TreeMap<>();
    if (rows != Long.MAX_VALUE) {
      for (int p = 0; p < partitions; p++) {
        ends.put("partition-" + p, SequenceSplit.endOffset(rows, p, partitions));
      }
    }
    positions.onCheckpointComplete(checkpointId, ends);
  }

  @Override
  public void close() {}
}
