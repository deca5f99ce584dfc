package io.lakestream.connectors.autoloader.clean;

import io.lakestream.api.annotation.Internal;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.Serializable;
import java.net.URI;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Deletes or moves one processed input file ({@code cloudFiles.cleanSource} DELETE or MOVE) through
 * Hadoop (local, HDFS, S3A: a move on S3 is a copy and a delete). It decides nothing about when:
 * the file ledger calls it only for files whose epoch was committed longer ago than {@link
 * #retentionMillis()}.
 *
 * <p>A file already gone counts as cleaned. A move whose destination exists while the source is
 * still there (an earlier move copied but did not delete) deletes the source. Other failures are
 * thrown as {@link IOException}; the caller logs them and tries again later.
 */
@Internal
public final class SourceCleaner implements Serializable {
  private static final long serialVersionUID = 1L;

  private final CleanSourceMode mode;
  private final String inputPath;
  private final String moveDestination;
  private final long retentionMillis;
  private final TreeMap<String, String> hadoopConf;
  private transient FileSystem fs;

  /**
   * @param moveDestination where MOVE puts files (same file system as the input, outside it); null
   *     for DELETE
   */
  public SourceCleaner(
      CleanSourceMode mode,
      String inputPath,
      String moveDestination,
      long retentionMillis,
      Map<String, String> hadoopConf) {
    if (mode == CleanSourceMode.OFF) {
      throw new IllegalArgumentException("cleanSource OFF needs no cleaner");
    }
    this.mode = mode;
    this.inputPath = inputPath.replaceAll("/+$", "");
    this.moveDestination = moveDestination == null ? null : moveDestination.replaceAll("/+$", "");
    this.retentionMillis = retentionMillis;
    this.hadoopConf = new TreeMap<>(hadoopConf);
  }

  public CleanSourceMode mode() {
    return mode;
  }

  /** How long after its commit a file is cleaned. */
  public long retentionMillis() {
    return retentionMillis;
  }

  /**
   * Deletes or moves the file {@code key} (relative to the input path).
   *
   * @return false if the file was already gone
   * @throws IOException if the file system refuses
   */
  public boolean clean(String key) throws IOException {
    FileSystem fs = fileSystem();
    Path source = new Path(inputPath + "/" + key);
    if (mode == CleanSourceMode.DELETE) {
      try {
        return fs.delete(source, false);
      } catch (FileNotFoundException e) {
        return false;
      }
    }
    Path target = new Path(moveDestination + "/" + key);
    fs.mkdirs(target.getParent());
    if (fs.rename(source, target)) {
      return true;
    }
    if (!fs.exists(source)) {
      return false;
    }
    if (fs.exists(target)) {
      fs.delete(source, false); // an earlier move copied it already
      return true;
    }
    throw new IOException("could not move " + source + " to " + target);
  }

  private FileSystem fileSystem() throws IOException {
    if (fs == null) {
      Configuration conf = new Configuration();
      hadoopConf.forEach(conf::set);
      fs = FileSystem.newInstance(URI.create(inputPath), conf);
    }
    return fs;
  }

  /** Closes the file system it opened. */
  public void close() throws IOException {
    if (fs != null) {
      fs.close();
      fs = null;
    }
  }
}
