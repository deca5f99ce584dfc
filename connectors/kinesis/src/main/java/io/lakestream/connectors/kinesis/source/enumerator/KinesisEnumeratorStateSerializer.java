package io.lakestream.connectors.kinesis.source.enumerator;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.kinesis.source.split.KinesisShardSplit;
import io.lakestream.connectors.kinesis.source.split.KinesisShardSplitSerializer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/**
 * Versioned serializer of {@link KinesisEnumeratorState}. Version 1: the assigned and finished
 * shard ids (count, then each), then the pending splits in {@link KinesisShardSplitSerializer}'s
 * version 1 layout. An unknown version fails the restore with an {@link IOException} naming it.
 */
@Internal
public final class KinesisEnumeratorStateSerializer
    implements SimpleVersionedSerializer<KinesisEnumeratorState> {
  private static final int VERSION = 1;

  @Override
  public int getVersion() {
    return VERSION;
  }

  @Override
  public byte[] serialize(KinesisEnumeratorState state) throws IOException {
    DataOutputSerializer out = new DataOutputSerializer(256);
    writeIds(state.assigned(), out);
    writeIds(state.finished(), out);
    out.writeInt(state.pending().size());
    for (KinesisShardSplit split : state.pending()) {
      KinesisShardSplitSerializer.write(split, out);
    }
    return out.getCopyOfBuffer();
  }

  @Override
  public KinesisEnumeratorState deserialize(int version, byte[] serialized) throws IOException {
    if (version != VERSION) {
      throw new IOException(
          "Unknown Kinesis enumerator state version " + version + ", expected " + VERSION);
    }
    DataInputDeserializer in = new DataInputDeserializer(serialized);
    Set<String> assigned = readIds(in);
    Set<String> finished = readIds(in);
    int count = in.readInt();
    List<KinesisShardSplit> pending = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      pending.add(KinesisShardSplitSerializer.read(in));
    }
    return new KinesisEnumeratorState(assigned, finished, pending);
  }

  private static void writeIds(Set<String> ids, DataOutputSerializer out) throws IOException {
    out.writeInt(ids.size());
    for (String id : ids) {
      out.writeUTF(id);
    }
  }

  private static Set<String> readIds(DataInputDeserializer in) throws IOException {
    int count = in.readInt();
    Set<String> ids = new TreeSet<>();
    for (int i = 0; i < count; i++) {
      ids.add(in.readUTF());
    }
    return ids;
  }
}
