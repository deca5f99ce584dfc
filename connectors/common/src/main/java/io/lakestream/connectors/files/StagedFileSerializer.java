package io.lakestream.connectors.files;

import io.lakestream.api.annotation.Internal;
import java.io.IOException;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/** Versioned serializer for {@link StagedFile} (held in checkpoints until the epoch commits). */
@Internal
public final class StagedFileSerializer implements SimpleVersionedSerializer<StagedFile> {
  private static final int VERSION = 1;

  @Override
  public int getVersion() {
    return VERSION;
  }

  @Override
  public byte[] serialize(StagedFile file) throws IOException {
    DataOutputSerializer out = new DataOutputSerializer(128);
    out.writeUTF(file.stagingPath());
    out.writeUTF(file.finalPath());
    out.writeLong(file.numRows());
    out.writeLong(file.numBytes());
    return out.getCopyOfBuffer();
  }

  @Override
  public StagedFile deserialize(int version, byte[] serialized) throws IOException {
    if (version != VERSION) {
      throw new IOException("Unknown staged file version " + version + ", expected " + VERSION);
    }
    DataInputDeserializer in = new DataInputDeserializer(serialized);
    return new StagedFile(in.readUTF(), in.readUTF(), in.readLong(), in.readLong());
  }
}
