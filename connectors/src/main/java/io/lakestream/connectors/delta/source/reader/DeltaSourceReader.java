package io.lakestream.connectors.delta.source.reader;

import io.lakestream.connectors.delta.DeltaDataFileReader;
import io.lakestream.connectors.delta.source.split.DeltaSourceSplit;
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
 * Reads its Delta data files one after the other and emits their rows as {@link Row}s in the
 * table's column order (partition columns included). Asks the enumerator for a file whenever it has
 * none. Its checkpoint holds the files it has not finished and, for the current one, how many rows
 * it emitted: a restored reader reopens that file and skips them, so no row is lost or repeated.
 *
 * <p>Reads happen in the task thread, one Parquet batch at a time, so a checkpoint waits at most
 * for one batch. A read failure fails the task (the message names the file).
 */
public final class DeltaSourceReader implements SourceReader<Row, DeltaSourceSplit> {
  /** Rows emitted per {@link #pollNext} call at most. */
  private static final int ROWS_PER_POLL = 512;

  private final SourceReaderContext context;
  private final DeltaDataFileReader files;
  private final Deque<DeltaSourceSplit> splits = new ArrayDeque<>();
  private CompletableFuture<Void> available = new CompletableFuture<>();
  private DeltaDataFileReader.Rows current;
  private long emitted;
  private boolean requested;
  private boolean noMoreSplits;

  public DeltaSourceReader(SourceReaderContext context, DeltaDataFileReader files) {
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
      DeltaSourceSplit split = splits.peek();
      if (split == null) {
        if (noMoreSplits) {
          return InputStatus.END_OF_INPUT;
        }
        request();
        return idle();
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

  private InputStatus idle() {
    if (available.isDone()) {
      available = new CompletableFuture<>();
    }
    return InputStatus.NOTHING_AVAILABLE;
  }

  @Override
  public CompletableFuture<Void> isAvailable() {
    return available;
  }

  @Override
  public List<DeltaSourceSplit> snapshotState(long checkpointId) {
    List<DeltaSourceSplit> state = new ArrayList<>(splits.size());
    for (DeltaSourceSplit split : splits) {
      if (current != null && state.isEmpty()) {
        state.add(new DeltaSourceSplit(split.file(), emitted));
      } else {
        state.add(split);
      }
    }
    return state;
  }

  @Override
  public void addSplits(List<DeltaSourceSplit> added) {
    splits.addAll(added);
    requested = false;
    available.complete(null);
  }

  @Override
  public void notifyNoMoreSplits() {
    noMoreSplits = true;
    available.complete(null);
  }

  @Override
  public void close() throws Exception {
    if (current != null) {
      current.close();
    }
  }
}
