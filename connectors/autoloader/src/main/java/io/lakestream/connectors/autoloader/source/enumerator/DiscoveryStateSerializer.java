package io.lakestream.connectors.autoloader.source.enumerator;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.autoloader.source.split.FileBatchSplitSerializer;
import java.io.IOException;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/** Versioned serializer for {@link DiscoveryState}. */
@Internal
public final class DiscoveryStateSerializer implements SimpleVersionedSerializer<DiscoveryState> {
  private static final int VERSION = 1;

  @Override
  public int getVersion() {
    return VERSION;
  }

  @Override
  public byte[] serialize(DiscoveryState state) throws IOException {
    DataOutputSerializer out = new DataOutputSerializer(256);
    out.writeUTF(state.cursor());
    out.writeBoolean(state.backfillCursor() != null);
    if (state.backfillCursor() != null) {
      out.writeUTF(state.backfillCursor());
    }
    out.writeInt(state.incrementalListings());
    out.writeLong(state.lastBackfillMillis());
    out.writeLong(state.ignoreBefore());
    out.writeLong(state.filesAdmitted());
    out.writeLong(state.listingCalls());
    FileBatchSplitSerializer.writeFiles(state.pending(), out);
    FileBatchSplitSerializer.writeFiles(state.candidates(), out);
    return out.getCopyOfBuffer();
  }

  @Override
  public DiscoveryState deserialize(int version, byte[] serialized) throws IOException {
    if (version != VERSION) {
      throw new IOException(
          "Unknown Auto Loader enumerator state version " + version + ", expected " + VERSION);
    }
    DataInputDeserializer in = new DataInputDeserializer(serialized);
    String cursor = in.readUTF();
    String backfill = in.readBoolean() ? in.readUTF() : null;
    return new DiscoveryState(
        cursor,
        backfill,
        in.readInt(),
        in.readLong(),
        in.readLong(),
        in.readLong(),
        in.readLong(),
        FileBatchSplitSerializer.readFiles(in),
        FileBatchSplitSerializer.readFiles(in));
  }
}
