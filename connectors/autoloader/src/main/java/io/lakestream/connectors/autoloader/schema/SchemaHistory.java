package io.lakestream.connectors.autoloader.schema;

import io.lakestream.api.annotation.Internal;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.Serializable;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The schema history under {@code cloudFiles.schemaLocation}: {@code _schemas/0} is the first
 * (inferred) schema, each evolution writes the next number. A restarted stream reads the highest
 * one and does not infer again. Versions are written with create-if-absent, so of two writers of
 * the same version one fails and rereads.
 */
@Internal
public final class SchemaHistory implements Serializable {
  private static final long serialVersionUID = 1L;

  /** A schema and its number in the history. */
  public record Version(long version, AutoLoaderSchema schema) {}

  private final String schemaLocation;
  private final TreeMap<String, String> hadoopConf;

  public SchemaHistory(String schemaLocation, Map<String, String> hadoopConf) {
    this.schemaLocation = schemaLocation.replaceAll("/+$", "");
    this.hadoopConf = new TreeMap<>(hadoopConf);
  }

  /** The {@code _schemas} directory. */
  public String directory() {
    return schemaLocation + "/_schemas";
  }

  private FileSystem fs() throws IOException {
    Configuration conf = new Configuration();
    hadoopConf.forEach(conf::set);
    return FileSystem.get(URI.create(schemaLocation), conf);
  }

  /**
   * The newest recorded schema, or empty if none is recorded yet.
   *
   * @throws IOException if the history cannot be read (the message names the file)
   */
  public Optional<Version> latest() throws IOException {
    FileSystem fs = fs();
    Path dir = new Path(directory());
    FileStatus[] entries;
    try {
      entries = fs.listStatus(dir);
    } catch (FileNotFoundException e) {
      return Optional.empty();
    }
    long newest = -1;
    for (FileStatus entry : entries) {
      String name = entry.getPath().getName();
      if (name.matches("\\d+")) {
        newest = Math.max(newest, Long.parseLong(name));
      }
    }
    if (newest < 0) {
      return Optional.empty();
    }
    Path file = new Path(dir, Long.toString(newest));
    try (InputStream in = fs.open(file)) {
      String json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      return Optional.of(new Version(newest, AutoLoaderSchema.fromJson(json)));
    } catch (IOException e) {
      throw new IOException(
          "Could not read the Auto Loader schema "
              + file
              + " (cloudFiles.schemaLocation): "
              + e.getMessage()
              + ". Restore the file or point cloudFiles.schemaLocation at a new directory to infer"
              + " again.",
          e);
    }
  }

  /**
   * Records {@code schema} as {@code version}.
   *
   * @return false if that version already exists (another writer recorded it first)
   * @throws IOException if it cannot be written
   */
  public boolean record(long version, AutoLoaderSchema schema) throws IOException {
    FileSystem fs = fs();
    Path file = new Path(directory(), Long.toString(version));
    if (fs.exists(file)) {
      return false;
    }
    try (OutputStream out = fs.create(file, false)) {
      out.write(schema.toJson().getBytes(StandardCharsets.UTF_8));
    } catch (FileAlreadyExistsException e) {
      return false;
    }
    return true;
  }
}
