package io.lakestream.connectors.delta.lease;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.delta.logstore.S3ConditionalPut;
import io.lakestream.state.checkpoint.CreateIfAbsent;
import java.io.IOException;
import java.net.URI;
import java.nio.file.FileAlreadyExistsException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * {@link CreateIfAbsent} on S3 for the checkpoint location's lease: {@link S3ConditionalPut}
 * through an S3A client of its own per bucket (not Hadoop's shared cache, whose clients carry the
 * settings of whichever table opened them first).
 */
@Internal
final class S3LeaseCreate implements CreateIfAbsent {
  private static final Map<String, String> HYPHENATED =
      Map.of(
          "fs.s3a.access-key", "fs.s3a.access.key",
          "fs.s3a.secret-key", "fs.s3a.secret.key",
          "fs.s3a.path-style-access", "fs.s3a.path.style.access");

  private final Configuration hadoopConf;
  private final Map<String, FileSystem> byBucket = new ConcurrentHashMap<>();

  S3LeaseCreate(Configuration hadoopConf) {
    this.hadoopConf = hadoopConf;
  }

  /**
   * The S3A settings in a Flink configuration, read as Flink's S3 file system reads them: {@code
   * s3.x}, {@code s3a.x} and {@code fs.s3a.x} all set {@code fs.s3a.x}, and the hyphenated keys
   * ({@code s3.access-key}, {@code s3.secret-key}, {@code s3.path-style-access}) set their dotted
   * S3A names.
   */
  static Configuration hadoopConfiguration(org.apache.flink.configuration.Configuration flink) {
    Configuration conf = new Configuration();
    for (Map.Entry<String, String> entry : flink.toMap().entrySet()) {
      String key = entry.getKey();
      String s3aKey =
          key.startsWith("fs.s3a.")
              ? key
              : key.startsWith("s3a.")
                  ? "fs.s3a." + key.substring("s3a.".length())
                  : key.startsWith("s3.") ? "fs.s3a." + key.substring("s3.".length()) : null;
      if (s3aKey != null) {
        conf.set(HYPHENATED.getOrDefault(s3aKey, s3aKey), entry.getValue());
      }
    }
    return conf;
  }

  @Override
  public boolean create(org.apache.flink.core.fs.Path path, byte[] contents) throws IOException {
    URI uri = path.toUri();
    Path s3a = new Path("s3a", uri.getHost(), uri.getPath());
    FileSystem fs = client(uri.getHost());
    if (!S3ConditionalPut.isSupported(fs, s3a)) {
      throw new IOException(
          "Cannot take the lease "
              + S3ConditionalPut.display(s3a)
              + " with a conditional PUT: its S3A client does not support "
              + S3ConditionalPut.CONDITIONAL_CREATE_OPTION
              + ". Use Hadoop S3A 3.4.2 or newer with s3.create.conditional.enabled (Flink"
              + " setting; fs.s3a.create.conditional.enabled in Hadoop) left at true.");
    }
    try {
      S3ConditionalPut.putIfAbsent(fs, s3a, contents, "another run created this lease first");
      return true;
    } catch (FileAlreadyExistsException e) {
      return false;
    }
  }

  private FileSystem client(String bucket) throws IOException {
    FileSystem known = byBucket.get(bucket);
    if (known == null) {
      known = FileSystem.newInstance(URI.create("s3a://" + bucket + "/"), hadoopConf);
      byBucket.put(bucket, known);
    }
    return known;
  }
}
