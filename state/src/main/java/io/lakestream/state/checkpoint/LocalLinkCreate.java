package io.lakestream.state.checkpoint;

import io.lakestream.api.annotation.Internal;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.util.UUID;
import org.apache.flink.core.fs.Path;

/**
 * Create-if-absent on a local file system: the contents go to a hidden temporary file in the
 * target's directory, are forced to disk, and are then hard-linked to the target, which the kernel
 * does only if the target is absent. So the file appears whole or not at all, and of concurrent
 * creators (threads or processes) exactly one links it. A file system without hard links fails with
 * an {@link IOException} that says so.
 */
@Internal
public final class LocalLinkCreate implements CreateIfAbsent {
  /** The one instance; it keeps no state. */
  public static final LocalLinkCreate INSTANCE = new LocalLinkCreate();

  private LocalLinkCreate() {}

  @Override
  public boolean create(Path path, byte[] contents) throws IOException {
    return create(java.nio.file.Path.of(path.toUri()), contents);
  }

  /** {@link #create(Path, byte[])} for a local path. */
  public boolean create(java.nio.file.Path target, byte[] contents) throws IOException {
    Files.createDirectories(target.getParent());
    java.nio.file.Path temp =
        target.resolveSibling("." + target.getFileName() + "." + UUID.randomUUID() + ".tmp");
    try {
      writeDurably(temp, contents);
      Files.createLink(target, temp);
      return true;
    } catch (FileAlreadyExistsException e) {
      return false;
    } catch (UnsupportedOperationException e) {
      throw new IOException(
          "Cannot create "
              + target
              + " only if absent: its file system has no hard links. Use a local file system that"
              + " has them (ext4, xfs, tmpfs, overlayfs, APFS).",
          e);
    } finally {
      Files.deleteIfExists(temp);
    }
  }

  /** Writes {@code contents} to a new file and forces them to disk. */
  public static void writeDurably(java.nio.file.Path file, byte[] contents) throws IOException {
    try (FileChannel channel =
        FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      ByteBuffer buffer = ByteBuffer.wrap(contents);
      while (buffer.hasRemaining()) {
        channel.write(buffer);
      }
      channel.force(true);
    }
  }
}
