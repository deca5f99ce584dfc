package io.lakestream.connectors.delta.cdf.source.enumerator;

import io.lakestream.connectors.delta.cdf.source.split.DeltaCdfSplit;
import io.lakestream.connectors.delta.cdf.source.split.DeltaCdfSplitSerializer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/**
 * Versioned serializer for {@link DeltaCdfEnumeratorState}. Version 2 added the snapshot version;
 * version 1 states (written before the source had an initial snapshot) restore without one.
 */
public final class DeltaCdfEnumeratorStateSerializer
    implements SimpleVersionedSerializer<DeltaCdfEnumeratorState> {
  private static final int VERSION = 2;

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
    out.writeLong(state.snapshotVersion());
    return out.getCopyOfBuffer();
  }

  @Override
  public DeltaCdfEnumeratorState deserialize(int version, byte[] serialized) throws IOException {
    if (version != 1 && version != VERSION) {
      throw new IOException(
          "Unknown Delta CDF source enumerator state version "
              + version
              + ", expected 1 to "
              + VERSION);
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
    long snapshotVersion = version >= 2 ? in.readLong() : DeltaCdfEnumeratorState.NO_SNAPSHOT;
    return new DeltaCdfEnumeratorState(
        nextVersion, nextIndex, pending, filesAdmitted, snapshotVersion);
  }
}
