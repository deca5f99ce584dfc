package io.lakestream.connectors.autoloader.discovery;

import io.lakestream.api.annotation.Internal;
import java.util.List;

/**
 * One page of a listing in key order.
 *
 * @param files files with a key after the listing's start, in ascending key order
 * @param truncated whether more files follow the last one (list again from its key)
 * @param calls listing calls (S3 LIST requests, directory listings) this page took
 */
@Internal
public record FileListing(List<DiscoveredFile> files, boolean truncated, int calls) {
  public FileListing {
    files = List.copyOf(files);
  }

  /** The key of the last file, or {@code after} when the page is empty. */
  public String lastKey(String after) {
    return files.isEmpty() ? after : files.get(files.size() - 1).key;
  }
}
