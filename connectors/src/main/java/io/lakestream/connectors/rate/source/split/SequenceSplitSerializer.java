package io.lakestream.connectors.rate.source.split;

import java.io.IOException;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/** Versioned serializer for {@link SequenceSplit} (reader state). */
public final class SequenceSplitSerializer implements SimpleVersionedSerializer<SequenceSplit> {
  private static final int VERSION = 1;

  @Override
  public int getVersion() {
    return VERSION;
  }

  @Override
  public byte[] serialize(SequenceSplit split) throws IOException {
    DataOutputSerializer out = new DataOutputSerializer(12);
    out.writeInt(split.partition());
    out.writeLong(split.nextOffset());
    return out.getCopyOfBuffer();
  }

  @Override
  public SequenceSplit deserialize(int version, byte[] serialized) throws IOException {
    if (version != VERSION) {
      throw new IOException("Unknown sequence split version " + version + ", expected " + VERSION);
    }
    DataInputDeserializer in = new DataInputDeserializer(serialized);
    return new SequenceSplit(in.readInt(), in.readLong());
  }
}
