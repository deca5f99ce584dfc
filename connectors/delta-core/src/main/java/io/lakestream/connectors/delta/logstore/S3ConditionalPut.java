package io.lakestream.connectors.delta.logstore;

import io.lakestream.api.annotation.Internal;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.nio.file.FileAlreadyExistsException;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
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
 * Put-if-absent on S3 through Hadoop S3A: a PUT with {@code If-None-Match: *} (S3A's {@code
 * createFile(path).must("fs.option.create.conditional.overwrite", true)}), so of writers racing for
 * one key exactly one succeeds. Delta commit files ({@link S3ConditionalPutLogStore}) and the
 * checkpoint location's lease (the Delta connector's {@code S3LeaseCreateFactory}) are written with
 * it.
 *
 * <ul>
 *   <li>the object exists already (S3A's existence check or the PUT's HTTP 412): {@link
 *       FileAlreadyExistsException}, unless it holds exactly these bytes (S3A retried a PUT that
 *       had succeeded), which counts as this call's write; callers write contents unique per
 *       attempt, so equal bytes are theirs;
 *   <li>S3 answers 409 (a concurrent conditional PUT on the key was in flight): retried up to
 *       {@value #MAX_CONFLICT_ATTEMPTS} times, then the 409 is rethrown;
 *   <li>the file system cannot write conditionally: check {@link #isSupported} first; this class
 *       never falls back to an unconditional write.
 * </ul>
 */
@Internal
public final class S3ConditionalPut {
  private static final Logger LOG = LoggerFactory.getLogger(S3ConditionalPut.class);

  /** Hadoop's {@code createFile()} option for a PUT that fails if the object exists. */
  public static final String CONDITIONAL_CREATE_OPTION = "fs.option.create.conditional.overwrite";

  static final int MAX_CONFLICT_ATTEMPTS = 5;
  private static final int HTTP_CONFLICT = 409;

  private S3ConditionalPut() {}

  /**
   * Whether {@code fs} writes conditionally at {@code path}: S3A from Hadoop 3.4.2 on, with {@code
   * fs.s3a.create.conditional.enabled=true} (the default).
   */
  public static boolean isSupported(FileSystem fs, Path path) throws IOException {
    return fs.hasPathCapability(path, CONDITIONAL_CREATE_OPTION);
  }

  /**
   * Creates {@code path} holding {@code contents} if no object is there.
   *
   * @param refusal what the {@link FileAlreadyExistsException} says when another writer's object is
   *     there
   * @throws FileAlreadyExistsException if another writer's object is there (its cause is S3A's)
   */
  public static void putIfAbsent(FileSystem fs, Path path, byte[] contents, String refusal)
      throws IOException {
    putIfAbsent(fs, path, List.of(contents).iterator(), refusal);
  }

  /**
   * {@link #putIfAbsent(FileSystem, Path, byte[], String)} for contents given in pieces: the first
   * attempt streams them into the PUT and keeps a copy, for a retry and to recognise an earlier PUT
   * of ours.
   */
  public static void putIfAbsent(FileSystem fs, Path path, Iterator<byte[]> pieces, String refusal)
      throws IOException {
    ByteArrayOutputStream content = new ByteArrayOutputStream();
    boolean consumed = false;
    for (int attempt = 1; ; attempt++) {
      try {
        FSDataOutputStreamBuilder<?, ?> builder = fs.createFile(path).overwrite(false).recursive();
        builder.must(CONDITIONAL_CREATE_OPTION, true);
        try (FSDataOutputStream out = builder.build()) {
          if (!consumed) {
            while (pieces.hasNext()) {
              byte[] piece = pieces.next();
              out.write(piece);
              content.write(piece);
            }
            consumed = true;
          } else {
            content.writeTo(out);
          }
        } // close() sends the PUT with If-None-Match: *
        return;
      } catch (org.apache.hadoop.fs.FileAlreadyExistsException | RemoteFileChangedException e) {
        if (consumed && holds(fs, path, content.toByteArray())) {
          LOG.info(
              "{}: already holds these bytes (an earlier PUT of them succeeded)", display(path));
          return;
        }
        FileAlreadyExistsException exists =
            new FileAlreadyExistsException(display(path), null, refusal);
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

  /** Whether the object at {@code path} holds exactly {@code expected}. */
  private static boolean holds(FileSystem fs, Path path, byte[] expected) {
    try (FSDataInputStream in = fs.open(path)) {
      return Arrays.equals(in.readNBytes(expected.length + 1), expected);
    } catch (IOException e) {
      return false;
    }
  }

  private static void pause(int attempt) throws InterruptedIOException {
    try {
      Thread.sleep(50L * attempt);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while retrying a conditional PUT");
    }
  }

  /** The path for messages: scheme, bucket and key, never a user-info part. */
  public static String display(Path path) {
    URI uri = path.toUri();
    if (uri.getRawUserInfo() == null) {
      return uri.toString();
    }
    return uri.getScheme() + "://" + uri.getHost() + uri.getPath();
  }
}
