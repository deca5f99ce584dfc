package io.lakestream.connectors.rate.source.split;

import io.lakestream.api.annotation.Internal;
import java.io.IOException;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/**
 * Versioned serializer for {@link SequenceSplit} (reader state). Version 2 added the epoch; version
 * 1 splits read back with epoch -1.
 */
@Internal
public final class SequenceSplitSerializer implements SimpleVersionedSerializer<SequenceSplit> {
  private static final int VERSION = 2;

  @Override
  public int getVersion() {
    return VERSION;
  }

  @Override
  public byte[] serialize(SequenceSplit split) throws IOException {
    DataOutputSerializer out = new DataOutputSerializer(20);
    out.writeInt(split.partition());
    out.writeLong(split.nextOffset());
    out.writeLong(split.epoch());
    return out.getCopyOfBuffer();
  }

  @Override
  public SequenceSplit deserialize(int version, byte[] serialized) throws IOException {
    if (version < 1 || version > VERSION) {
      throw new IOException(
          "Unknown sequence split version " + version + ", expected 1.." + VERSION);
    }
    DataInputDeserializer in = new DataInputDeserializer(serialized);
    int partition = in.readInt();
    long nextOffset = in.readLong();
    return new SequenceSplit(partition, nextOffset, version >= 2 ? in.readLong() : -1);
  }
}
