package io.lakestream.connectors.jdbc.source.split;

import io.lakestream.api.annotation.Internal;
import java.io.IOException;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/**
 * Versioned serializer of {@link JdbcPartitionSplit} (reader state). Version 1: partition,
 * partitions, lower, upper. An unknown version fails the restore with an {@link IOException} naming
 * it.
 */
@Internal
public final class JdbcPartitionSplitSerializer
    implements SimpleVersionedSerializer<JdbcPartitionSplit> {
  static final int VERSION = 1;

  @Override
  public int getVersion() {
    return VERSION;
  }

  @Override
  public byte[] serialize(JdbcPartitionSplit split) throws IOException {
    DataOutputSerializer out = new DataOutputSerializer(24);
    write(split, out);
    return out.getCopyOfBuffer();
  }

  @Override
  public JdbcPartitionSplit deserialize(int version, byte[] serialized) throws IOException {
    checkVersion(version);
    return read(new DataInputDeserializer(serialized));
  }

  /** Writes {@code split} in the current version's layout. */
  public static void write(JdbcPartitionSplit split, DataOutputSerializer out) throws IOException {
    out.writeInt(split.partition());
    out.writeInt(split.partitions());
    out.writeLong(split.lower());
    out.writeLong(split.upper());
  }

  /** Reads a split written by {@link #write}. */
  public static JdbcPartitionSplit read(DataInputDeserializer in) throws IOException {
    return new JdbcPartitionSplit(in.readInt(), in.readInt(), in.readLong(), in.readLong());
  }

  /** Fails for a version this serializer cannot read. */
  public static void checkVersion(int version) throws IOException {
    if (version != VERSION) {
      throw new IOException(
          "Unknown JDBC partition split version " + version + ", expected " + VERSION);
    }
  }
}
