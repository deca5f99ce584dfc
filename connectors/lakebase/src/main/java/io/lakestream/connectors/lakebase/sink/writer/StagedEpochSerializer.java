package io.lakestream.connectors.lakebase.sink.writer;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.lakebase.StagingTable;
import java.io.IOException;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/**
 * Versioned serializer of {@link StagedEpoch} (checkpointed committer state; no Kryo). Version 1:
 * app id (UTF), subtask, stage id, checkpoint after which it was staged, rows, deletes. A later
 * version must keep reading version 1; an unknown version fails naming both.
 */
@Internal
public final class StagedEpochSerializer implements SimpleVersionedSerializer<StagedEpoch> {
  static final int VERSION = 1;

  @Override
  public int getVersion() {
    return VERSION;
  }

  @Override
  public byte[] serialize(StagedEpoch epoch) throws IOException {
    DataOutputSerializer out = new DataOutputSerializer(64);
    out.writeUTF(epoch.tag().app());
    out.writeInt(epoch.tag().subtask());
    out.writeLong(epoch.tag().stageId());
    out.writeLong(epoch.tag().afterCheckpoint());
    out.writeLong(epoch.rows());
    out.writeLong(epoch.deletes());
    return out.getCopyOfBuffer();
  }

  @Override
  public StagedEpoch deserialize(int version, byte[] serialized) throws IOException {
    if (version != VERSION) {
      throw new IOException(
          "Unknown Lakebase staged-epoch version "
              + version
              + " (this build reads version "
              + VERSION
              + "): restore with the lakestream version that wrote the checkpoint");
    }
    DataInputDeserializer in = new DataInputDeserializer(serialized);
    StagingTable.Tag tag =
        new StagingTable.Tag(in.readUTF(), in.readInt(), in.readLong(), in.readLong());
    return new StagedEpoch(tag, in.readLong(), in.readLong());
  }
}
