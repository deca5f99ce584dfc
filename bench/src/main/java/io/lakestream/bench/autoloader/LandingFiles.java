package io.lakestream.bench.autoloader;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.UserDefinedFileAttributeView;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The bench's landing prefix: file {@code i} is {@code date=2026-11-DD/hour=HH/part-NNNNNNN.json}
 * holding one JSON line {@code {"id":i,"name":"file-i"}}. The first {@code files} files fill {@code
 * days x 24} hour directories in key order (about 278 files per directory, at most 30 days, at
 * least one); later files ({@link #write(long, long)} past {@code files}) go to December days so
 * they sort after every earlier key, as a landing zone with lexical names receives them.
 *
 * <p>Files are written straight into the S3 server's filesystem-nio2 storage directory (8 threads),
 * the way its PUT stores an object: the body in {@code <storage>/<bucket>/<key>} with the MD5 as
 * the {@code user.content-md5} attribute (the ETag). Each file is written in a staging directory
 * outside the bucket and moved into place atomically, so a listing never sees a partial object.
 * (s3proxy's own PUT writes {@code <key>-<uuid>} next to the key and renames it: a listing running
 * at that moment returns the temporary key, which is gone when it is read. Real S3 PUTs are
 * atomic.)
 */
final class LandingFiles implements AutoCloseable {
  static final int HOUR_DIRS_MAX = 720;
  private static final int FILES_PER_DIR = 278;
  private static final int THREADS = 8;
  private static final String MD5_ATTRIBUTE = "user.content-md5";

  private final java.nio.file.Path bucketDir;
  private final java.nio.file.Path staging;
  private final String prefix;
  private final long files;
  private final int dirs;
  private final SortedKeyIndex index;

  /**
   * @param storage the S3 server's storage directory (filesystem-nio2: {@code
   *     <storage>/<bucket>/<key>})
   * @param bucket the bucket
   * @param prefix the landing prefix in the bucket, e.g. {@code landing}
   * @param files the initial file count (sets the directory layout)
   * @param index where each file is recorded once in place (null: nowhere)
   */
  LandingFiles(
      java.nio.file.Path storage, String bucket, String prefix, long files, SortedKeyIndex index)
      throws IOException {
    this.index = index;
    this.bucketDir = storage.resolve(bucket);
    this.staging = Files.createDirectories(storage.resolve(".bench-staging"));
    this.prefix = prefix;
    this.files = files;
    this.dirs = (int) Math.max(24, Math.min(HOUR_DIRS_MAX, files / FILES_PER_DIR / 24 * 24));
  }

  /** Hour directories of the initial files. */
  int directories() {
    return dirs;
  }

  /** The key of file {@code i}, relative to the root. */
  String key(long i) {
    if (i < files) {
      long perDir = (files + dirs - 1) / dirs;
      int dir = (int) (i / perDir);
      return String.format(
          Locale.ROOT, "date=2026-11-%02d/hour=%02d/part-%07d.json", 1 + dir / 24, dir % 24, i);
    }
    long later = i - files;
    return String.format(
        Locale.ROOT,
        "date=2026-12-%02d/hour=%02d/part-%07d.json",
        1 + later / 24_000,
        (later / 1_000) % 24,
        i);
  }

  /** Writes files {@code from} (inclusive) to {@code to} (exclusive); returns the seconds taken. */
  double write(long from, long to) throws IOException {
    long start = System.nanoTime();
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    try {
      List<Future<?>> writes = new ArrayList<>();
      long chunk = Math.max(1, (to - from) / (THREADS * 8));
      for (long s = from; s < to; s += chunk) {
        long first = s;
        long last = Math.min(to, s + chunk);
        writes.add(
            pool.submit(
                () -> {
                  for (long i = first; i < last; i++) {
                    writeOne(i);
                  }
                  return null;
                }));
      }
      for (Future<?> w : writes) {
        w.get();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while writing landing files", e);
    } catch (ExecutionException e) {
      throw new IOException("could not write a landing file: " + e.getCause(), e.getCause());
    } finally {
      pool.shutdownNow();
    }
    return (System.nanoTime() - start) / 1e9;
  }

  private void writeOne(long i) throws IOException {
    byte[] body =
        ("{\"id\":" + i + ",\"name\":\"file-" + i + "\"}\n").getBytes(StandardCharsets.UTF_8);
    java.nio.file.Path temp = staging.resolve("part-" + i);
    Files.write(temp, body);
    UserDefinedFileAttributeView view =
        Files.getFileAttributeView(temp, UserDefinedFileAttributeView.class);
    byte[] md5;
    try {
      md5 = MessageDigest.getInstance("MD5").digest(body);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
    // what s3proxy's putBlob records: the ETag is the MD5 of the body
    view.write(MD5_ATTRIBUTE, ByteBuffer.wrap(md5));
    java.nio.file.Path target = bucketDir.resolve(prefix).resolve(key(i));
    Files.createDirectories(target.getParent());
    Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
    if (index != null) {
      index.put(
          prefix + "/" + key(i),
          new SortedKeyIndex.ObjectEntry(
              body.length,
              HexFormat.of().formatHex(md5),
              Files.getLastModifiedTime(target).toMillis()));
    }
  }

  /** The id in a line written by this class. */
  static long id(String line) {
    int start = line.indexOf(':') + 1;
    return Long.parseLong(line.substring(start, line.indexOf(',', start)));
  }

  @Override
  public void close() throws IOException {
    Files.deleteIfExists(staging);
  }
}
