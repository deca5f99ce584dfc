package io.lakestream.connectors.autoloader.discovery;

import io.lakestream.api.annotation.Internal;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Start-after listing on a hierarchical Hadoop file system (local disk, HDFS): walks the directory
 * tree in key order and does not enter a directory whose keys all sort at or before {@code
 * startAfter}. With a date-partitioned layout an incremental listing thus lists only the newest
 * directories on the path to the last seen key plus what follows it, not the whole history. Each
 * {@code listStatus} call counts as one listing call.
 */
@Internal
public final class HadoopTreeLister implements FileLister {
  private final FileSystem fs;
  private final Path root;

  public HadoopTreeLister(FileSystem fs, Path root) {
    this.fs = fs;
    this.root = root;
  }

  @Override
  public FileListing listAfter(String startAfter, int maxFiles) throws IOException {
    List<DiscoveredFile> files = new ArrayList<>();
    int[] calls = {0};
    boolean truncated;
    try {
      truncated = walk(root, "", startAfter, maxFiles, files, calls);
    } catch (FileNotFoundException e) {
      throw new FileNotFoundException(
          "Auto Loader input path " + root + " does not exist: create it or fix the path");
    }
    return new FileListing(files, truncated, calls[0]);
  }

  /** Returns whether it stopped at {@code maxFiles}. */
  private boolean walk(
      Path dir,
      String prefix,
      String startAfter,
      int maxFiles,
      List<DiscoveredFile> out,
      int[] calls)
      throws IOException {
    calls[0]++;
    FileStatus[] entries = fs.listStatus(dir);
    // keys under a directory d all start with "d/": sorting directories as "d/" keeps key order
    Arrays.sort(entries, Comparator.comparing(HadoopTreeLister::sortKey));
    for (FileStatus entry : entries) {
      String name = entry.getPath().getName();
      if (name.startsWith("_") || name.startsWith(".")) {
        continue;
      }
      if (entry.isDirectory()) {
        String dirKey = prefix + name + "/";
        if (startAfter.startsWith(dirKey) || dirKey.compareTo(startAfter) > 0) {
          if (walk(entry.getPath(), dirKey, startAfter, maxFiles, out, calls)) {
            return true;
          }
        }
      } else {
        String key = prefix + name;
        if (key.compareTo(startAfter) > 0) {
          if (out.size() >= maxFiles) {
            return true;
          }
          out.add(new DiscoveredFile(key, entry.getLen(), entry.getModificationTime()));
        }
      }
    }
    return false;
  }

  private static String sortKey(FileStatus status) {
    return status.isDirectory() ? status.getPath().getName() + "/" : status.getPath().getName();
  }

  @Override
  public void close() throws IOException {
    fs.close();
  }
}
