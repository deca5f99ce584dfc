package io.lakestream.connectors.delta;

import io.lakestream.api.annotation.PublicEvolving;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.Serializable;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A Parquet data file written by {@link DeltaTableWriter} and not yet committed: everything {@link
 * DeltaAppendCommit} needs to add it to the table in a later commit, possibly in another JVM.
 *
 * <p>Serializable with Java serialization and, for checkpoints, with the versioned {@link
 * #toBytes()} / {@link #fromBytes(int, byte[])} format.
 *
 * @param path the file's absolute, fully qualified path (inside the table directory)
 * @param size the file size in bytes
 * @param modificationTime the file's modification time (epoch millis)
 * @param partitionValues partition column name to value, in Delta's partition-value text form (null
 *     for a null value); empty for unpartitioned tables
 * @param statsJson the file's Delta statistics as JSON ({@code numRecords}, {@code minValues},
 *     {@code maxValues}, {@code nullCount}), or empty if none were collected
 * @param numRecords rows in the file
 */
@PublicEvolving
public record DeltaWrittenFile(
    String path,
    long size,
    long modificationTime,
    Map<String, String> partitionValues,
    String statsJson,
    long numRecords)
    implements Serializable {

  /** The version of the {@link #toBytes()} format. */
  public static final int SERIAL_VERSION = 1;

  public DeltaWrittenFile {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(statsJson, "statsJson");
    partitionValues = Collections.unmodifiableMap(new LinkedHashMap<>(partitionValues));
  }

  /** Encodes this file description (format {@link #SERIAL_VERSION}). */
  public byte[] toBytes() {
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
      DataOutputStream out = new DataOutputStream(bytes);
      out.writeUTF(path);
      out.writeLong(size);
      out.writeLong(modificationTime);
      out.writeLong(numRecords);
      out.writeInt(partitionValues.size());
      for (Map.Entry<String, String> e : partitionValues.entrySet()) {
        out.writeUTF(e.getKey());
        out.writeBoolean(e.getValue() != null);
        if (e.getValue() != null) {
          out.writeUTF(e.getValue());
        }
      }
      byte[] stats = statsJson.getBytes(java.nio.charset.StandardCharsets.UTF_8);
      out.writeInt(stats.length);
      out.write(stats);
      out.flush();
      return bytes.toByteArray();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /**
   * Decodes {@link #toBytes()} output.
   *
   * @throws IOException if the version is unknown (restore with the lakestream version that wrote
   *     it) or the bytes are corrupt
   */
  public static DeltaWrittenFile fromBytes(int version, byte[] serialized) throws IOException {
    if (version != SERIAL_VERSION) {
      throw new IOException(
          "Unknown DeltaWrittenFile format version "
              + version
              + " (this build reads "
              + SERIAL_VERSION
              + "): restore with the lakestream version that wrote the checkpoint");
    }
    DataInputStream in = new DataInputStream(new ByteArrayInputStream(serialized));
    String path = in.readUTF();
    long size = in.readLong();
    long modificationTime = in.readLong();
    long numRecords = in.readLong();
    int n = in.readInt();
    Map<String, String> partitionValues = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      String key = in.readUTF();
      partitionValues.put(key, in.readBoolean() ? in.readUTF() : null);
    }
    byte[] stats = new byte[in.readInt()];
    in.readFully(stats);
    return new DeltaWrittenFile(
        path,
        size,
        modificationTime,
        partitionValues,
        new String(stats, java.nio.charset.StandardCharsets.UTF_8),
        numRecords);
  }
}
