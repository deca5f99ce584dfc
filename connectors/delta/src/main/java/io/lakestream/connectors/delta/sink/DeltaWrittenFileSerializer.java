package io.lakestream.connectors.delta.sink;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.delta.DeltaWrittenFile;
import java.io.IOException;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * Versioned serializer for {@link DeltaWrittenFile} (held in checkpoints until its epoch commits).
 */
@Internal
public final class DeltaWrittenFileSerializer
    implements SimpleVersionedSerializer<DeltaWrittenFile> {

  @Override
  public int getVersion() {
    return DeltaWrittenFile.SERIAL_VERSION;
  }

  @Override
  public byte[] serialize(DeltaWrittenFile file) {
    return file.toBytes();
  }

  @Override
  public DeltaWrittenFile deserialize(int version, byte[] serialized) throws IOException {
    return DeltaWrittenFile.fromBytes(version, serialized);
  }
}
