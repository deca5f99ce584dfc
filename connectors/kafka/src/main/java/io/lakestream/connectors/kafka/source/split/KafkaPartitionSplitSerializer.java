package io.lakestream.connectors.kafka.source.split;

import io.lakestream.api.annotation.Internal;
import java.io.IOException;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.core.memory.DataOutputView;

/** Versioned serializer for {@link KafkaPartitionSplit} (reader state). */
@Internal
public final class KafkaPartitionSplitSerializer
    implements SimpleVersionedSerializer<KafkaPartitionSplit> {
  private static final int VERSION = 1;

  @Override
  public int getVersion() {
    return VERSION;
  }

  @Override
  public byte[] serialize(KafkaPartitionSplit split) throws IOException {
    DataOutputSerializer out = new DataOutputSerializer(32);
    write(split, out);
    return out.getCopyOfBuffer();
  }

  @Override
  public KafkaPartitionSplit deserialize(int version, byte[] serialized) throws IOException {
    if (version != VERSION) {
      throw new IOException("Unknown Kafka split version " + version + ", expected " + VERSION);
    }
    return read(new DataInputDeserializer(serialized));
  }

  /** Writes one split (shared with the enumerator state serializer). */
  public static void write(KafkaPartitionSplit split, DataOutputView out) throws IOException {
    out.writeUTF(split.topic());
    out.writeInt(split.partition());
    out.writeLong(split.nextOffset());
  }

  public static KafkaPartitionSplit read(DataInputView in) throws IOException {
    return new KafkaPartitionSplit(in.readUTF(), in.readInt(), in.readLong());
  }
}
