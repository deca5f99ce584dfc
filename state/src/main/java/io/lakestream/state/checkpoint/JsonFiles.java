package io.lakestream.state.checkpoint;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.util.Optional;
import java.util.UUID;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

/**
 * Reads and writes the small JSON files of a checkpoint location through Flink's file systems.
 *
 * <p>A write is all or nothing for readers, so a process killed mid-write never leaves a truncated
 * file that the next run would fail to read: an object store (S3) makes an object visible only once
 * it is complete; on a local file system the bytes go to a hidden temporary file in the same
 * directory ({@code .<name>.<random>.tmp}, skipped by listings) that is then moved over the target
 * atomically.
 */
final class JsonFiles {
  static final ObjectMapper MAPPER =
      new ObjectMapper()
          .enable(SerializationFeature.INDENT_OUTPUT)
          .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  private JsonFiles() {}

  static void write(Path path, Object value) throws IOException {
    writeBytes(path, MAPPER.writeValueAsBytes(value));
  }

  /** Writes {@code bytes} to {@code path}, all or nothing for readers (as {@link #write}). */
  static void writeBytes(Path path, byte[] bytes) throws IOException {
    if ("file".equals(path.toUri().getScheme())) {
      writeLocalAtomically(java.nio.file.Path.of(path.toUri()), bytes);
      return;
    }
    FileSystem fs = path.getFileSystem();
    try (OutputStream out = fs.create(path, FileSystem.WriteMode.OVERWRITE)) {
      out.write(bytes);
    }
  }

  private static void writeLocalAtomically(java.nio.file.Path target, byte[] bytes)
      throws IOException {
    java.nio.file.Path dir = target.getParent();
    Files.createDirectories(dir);
    java.nio.file.Path temp =
        dir.resolve("." + target.getFileName() + "." + UUID.randomUUID() + ".tmp");
    try {
      Files.write(temp, bytes);
      Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } finally {
      Files.deleteIfExists(temp);
    }
  }

  /** Whether a listed file is one of {@link #write}'s temporary files (or another hidden file). */
  static boolean isHidden(Path path) {
    return path.getName().startsWith(".");
  }

  static <T> Optional<T> read(Path path, Class<T> type) throws IOException {
    Optional<byte[]> bytes = readBytes(path);
    if (bytes.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(MAPPER.readValue(bytes.get(), type));
  }

  static Optional<byte[]> readBytes(Path path) throws IOException {
    FileSystem fs = path.getFileSystem();
    if (!fs.exists(path)) {
      return Optional.empty();
    }
    try (InputStream in = fs.open(path)) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      in.transferTo(out);
      return Optional.of(out.toByteArray());
    }
  }
}
