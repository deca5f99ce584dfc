package io.lakestream.connectors.delta.source.enumerator;

import io.lakestream.connectors.delta.source.split.DeltaSourceSplit;
import io.lakestream.connectors.delta.source.split.DeltaSourceSplitSerializer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/** Versioned serializer for {@link DeltaEnumeratorState}. */
public final class DeltaEnumeratorStateSerializer
    implements SimpleVersionedSerializer<DeltaEnumeratorState> {
  private static final int VERSION = 1;

  @Override
  public int getVersion() {
    return VERSION;
  }

  @Override
  public byte[] serialize(DeltaEnumeratorState state) throws IOException {
    DataOutputSerializer out = new DataOutputSerializer(128);
    out.writeLong(state.nextVersion());
    out.writeInt(state.nextIndex());
    out.writeBoolean(state.initialSnapshot());
    out.writeLong(state.rowsAdmitted());
    out.writeInt(state.pending().size());
    for (DeltaSourceSplit split : state.pending()) {
      DeltaSourceSplitSerializer.write(split, out);
    }
    return out.getCopyOfBuffer();
  }

  @Override
  public DeltaEnumeratorState deserialize(int version, byte[] serialized) throws IOException {
    if (version != VERSION) {
      throw new IOException(
          "Unknown Delta source enumerator state version " + version + ", expected " + VERSION);
    }
    DataInputDeserializer in = new DataInputDeserializer(serialized);
    long nextVersion = in.readLong();
    int nextIndex = in.readInt();
    boolean initialSnapshot = in.readBoolean();
    long rowsAdmitted = in.readLong();
    int count = in.readInt();
    List<DeltaSourceSplit> pending = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      pending.add(DeltaSourceSplitSerializer.read(in));
    }
    return new DeltaEnumeratorState(nextVersion, nextIndex, initialSnapshot, pending, rowsAdmitted);
  }
}
