package io.lakestream.connectors.delta.logstore;

import io.delta.storage.HadoopFileSystemLogStore;
import io.lakestream.api.annotation.Internal;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.util.Iterator;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * A Delta {@code LogStore} for S3 through Hadoop S3A that makes commit files put-if-absent across
 * machines: {@code _delta_log/N.json} is written with an S3 conditional PUT ({@code If-None-Match:
 * *}, S3A's {@code createFile(path).must("fs.option.create.conditional.overwrite", true)}), so when
 * two writers race for version N exactly one PUT succeeds and the other gets {@link
 * FileAlreadyExistsException}, which Delta Kernel turns into a conflict: it rebases the losing
 * commit on the winner and retries it as N+1. Delta's default for {@code s3a} ({@code
 * S3SingleDriverLogStore}) only locks inside one JVM.
 *
 * <p>Kernel's default engine picks a log store per scheme from the Hadoop setting {@code
 * io.delta.kernel.logStore.<scheme>.impl}; {@link LogStoreSelection#applyTo} sets it for {@code
 * s3a} (and for {@code s3} when {@code fs.s3.impl} is S3A) unless the user chose a log store
 * already.
 *
 * <p>Failures:
 *
 * <ul>
 *   <li>the file exists already (found by S3A's existence check or by the PUT's HTTP 412): {@link
 *       FileAlreadyExistsException}, unless it holds exactly this commit (S3A retried a PUT that
 *       had succeeded), which counts as written;
 *   <li>the file system cannot write conditionally (not S3A, an S3A older than Hadoop 3.4.2, or
 *       {@code fs.s3a.create.conditional.enabled=false}): an {@link IOException} naming the cause;
 *       the log store never falls back to an unconditional write;
 *   <li>S3 answers 409 (a concurrent conditional PUT on the key was in flight): the PUT is retried
 *       up to {@value S3ConditionalPut#MAX_CONFLICT_ATTEMPTS} times, then the 409 is rethrown.
 * </ul>
 *
 * <p>Messages name the path without any user-info part, so keys never reach logs or exceptions.
 * Writes with {@code overwrite=true} (Kernel uses them for {@code _last_checkpoint}) are plain
 * PUTs. Reads and listings are Hadoop's ({@link HadoopFileSystemLogStore}). Instances are cheap
 * (Kernel creates one per operation); S3A clients are shared through Hadoop's {@code FileSystem}
 * cache.
 *
 * <p>Cluster requirements (hadoop-aws and the AWS SDK v2 at runtime) are in {@code
 * connectors/README-s3.md}.
 */
@Internal
public final class S3ConditionalPutLogStore extends HadoopFileSystemLogStore {
  /** Hadoop's {@code createFile()} option for a PUT that fails if the object exists. */
  public static final String CONDITIONAL_CREATE_OPTION = S3ConditionalPut.CONDITIONAL_CREATE_OPTION;

  /** Called by Kernel's log store provider with the engine's Hadoop configuration. */
  public S3ConditionalPutLogStore(Configuration initHadoopConf) {
    super(initHadoopConf);
  }

  /**
   * Writes {@code actions}, one per line. With {@code overwrite=false} the file is created only if
   * absent, atomically across writers.
   *
   * @throws FileAlreadyExistsException if {@code overwrite} is false and the file exists
   * @throws IOException if the write fails, or the file system cannot write conditionally
   */
  @Override
  public void write(
      Path path, Iterator<String> actions, Boolean overwrite, Configuration hadoopConf)
      throws IOException {
    FileSystem fs = path.getFileSystem(hadoopConf);
    if (Boolean.TRUE.equals(overwrite)) {
      try (FSDataOutputStream out = fs.create(path, true)) {
        for (Iterator<byte[]> line = lines(actions); line.hasNext(); ) {
          out.write(line.next());
        }
      }
      return;
    }
    if (!S3ConditionalPut.isSupported(fs, path)) {
      throw new IOException(
          "Cannot write the Delta commit file "
              + display(path)
              + " put-if-absent: its file system ("
              + fs.getClass().getName()
              + ") does not support "
              + CONDITIONAL_CREATE_OPTION
              + ". Use S3A from Hadoop 3.4.2 or later with fs.s3a.create.conditional.enabled=true"
              + " (the default), or set "
              + String.format(LogStoreSelection.KERNEL_LOG_STORE_KEY, path.toUri().getScheme())
              + " to a log store made for this file system.");
    }
    S3ConditionalPut.putIfAbsent(
        fs, path, lines(actions), "another writer created this Delta commit file first");
  }

  /** The actions as lines, encoded as they are read. */
  private static Iterator<byte[]> lines(Iterator<String> actions) {
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        return actions.hasNext();
      }

      @Override
      public byte[] next() {
        return (actions.next() + "\n").getBytes(StandardCharsets.UTF_8);
      }
    };
  }

  /** S3 objects are written whole on close: a partly written commit file is never visible. */
  @Override
  public Boolean isPartialWriteVisible(Path path, Configuration hadoopConf) {
    return false;
  }

  /** The path for messages: scheme, bucket and key, never a user-info part. */
  static String display(Path path) {
    return S3ConditionalPut.display(path);
  }
}
