package io.lakestream.state.checkpoint;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Optional;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

/** Reads and writes the small JSON files of a checkpoint location through Flink's file systems. */
final class JsonFiles {
  static final ObjectMapper MAPPER =
      new ObjectMapper()
          .enable(SerializationFeature.INDENT_OUTPUT)
          .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  private JsonFiles() {}

  static void write(Path path, Object value) throws IOException {
    byte[] bytes = MAPPER.writeValueAsBytes(value);
    FileSystem fs = path.getFileSystem();
    try (OutputStream out = fs.create(path, FileSystem.WriteMode.OVERWRITE)) {
      out.write(bytes);
    }
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
