package io.lakestream.connectors.delta.source.reader;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.delta.DeltaFileRows;
import io.lakestream.connectors.delta.DeltaTableException;
import io.lakestream.connectors.delta.source.split.DeltaFileSplit;
import io.lakestream.connectors.source.OnDemandSplitQueue;
import io.lakestream.state.query.InputRowCount;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.types.Row;

/**
 * A reader of splits that each name one Delta file: reads the files one after the other and emits
 * their rows as {@link Row}s, asking the enumerator for a file whenever it has none. Its checkpoint
 * holds the splits it has not finished and, for the current one, how many rows it emitted: a
 * restored reader reopens that file and skips them, so no row is lost or repeated.
 *
 * <p>Reads happen in the task thread, one Parquet batch at a time, so a checkpoint waits at most
 * for one batch. A read failure fails the task (the message names the file). Once told there are no
 * more splits, it ends its input after the last one.
 *
 * @param <S> the split type
 */
@Internal
public abstract class DeltaFileSplitReader<S extends DeltaFileSplit<?, S>>
    implements SourceReader<Row, S> {
  /** Opens the file of a split. */
  @FunctionalInterface
  public interface FileOpener<S> {
    /**
     * Opens the file of {@code split} from its first row.
     *
     * @throws DeltaTableException if the file cannot be opened
     */
    DeltaFileRows open(S split);
  }

  /** Rows emitted per {@link #pollNext} call at most. */
  private static final int ROWS_PER_POLL = 512;

  private final OnDemandSplitQueue<S> splits;
  private final FileOpener<S> files;
  private final NestedRowValues nested;
  private final InputRowCount inputRows;
  private DeltaFileRows current;
  private long emitted;

  /**
   * @param nested turns the nested values of the rows read into those of the source's row type
   * @param inputRows counts the rows emitted per epoch, for progress
   */
  protected DeltaFileSplitReader(
      SourceReaderContext context,
      FileOpener<S> files,
      NestedRowValues nested,
      InputRowCount inputRows) {
    this.splits = new OnDemandSplitQueue<>(context);
    this.files = files;
    this.nested = nested;
    this.inputRows = inputRows;
  }

  @Override
  public void start() {
    if (splits.size() == 0) {
      splits.request();
    }
  }

  @Override
  public InputStatus pollNext(ReaderOutput<Row> output) throws Exception {
    if (current == null) {
      S split = splits.peek();
      if (split == null) {
        return splits.whenEmpty();
      }
      current = files.open(split);
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
        splits.finishHead();
        return InputStatus.MORE_AVAILABLE;
      }
      output.collect(Row.of(nested.apply(current.next())));
      emitted++;
      inputRows.add(1);
    }
    return InputStatus.MORE_AVAILABLE;
  }

  @Override
  public CompletableFuture<Void> isAvailable() {
    return splits.isAvailable();
  }

  @Override
  public List<S> snapshotState(long checkpointId) {
    try {
      inputRows.record(checkpointId);
    } catch (IOException e) {
      throw new UncheckedIOException("could not record the input rows of epoch " + checkpointId, e);
    }
    List<S> state = new ArrayList<>(splits.size());
    for (S split : splits) {
      if (current != null && state.isEmpty()) {
        state.add(split.withRowsToSkip(emitted));
      } else {
        state.add(split);
      }
    }
    return state;
  }

  @Override
  public void addSplits(List<S> added) {
    splits.add(added);
  }

  @Override
  public void notifyNoMoreSplits() {
    splits.noMoreSplits();
  }

  @Override
  public void close() throws Exception {
    if (current != null) {
      current.close();
    }
  }
}
