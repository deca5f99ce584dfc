package io.lakestream.connectors.autoloader.source.split;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.autoloader.discovery.DiscoveredFile;
import java.util.List;
import java.util.Objects;
import org.apache.flink.api.connector.source.SourceSplit;

/**
 * Discovered files handed to one discovery reader, which emits them in order. A checkpointed split
 * holds only the files not yet emitted.
 *
 * @param id unique within the query ({@code files-<n>})
 * @param files files still to emit, in order
 */
@Internal
public record FileBatchSplit(String id, List<DiscoveredFile> files) implements SourceSplit {
  public FileBatchSplit {
    Objects.requireNonNull(id, "id");
    files = List.copyOf(files);
  }

  @Override
  public String splitId() {
    return id;
  }
}
