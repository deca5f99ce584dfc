package io.lakestream.connectors.autoloader.source.reader;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.autoloader.discovery.DiscoveredFile;
import io.lakestream.connectors.autoloader.source.split.FileBatchSplit;
import io.lakestream.connectors.source.OnDemandSplitQueue;
import java.util.ArrayList;
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
@Internal
public final class FileBatchReader implements SourceReader<DiscoveredFile, FileBatchSplit> {
  private final OnDemandSplitQueue<FileBatchSplit> splits;
  private int emittedOfFirst;

  public FileBatchReader(SourceReaderContext context) {
    this.splits = new OnDemandSplitQueue<>(context);
  }

  @Override
  public void start() {
    splits.request();
  }

  @Override
  public InputStatus pollNext(ReaderOutput<DiscoveredFile> output) {
    FileBatchSplit split = splits.peek();
    while (split != null && emittedOfFirst >= split.files().size()) {
      splits.finishHead();
      emittedOfFirst = 0;
      split = splits.peek();
    }
    if (split == null) {
      return splits.whenEmpty();
    }
    output.collect(split.files().get(emittedOfFirst++));
    return InputStatus.MORE_AVAILABLE;
  }

  @Override
  public CompletableFuture<Void> isAvailable() {
    return splits.isAvailable();
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
    splits.add(added);
  }

  @Override
  public void notifyNoMoreSplits() {
    splits.noMoreSplits();
  }

  @Override
  public void close() {}
}
