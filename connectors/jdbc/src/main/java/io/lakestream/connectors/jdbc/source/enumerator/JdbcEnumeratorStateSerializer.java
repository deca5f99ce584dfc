package io.lakestream.connectors.jdbc.source.enumerator;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.jdbc.source.split.JdbcPartitionSplit;
import io.lakestream.connectors.jdbc.source.split.JdbcPartitionSplitSerializer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/**
 * Versioned serializer of {@link JdbcEnumeratorState}. Version 1: the partition count, then the
 * unassigned splits in {@link JdbcPartitionSplitSerializer}'s version 1 layout. An unknown version
 * fails the restore with an {@link IOException} naming it.
 */
@Internal
public final class JdbcEnumeratorStateSerializer
    implements SimpleVersionedSerializer<JdbcEnumeratorState> {
  private static final int VERSION = 1;

  @Override
  public int getVersion() {
    return VERSION;
  }

  @Override
  public byte[] serialize(JdbcEnumeratorState state) throws IOException {
    DataOutputSerializer out = new DataOutputSerializer(8 + 24 * state.unassigned().size());
    out.writeInt(state.partitions());
    out.writeInt(state.unassigned().size());
    for (JdbcPartitionSplit split : state.unassigned()) {
      JdbcPartitionSplitSerializer.write(split, out);
    }
    return out.getCopyOfBuffer();
  }

  @Override
  public JdbcEnumeratorState deserialize(int version, byte[] serialized) throws IOException {
    if (version != VERSION) {
      throw new IOException(
          "Unknown JDBC enumerator state version " + version + ", expected " + VERSION);
    }
    DataInputDeserializer in = new DataInputDeserializer(serialized);
    int partitions = in.readInt();
    int count = in.readInt();
    List<JdbcPartitionSplit> splits = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      splits.add(JdbcPartitionSplitSerializer.read(in));
    }
    return new JdbcEnumeratorState(partitions, splits);
  }
}
