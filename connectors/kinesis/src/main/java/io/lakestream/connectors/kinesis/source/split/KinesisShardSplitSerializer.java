package io.lakestream.connectors.kinesis.source.split;

import io.lakestream.api.annotation.Internal;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/**
 * Versioned serializer of {@link KinesisShardSplit} (reader state). Version 1: shard id, parent
 * count and ids, a flag and the sequence number when one was read, start millis, records read,
 * finished. An unknown version fails the restore with an {@link IOException} naming it.
 */
@Internal
public final class KinesisShardSplitSerializer
    implements SimpleVersionedSerializer<KinesisShardSplit> {
  static final int VERSION = 1;

  @Override
  public int getVersion() {
    return VERSION;
  }

  @Override
  public byte[] serialize(KinesisShardSplit split) throws IOException {
    DataOutputSerializer out = new DataOutputSerializer(96);
    write(split, out);
    return out.getCopyOfBuffer();
  }

  @Override
  public KinesisShardSplit deserialize(int version, byte[] serialized) throws IOException {
    checkVersion(version);
    return read(new DataInputDeserializer(serialized));
  }

  /** Writes {@code split} in the current version's layout. */
  public static void write(KinesisShardSplit split, DataOutputSerializer out) throws IOException {
    out.writeUTF(split.shardId());
    out.writeInt(split.parents().size());
    for (String parent : split.parents()) {
      out.writeUTF(parent);
    }
    out.writeBoolean(split.afterSequence() != null);
    if (split.afterSequence() != null) {
      out.writeUTF(split.afterSequence());
    }
    out.writeLong(split.startMillis());
    out.writeLong(split.recordsRead());
    out.writeBoolean(split.finished());
  }

  /** Reads a split written by {@link #write}. */
  public static KinesisShardSplit read(DataInputDeserializer in) throws IOException {
    String shardId = in.readUTF();
    int count = in.readInt();
    List<String> parents = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      parents.add(in.readUTF());
    }
    String after = in.readBoolean() ? in.readUTF() : null;
    return new KinesisShardSplit(
        shardId, parents, after, in.readLong(), in.readLong(), in.readBoolean());
  }

  /** Fails for a version this serializer cannot read. */
  public static void checkVersion(int version) throws IOException {
    if (version != VERSION) {
      throw new IOException(
          "Unknown Kinesis shard split version " + version + ", expected " + VERSION);
    }
  }
}
