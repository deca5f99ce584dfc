package io.lakestream.connectors.delta.cdf.source.enumerator;

import io.lakestream.connectors.delta.cdf.source.split.DeltaCdfSplit;
import io.lakestream.connectors.delta.cdf.source.split.DeltaCdfSplitSerializer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/** Versioned serializer for {@link DeltaCdfEnumeratorState}. */
public final class DeltaCdfEnumeratorStateSerializer
    implements SimpleVersionedSerializer<DeltaCdfEnumeratorState> {
  private static final int VERSION = 1;

  @Override
  public int getVersion() {
    return VERSION;
  }

  @Override
  public byte[] serialize(DeltaCdfEnumeratorState state) throws IOException {
    DataOutputSerializer out = new DataOutputSerializer(128);
    out.writeLong(state.nextVersion());
    out.writeInt(state.nextIndex());
    out.writeLong(state.filesAdmitted());
    out.writeInt(state.pending().size());
    for (DeltaCdfSplit split : state.pending()) {
      DeltaCdfSplitSerializer.write(split, out);
    }
    return out.getCopyOfBuffer();
  }

  @Override
  public DeltaCdfEnumeratorState deserialize(int version, byte[] serialized) throws IOException {
    if (version != VERSION) {
      throw new IOException(
          "Unknown Delta CDF source enumerator state version " + version + ", expected " + VERSION);
    }
    DataInputDeserializer in = new DataInputDeserializer(serialized);
    long nextVersion = in.readLong();
    int nextIndex = in.readInt();
    long filesAdmitted = in.readLong();
    int count = in.readInt();
    List<DeltaCdfSplit> pending = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      pending.add(DeltaCdfSplitSerializer.read(in));
    }
    return new DeltaCdfEnumeratorState(nextVersion, nextIndex, pending, filesAdmitted);
  }
}
