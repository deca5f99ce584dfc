package io.lakestream.connectors.autoloader.discovery;

import io.lakestream.api.annotation.Internal;
import java.io.Closeable;
import java.io.IOException;
import java.net.URI;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Lists the files under an input directory in ascending key order (the key is the path relative to
 * the directory), starting after a given key, the way S3's {@code ListObjectsV2} does with {@code
 * start-after}. An incremental listing passes the last key it has seen and costs calls in
 * proportion to what is new; a full listing passes {@code ""}.
 *
 * <p>Files and directories whose name starts with {@code _} or {@code .} are skipped (Spark's
 * hidden-file rule: {@code _SUCCESS}, {@code .tmp} uploads, {@code _schemas}).
 */
@Internal
public interface FileLister extends Closeable {

  /**
   * Up to {@code maxFiles} files with a key greater than {@code startAfter}, in key order.
   *
   * @throws IOException if the store cannot be listed (the message names the directory)
   */
  FileListing listAfter(String startAfter, int maxFiles) throws IOException;

  /** Whether {@code key} (relative) belongs to a hidden file or lies under a hidden directory. */
  static boolean hidden(String key) {
    for (String segment : key.split("/")) {
      if (segment.startsWith("_") || segment.startsWith(".")) {
        return true;
      }
    }
    return false;
  }

  /**
   * A lister for {@code inputPath}: S3 requests with {@code start-after} for {@code s3a://}, a
   * pruned directory walk for every other Hadoop file system.
   *
   * @param hadoopConf Hadoop settings (e.g. {@code fs.s3a.*})
   * @throws IOException if the file system cannot be opened
   */
  static FileLister open(String inputPath, Map<String, String> hadoopConf) throws IOException {
    Configuration conf = new Configuration();
    hadoopConf.forEach(conf::set);
    URI uri = URI.create(inputPath);
    FileSystem fs = FileSystem.newInstance(uri, conf);
    if (fs.getClass().getName().equals("org.apache.hadoop.fs.s3a.S3AFileSystem")) {
      return new S3ObjectLister((org.apache.hadoop.fs.s3a.S3AFileSystem) fs, uri);
    }
    return new HadoopTreeLister(fs, new Path(uri));
  }
}
