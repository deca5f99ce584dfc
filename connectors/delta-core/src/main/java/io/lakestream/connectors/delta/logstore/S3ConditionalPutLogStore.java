package io.lakestream.connectors.delta.logstore;

import io.delta.storage.HadoopFileSystemLogStore;
import io.lakestream.api.annotation.Internal;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.util.Arrays;
import java.util.Iterator;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FSDataOutputStreamBuilder;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.s3a.AWSServiceIOException;
import org.apache.hadoop.fs.s3a.RemoteFileChangedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
 *       up to {@value #MAX_CONFLICT_ATTEMPTS} times, then the 409 is rethrown.
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
  private static final Logger LOG = LoggerFactory.getLogger(S3ConditionalPutLogStore.class);

  /** Hadoop's {@code createFile()} option for a PUT that fails if the object exists. */
  public static final String CONDITIONAL_CREATE_OPTION = "fs.option.create.conditional.overwrite";

  static final int MAX_CONFLICT_ATTEMPTS = 5;
  private static final int HTTP_CONFLICT = 409;

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
        copy(actions, out, null);
      }
      return;
    }
    if (!fs.hasPathCapability(path, CONDITIONAL_CREATE_OPTION)) {
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
    // The first attempt streams the actions and keeps them, for a retry after a 409 and to
    // recognise our own earlier PUT (see alreadyOurs).
    ByteArrayOutputStream content = new ByteArrayOutputStream();
    boolean consumed = false;
    for (int attempt = 1; ; attempt++) {
      try {
        FSDataOutputStreamBuilder<?, ?> builder = fs.createFile(path).overwrite(false).recursive();
        builder.must(CONDITIONAL_CREATE_OPTION, true);
        FSDataOutputStream out = builder.build();
        try (out) {
          if (!consumed) {
            copy(actions, out, content);
            consumed = true;
          } else {
            content.writeTo(out);
          }
        } // close() sends the PUT with If-None-Match: *
        return;
      } catch (org.apache.hadoop.fs.FileAlreadyExistsException | RemoteFileChangedException e) {
        if (consumed && alreadyOurs(fs, path, content)) {
          LOG.info("{}: already holds this commit (an earlier PUT of it succeeded)", display(path));
          return;
        }
        FileAlreadyExistsException exists =
            new FileAlreadyExistsException(
                display(path), null, "another writer created this Delta commit file first");
        exists.initCause(e);
        throw exists;
      } catch (AWSServiceIOException e) {
        if (e.statusCode() != HTTP_CONFLICT || !consumed || attempt >= MAX_CONFLICT_ATTEMPTS) {
          throw e;
        }
        LOG.info(
            "{}: conditional PUT attempt {}/{} met a concurrent PUT (409), retrying",
            display(path),
            attempt,
            MAX_CONFLICT_ATTEMPTS);
        pause(attempt);
      }
    }
  }

  /**
   * Whether the existing file holds exactly {@code content}. S3A retries a PUT whose response was
   * lost; if the first one had succeeded, the retry gets 412 although the file is ours. Kernel's
   * commit content is unique per attempt (commitInfo has a timestamp and a transaction id), so
   * equal bytes mean our own write, never another writer's.
   */
  private static boolean alreadyOurs(FileSystem fs, Path path, ByteArrayOutputStream content) {
    byte[] expected = content.toByteArray();
    try (FSDataInputStream in = fs.open(path)) {
      byte[] actual = in.readNBytes(expected.length + 1);
      return Arrays.equals(actual, expected);
    } catch (IOException e) {
      return false;
    }
  }

  private static void copy(
      Iterator<String> actions, FSDataOutputStream out, ByteArrayOutputStream kept)
      throws IOException {
    while (actions.hasNext()) {
      byte[] line = (actions.next() + "\n").getBytes(StandardCharsets.UTF_8);
      out.write(line);
      if (kept != null) {
        kept.write(line);
      }
    }
  }

  private static void pause(int attempt) throws InterruptedIOException {
    try {
      Thread.sleep(50L * attempt);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while retrying a Delta commit file write");
    }
  }

  /** S3 objects are written whole on close: a partly written commit file is never visible. */
  @Override
  public Boolean isPartialWriteVisible(Path path, Configuration hadoopConf) {
    return false;
  }

  /** The path for messages: scheme, bucket and key, never a user-info part. */
  static String display(Path path) {
    URI uri = path.toUri();
    if (uri.getRawUserInfo() == null) {
      return uri.toString();
    }
    return uri.getScheme() + "://" + uri.getHost() + uri.getPath();
  }
}
