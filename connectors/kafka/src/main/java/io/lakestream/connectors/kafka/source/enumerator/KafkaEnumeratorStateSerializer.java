package io.lakestream.connectors.kafka.source.enumerator;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.kafka.source.split.KafkaPartitionSplit;
import io.lakestream.connectors.kafka.source.split.KafkaPartitionSplitSerializer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/** Versioned serializer for {@link KafkaEnumeratorState}. */
@Internal
public final class KafkaEnumeratorStateSerializer
    implements SimpleVersionedSerializer<KafkaEnumeratorState> {
  private static final int VERSION = 1;

  @Override
  public int getVersion() {
    return VERSION;
  }

  @Override
  public byte[] serialize(KafkaEnumeratorState state) throws IOException {
    DataOutputSerializer out = new DataOutputSerializer(128);
    out.writeInt(state.unassigned().size());
    for (KafkaPartitionSplit split : state.unassigned()) {
      KafkaPartitionSplitSerializer.write(split, out);
    }
    TreeSet<String> known = new TreeSet<>(state.knownPartitions());
    out.writeInt(known.size());
    for (String id : known) {
      out.writeUTF(id);
    }
    return out.getCopyOfBuffer();
  }

  @Override
  public KafkaEnumeratorState deserialize(int version, byte[] serialized) throws IOException {
    if (version != VERSION) {
      throw new IOException(
          "Unknown Kafka enumerator state version " + version + ", expected " + VERSION);
    }
    DataInputDeserializer in = new DataInputDeserializer(serialized);
    int count = in.readInt();
    List<KafkaPartitionSplit> splits = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      splits.add(KafkaPartitionSplitSerializer.read(in));
    }
    int knownCount = in.readInt();
    Set<String> known = new TreeSet<>();
    for (int i = 0; i < knownCount; i++) {
      known.add(in.readUTF());
    }
    return new KafkaEnumeratorState(splits, known);
  }
}
