package io.lakestream.connectors.delta.cdf.source.reader;

import io.lakestream.connectors.delta.cdf.DeltaChangeFileReader;
import io.lakestream.connectors.delta.cdf.source.split.DeltaCdfSplit;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.types.Row;

/**
 * Reads its change files one after the other and emits their change rows as {@link Row}s (the
 * table's columns, then {@code _change_type}, {@code _commit_version}, {@code _commit_timestamp}).
 * Asks the enumerator for a file whenever it has none. Its checkpoint holds the files it has not
 * finished and, for the current one, how many rows it emitted: a restored reader reopens that file
 * and skips them, so no change row is lost or repeated.
 *
 * <p>Reads happen in the task thread, one Parquet batch at a time. A read failure fails the task
 * (the message names the file).
 */
public final class DeltaCdfSourceReader implements SourceReader<Row, DeltaCdfSplit> {
  /** Rows emitted per {@link #pollNext} call at most. */
  private static final int ROWS_PER_POLL = 512;

  private final SourceReaderContext context;
  private final DeltaChangeFileReader files;
  private final Deque<DeltaCdfSplit> splits = new ArrayDeque<>();
  private CompletableFuture<Void> available = new CompletableFuture<>();
  private DeltaChangeFileReader.Rows current;
  private long emitted;
  private boolean requested;

  public DeltaCdfSourceReader(SourceReaderContext context, DeltaChangeFileReader files) {
    this.context = context;
    this.files = files;
  }

  @Override
  public void start() {
    if (splits.isEmpty()) {
      request();
    }
  }

  private void request() {
    if (!requested) {
      requested = true;
      context.sendSplitRequest();
    }
  }

  @Override
  public InputStatus pollNext(ReaderOutput<Row> output) throws Exception {
    if (current == null) {
      DeltaCdfSplit split = splits.peek();
      if (split == null) {
        request();
        if (available.isDone()) {
          available = new CompletableFuture<>();
        }
        return InputStatus.NOTHING_AVAILABLE;
      }
      current = files.open(split.file());
      emitted = 0;
      while (emitted < split.rowsToSkip() && current.hasNext()) {
        current.next();
        emitted++;
      }
    }
    for (int i = 0; i < ROWS_PER_POLL; i++) {
      if (!current.hasNext()) {
        current.close();
        current = null;
        splits.poll();
        return InputStatus.MORE_AVAILABLE;
      }
      output.collect(Row.of(current.next()));
      emitted++;
    }
    return InputStatus.MORE_AVAILABLE;
  }

  @Override
  public CompletableFuture<Void> isAvailable() {
    return available;
  }

  @Override
  public List<DeltaCdfSplit> snapshotState(long checkpointId) {
    List<DeltaCdfSplit> state = new ArrayList<>(splits.size());
    for (DeltaCdfSplit split : splits) {
      if (current != null && state.isEmpty()) {
        state.add(new DeltaCdfSplit(split.file(), emitted));
      } else {
        state.add(split);
      }
    }
    return state;
  }

  @Override
  public void addSplits(List<DeltaCdfSplit> added) {
    splits.addAll(added);
    requested = false;
    available.complete(null);
  }

  @Override
  public void notifyNoMoreSplits() {
    // an unbounded stream: the enumerator never signals the end
  }

  @Override
  public void close() throws Exception {
    if (current != null) {
      current.close();
    }
  }
}
