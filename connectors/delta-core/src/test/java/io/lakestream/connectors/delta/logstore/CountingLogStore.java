package io.lakestream.connectors.delta.logstore;

import io.delta.storage.CloseableIterator;
import io.delta.storage.LogStore;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.util.Iterator;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;

/**
 * A log store that delegates to a real one and counts the commit-file writes it refused because
 * another writer had written that version first (configure it with Kernel's {@code
 * io.delta.kernel.logStore.<scheme>.impl}). Tests use the count to show that conflicts happened.
 */
public abstract class CountingLogStore extends LogStore {
  /** Refused writes (version already taken) since the last {@link #reset()}. */
  public static final AtomicInteger REFUSED = new AtomicInteger();

  private final LogStore delegate;

  CountingLogStore(Configuration conf, LogStore delegate) {
    super(conf);
    this.delegate = delegate;
  }

  public static void reset() {
    REFUSED.set(0);
  }

  @Override
  public CloseableIterator<String> read(Path path, Configuration hadoopConf) throws IOException {
    return delegate.read(path, hadoopConf);
  }

  @Override
  public void write(Path path, Iterator<String> actions, Boolean overwrite, Configuration conf)
      throws IOException {
    try {
      delegate.write(path, actions, overwrite, conf);
    } catch (FileAlreadyExistsException refused) {
      REFUSED.incrementAndGet();
      throw refused;
    }
  }

  @Override
  public Iterator<FileStatus> listFrom(Path path, Configuration hadoopConf) throws IOException {
    return delegate.listFrom(path, hadoopConf);
  }

  @Override
  public Path resolvePathOnPhysicalStorage(Path path, Configuration hadoopConf) throws IOException {
    return delegate.resolvePathOnPhysicalStorage(path, hadoopConf);
  }

  @Override
  public Boolean isPartialWriteVisible(Path path, Configuration hadoopConf) throws IOException {
    return delegate.isPartialWriteVisible(path, hadoopConf);
  }

  /** Counts over {@link S3ConditionalPutLogStore} (for {@code s3a}). */
  public static final class S3 extends CountingLogStore {
    public S3(Configuration conf) {
      super(conf, new S3ConditionalPutLogStore(conf));
    }
  }

  /** Counts over {@link LocalLinkLogStore} (for {@code file}). */
  public static final class Local extends CountingLogStore {
    public Local(Configuration conf) {
      super(conf, new LocalLinkLogStore(conf));
    }
  }
}
