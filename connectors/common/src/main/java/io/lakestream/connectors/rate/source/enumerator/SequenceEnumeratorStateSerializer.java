package io.lakestream.connectors.rate.source.enumerator;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.rate.source.split.SequenceSplit;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/** Versioned serializer for {@link SequenceEnumeratorState}. */
@Internal
public final class SequenceEnumeratorStateSerializer
    implements SimpleVersionedSerializer<SequenceEnumeratorState> {
  private static final int VERSION = 1;

  @Override
  public int getVersion() {
    return VERSION;
  }

  @Override
  public byte[] serialize(SequenceEnumeratorState state) throws IOException {
    DataOutputSerializer out = new DataOutputSerializer(64);
    out.writeInt(state.partitions());
    out.writeInt(state.unassigned().size());
    for (SequenceSplit split : state.unassigned()) {
      out.writeInt(split.partition());
      out.writeLong(split.nextOffset());
    }
    return out.getCopyOfBuffer();
  }

  @Override
  public SequenceEnumeratorState deserialize(int version, byte[] serialized) throws IOException {
    if (version != VERSION) {
      throw new IOException(
          "Unknown sequence enumerator state version " + version + ", expected " + VERSION);
    }
    DataInputDeserializer in = new DataInputDeserializer(serialized);
    int partitions = in.readInt();
    int count = in.readInt();
    List<SequenceSplit> splits = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      splits.add(new SequenceSplit(in.readInt(), in.readLong()));
    }
    return new SequenceEnumeratorState(partitions, splits);
  }
}
