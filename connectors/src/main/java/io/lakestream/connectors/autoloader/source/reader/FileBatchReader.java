package io.lakestream.connectors.autoloader.source.reader;

import io.lakestream.connectors.autoloader.discovery.DiscoveredFile;
import io.lakestream.connectors.autoloader.source.split.FileBatchSplit;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.core.io.InputStatus;

/**
 * Emits the discovered files of its splits, one per {@link #pollNext} call, and asks the enumerator
 * for more when it has none. Its checkpoint holds the files not yet emitted; a file is emitted
 * exactly once per checkpointed position. Reading the files is the file ledger's job downstream.
 */
public final class FileBatchReader implements SourceReader<DiscoveredFile, FileBatchSplit> {
  private final SourceReaderContext context;
  private final Deque<FileBatchSplit> splits = new ArrayDeque<>();
  private int emittedOfFirst;
  private CompletableFuture<Void> available = new CompletableFuture<>();
  private boolean requested;
  private boolean noMoreSplits;

  public FileBatchReader(SourceReaderContext context) {
    this.context = context;
  }

  @Override
  public void start() {
    request();
  }

  private void request() {
    if (!requested) {
      requested = true;
      context.sendSplitRequest();
    }
  }

  @Override
  public InputStatus pollNext(ReaderOutput<DiscoveredFile> output) {
    FileBatchSplit split = splits.peek();
    while (split != null && emittedOfFirst >= split.files().size()) {
      splits.poll();
      emittedOfFirst = 0;
      split = splits.peek();
    }
    if (split == null) {
      if (noMoreSplits) {
        return InputStatus.END_OF_INPUT;
      }
      request();
      if (available.isDone()) {
        available = new CompletableFuture<>();
      }
      return InputStatus.NOTHING_AVAILABLE;
    }
    output.collect(split.files().get(emittedOfFirst++));
    return InputStatus.MORE_AVAILABLE;
  }

  @Override
  public CompletableFuture<Void> isAvailable() {
    return available;
  }

  @Override
  public List<FileBatchSplit> snapshotState(long checkpointId) {
    List<FileBatchSplit> state = new ArrayList<>(splits.size());
    boolean first = true;
    for (FileBatchSplit split : splits) {
      List<DiscoveredFile> left = split.files();
      if (first) {
        left = left.subList(Math.min(emittedOfFirst, left.size()), left.size());
        first = false;
      }
      if (!left.isEmpty()) {
        state.add(new FileBatchSplit(split.id(), left));
      }
    }
    return state;
  }

  @Override
  public void addSplits(List<FileBatchSplit> added) {
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
  public void close() {}
}
