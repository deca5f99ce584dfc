package io.lakestream.connectors.delta.logstore;

import io.delta.storage.HadoopFileSystemLogStore;
import io.lakestream.api.annotation.Internal;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Iterator;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/**
 * Put-if-absent Delta commits on a local file system ({@code file:} paths), across threads and
 * processes: the commit is written to a hidden temporary file, flushed to disk, then published with
 * a hard link ({@code link(2)}), which fails atomically if the commit file exists.
 *
 * <p>Kernel's default for local paths (Hadoop's {@code HDFSLogStore}) checks that the file is
 * absent and then renames, and the local rename replaces an existing file: two writers of the same
 * version in one JVM could both succeed, the second silently replacing the first's commit, and
 * their {@code .crc} checksum files crossed, after which every read of that version failed with a
 * {@code ChecksumException} ({@code DeltaConcurrentWritersITCase} met it). Commits written here
 * have no checksum file. Reads and listings are Hadoop's ({@link HadoopFileSystemLogStore}).
 */
@Internal
public final class LocalLinkLogStore extends HadoopFileSystemLogStore {

  /** Called by Kernel's log store provider with the engine's Hadoop configuration. */
  public LocalLinkLogStore(Configuration initHadoopConf) {
    super(initHadoopConf);
  }

  /**
   * Writes {@code actions}, one per line. With {@code overwrite=false} the file is created only if
   * absent, atomically across writers.
   *
   * @throws FileAlreadyExistsException if {@code overwrite} is false and the file exists
   * @throws IOException if the file cannot be written, or the file system has no hard links
   */
  @Override
  public void write(
      Path path, Iterator<String> actions, Boolean overwrite, Configuration hadoopConf)
      throws IOException {
    java.nio.file.Path target = Paths.get(path.toUri());
    Files.createDirectories(target.getParent());
    java.nio.file.Path temp =
        target.resolveSibling("." + target.getFileName() + "." + UUID.randomUUID() + ".tmp");
    try {
      writeDurably(temp, actions);
      if (Boolean.TRUE.equals(overwrite)) {
        Files.move(
            temp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      } else {
        link(target, temp, path);
      }
    } finally {
      Files.deleteIfExists(temp);
    }
  }

  private static void writeDurably(java.nio.file.Path file, Iterator<String> actions)
      throws IOException {
    try (FileChannel channel =
        FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      while (actions.hasNext()) {
        ByteBuffer line = ByteBuffer.wrap((actions.next() + "\n").getBytes(StandardCharsets.UTF_8));
        while (line.hasRemaining()) {
          channel.write(line);
        }
      }
      channel.force(true);
    }
  }

  private static void link(java.nio.file.Path target, java.nio.file.Path temp, Path path)
      throws IOException {
    try {
      Files.createLink(target, temp);
    } catch (FileAlreadyExistsException e) {
      throw new FileAlreadyExistsException(
          path.toString(), null, "another writer created this Delta commit file first");
    } catch (UnsupportedOperationException e) {
      throw new IOException(
          "Cannot write the Delta commit file "
              + path
              + " put-if-absent: its file system has no hard links. Put the table on a local file"
              + " system that has them (ext4, xfs, tmpfs, overlayfs, APFS), or set "
              + String.format(LogStoreSelection.KERNEL_LOG_STORE_KEY, "file")
              + " to a log store made for this file system.",
          e);
    }
  }

  /**
   * True: a file written in place on a local file system is visible while it is written. Kernel
   * then writes files it publishes itself (checkpoint Parquet files) to a temporary path and
   * renames them; with false it wrote them in place, and a reader could meet half a checkpoint.
   */
  @Override
  public Boolean isPartialWriteVisible(Path path, Configuration hadoopConf) {
    return true;
  }
}
