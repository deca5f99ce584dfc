package io.lakestream.connectors.rate.source.reader;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.rate.source.split.SequenceSplit;
import io.lakestream.connectors.source.PositionReport;
import io.lakestream.connectors.source.ReplayedEpochs;
import io.lakestream.connectors.source.SplitCaughtUp;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.core.io.InputStatus;

/**
 * Reads its partitions round-robin up to the end available in this run, then idles (it never
 * finishes, so the job can stop with a savepoint and resume later).
 *
 * <p>Rate limits: at most {@code rowsPerSecond} (its share) and at most {@code maxRowsPerTrigger}
 * (its share) per epoch; a new epoch starts when a checkpoint is taken. With {@code
 * ignoreRateLimits} (trigger once) neither applies.
 *
 * <p>After a restore from an older snapshot it first replays the epochs a later run committed, each
 * ending exactly where it originally did ({@link ReplayedEpochs}), without rate limits.
 */
@Internal
public final class SequenceReader<T> implements SourceReader<T, SequenceSplit> {
  /**
   * Rows one {@code pollNext} emits at most (from one partition, within the rows-per-second
   * allowance; one row under {@code maxRowsPerTrigger}) in production: a few hundred rows per call
   * spare the task's mailbox loop a round per row and delay a checkpoint barrier by microseconds
   * only.
   */
  public static final int DEFAULT_ROWS_PER_POLL = 256;

  private final SourceReaderContext context;
  private final GeneratorFunction<Long, T> generator;
  private final long rows;
  private final int partitions;
  private final double rowsPerSecond;
  private final long maxRowsPerTrigger;
  private final boolean ignoreRateLimits;
  private final ReplayedEpochs replay;
  private final int rowsPerPoll;

  private final List<long[]> splits = new ArrayList<>(); // {partition, nextOffset, endOffset}
  private final Map<Integer, Boolean> reportedCaughtUp = new HashMap<>();
  private CompletableFuture<Void> available = new CompletableFuture<>();
  private int cursor;
  private long emittedThisEpoch;
  private long epoch;
  private long emittedTotal;
  private boolean replayEpochEmitted;
  private long startNanos;

  public SequenceReader(
      SourceReaderContext context,
      GeneratorFunction<Long, T> generator,
      long rows,
      int partitions,
      long rowsPerSecond,
      long maxRowsPerTrigger,
      boolean ignoreRateLimits,
      ReplayedEpochs replay,
      int rowsPerPoll) {
    if (rowsPerPoll < 1) {
      throw new IllegalArgumentException("rowsPerPoll must be at least 1, was " + rowsPerPoll);
    }
    this.context = context;
    this.generator = generator;
    this.rows = rows;
    this.partitions = partitions;
    this.rowsPerSecond = rowsPerSecond;
    this.maxRowsPerTrigger = maxRowsPerTrigger;
    this.ignoreRateLimits = ignoreRateLimits;
    this.replay = replay;
    this.rowsPerPoll = rowsPerPoll;
  }

  @Override
  public void start() {
    try {
      generator.open(context);
    } catch (Exception e) {
      throw new IllegalStateException("could not open the row generator", e);
    }
    startNanos = System.nanoTime();
  }

  @Override
  public InputStatus pollNext(ReaderOutput<T> output) throws Exception {
    if (replay.isReplaying()) {
      if (!replayEpochEmitted) {
        emitReplayedEpoch(output);
        replayEpochEmitted = true;
      }
      return idle(); // the epoch ends at the next checkpoint
    }
    long allowedNow = rowsPerPoll;
    if (!ignoreRateLimits) {
      if (maxRowsPerTrigger > 0) {
        if (emittedThisEpoch >= epochBudget()) {
          return idle(); // resumes at the next checkpoint (epoch)
        }
        allowedNow = 1; // one row per partition in turn: the budget spreads evenly over them
      }
      if (rowsPerSecond > 0) {
        double allowed = (System.nanoTime() - startNanos) / 1e9 * rowsPerSecond * mine() + 1;
        if (emittedTotal >= allowed) {
          return waitFor(
              (long) Math.ceil((emittedTotal - allowed + 1) * 1000 / (rowsPerSecond * mine())));
        }
        allowedNow = Math.min(allowedNow, (long) Math.ceil(allowed - emittedTotal));
      }
    }
    for (int tries = 0; tries < splits.size(); tries++) {
      long[] split = splits.get(cursor);
      cursor = (cursor + 1) % splits.size();
      if (split[1] < split[2]) {
        long end = Math.min(split[2], split[1] + allowedNow);
        int partition = (int) split[0];
        while (split[1] < end) {
          output.collect(generator.map(SequenceSplit.rowIndex(split[1], partition, partitions)));
          split[1]++;
          emittedThisEpoch++;
          emittedTotal++;
        }
        if (split[1] == split[2]) {
          reportCaughtUp(split);
        }
        return InputStatus.MORE_AVAILABLE;
      }
      reportCaughtUp(split);
    }
    return idle();
  }

  /** All rows of the replayed epoch at once, so that no checkpoint can cut into it. */
  private void emitReplayedEpoch(ReaderOutput<T> output) throws Exception {
    Map<String, Long> ends = replay.nextEpochEnds();
    for (long[] split : splits) {
      long end = Math.min(split[2], ends.getOrDefault(splitId(split), split[1]));
      while (split[1] < end) {
        output.collect(generator.map(SequenceSplit.rowIndex(split[1], (int) split[0], partitions)));
        split[1]++;
        emittedTotal++;
      }
    }
  }

  private static String splitId(long[] split) {
    return new SequenceSplit((int) split[0], 0).splitId();
  }

  /** This reader's fraction of all partitions. */
  private double mine() {
    return splits.isEmpty() ? 1.0 : (double) splits.size() / partitions;
  }

  /**
   * This reader's rows for the current epoch: {@code maxRowsPerTrigger} split evenly over all
   * partitions, the remainder going to partitions that rotate with the epoch, so the readers
   * together never exceed the limit and every partition progresses.
   */
  private long epochBudget() {
    long base = maxRowsPerTrigger / partitions;
    long remainder = maxRowsPerTrigger % partitions;
    long budget = 0;
    for (long[] split : splits) {
      long p = split[0];
      budget += base + (Math.floorMod(p - epoch, partitions) < remainder ? 1 : 0);
    }
    return budget;
  }

  private void reportCaughtUp(long[] split) {
    int partition = (int) split[0];
    if (reportedCaughtUp.putIfAbsent(partition, true) == null) {
      context.sendSourceEventToCoordinator(new SplitCaughtUp("partition-" + partition));
    }
  }

  private InputStatus idle() {
    if (available.isDone()) {
      available = new CompletableFuture<>();
    }
    return InputStatus.NOTHING_AVAILABLE;
  }

  private InputStatus waitFor(long millis) {
    CompletableFuture<Void> later = new CompletableFuture<>();
    CompletableFuture.delayedExecutor(Math.max(1, millis), TimeUnit.MILLISECONDS)
        .execute(() -> later.complete(null));
    available = later;
    return InputStatus.NOTHING_AVAILABLE;
  }

  @Override
  public CompletableFuture<Void> isAvailable() {
    return available;
  }

  @Override
  public List<SequenceSplit> snapshotState(long checkpointId) {
    List<SequenceSplit> state = new ArrayList<>();
    Map<String, Long> positions = new HashMap<>();
    for (long[] split : splits) {
      SequenceSplit s = new SequenceSplit((int) split[0], split[1], checkpointId);
      state.add(s);
      positions.put(s.splitId(), s.nextOffset());
    }
    replay.onSnapshot(checkpointId, positions);
    replayEpochEmitted = false;
    context.sendSourceEventToCoordinator(new PositionReport(checkpointId, positions));
    emittedThisEpoch = 0;
    epoch = checkpointId;
    available.complete(null);
    return state;
  }

  @Override
  public void addSplits(List<SequenceSplit> added) {
    for (SequenceSplit split : added) {
      replay.restoredAt(split.epoch());
      long end = SequenceSplit.endOffset(rows, split.partition(), partitions);
      splits.add(new long[] {split.partition(), split.nextOffset(), end});
    }
    available.complete(null);
  }

  @Override
  public void notifyNoMoreSplits() {
    if (splits.isEmpty()) {
      // A reader without partitions has caught up from the start; nothing to report.
      available.complete(null);
    }
  }

  @Override
  public void close() {}
}
