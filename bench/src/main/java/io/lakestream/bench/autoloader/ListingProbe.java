package io.lakestream.bench.autoloader;

import io.lakestream.connectors.autoloader.discovery.FileLister;
import io.lakestream.connectors.autoloader.discovery.FileListing;
import java.io.IOException;
import java.util.Collection;
import java.util.Map;
import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.enumerate.NonSplittingRecursiveEnumerator;
import org.apache.flink.core.fs.Path;

/**
 * One discovery pass of each side, run alone against the counting proxy so its S3 requests are
 * exactly its own: lakestream's start-after listing ({@link FileLister#listAfter}) from a cursor
 * (incremental) or from the start (full relisting), and Flink FileSource's discovery pass ({@link
 * NonSplittingRecursiveEnumerator#enumerateSplits}, what {@code monitorContinuously} runs every
 * interval for a text file source).
 */
final class ListingProbe {

  /**
   * One pass's cost.
   *
   * @param files files the pass returned
   * @param lists S3 LIST requests counted by the proxy
   * @param heads S3 HEAD requests counted by the proxy
   * @param listerCalls calls the lister reported itself (-1 for FileSource)
   * @param millis wall time of the pass
   */
  record Pass(long files, long lists, long heads, long listerCalls, double millis) {}

  private final S3RequestCounter counter;

  ListingProbe(S3RequestCounter counter) {
    this.counter = counter;
  }

  /** lakestream's listing of every file after {@code startAfter} ({@code ""}: a full relisting). */
  Pass lakestream(String root, Map<String, String> hadoopConf, String startAfter)
      throws IOException {
    try (FileLister lister = FileLister.open(root, hadoopConf)) {
      long lists = counter.lists();
      long heads = counter.heads();
      long start = System.nanoTime();
      long files = 0;
      long calls = 0;
      String after = startAfter;
      while (true) {
        FileListing page = lister.listAfter(after, Integer.MAX_VALUE);
        files += page.files().size();
        calls += page.calls();
        after = page.lastKey(after);
        if (!page.truncated()) {
          break;
        }
      }
      double millis = (System.nanoTime() - start) / 1e6;
      return new Pass(files, counter.lists() - lists, counter.heads() - heads, calls, millis);
    }
  }

  /** FileSource's discovery pass over {@code root} (Flink's file system for its scheme). */
  Pass fileSource(String root) throws IOException {
    long lists = counter.lists();
    long heads = counter.heads();
    long start = System.nanoTime();
    Collection<FileSourceSplit> splits =
        new NonSplittingRecursiveEnumerator().enumerateSplits(new Path[] {new Path(root)}, 1);
    double millis = (System.nanoTime() - start) / 1e6;
    return new Pass(splits.size(), counter.lists() - lists, counter.heads() - heads, -1, millis);
  }
}
