package io.lakestream.connectors.sink;

import io.lakestream.api.annotation.Internal;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/**
 * Versioned serializer for {@link EpochCommittable}: the epoch, then each result framed with the
 * result serializer's own version, so the result format can evolve independently.
 */
@Internal
public final class EpochCommittableSerializer<R>
    implements SimpleVersionedSerializer<EpochCommittable<R>> {
  private static final int VERSION = 1;
  private final SimpleVersionedSerializer<R> resultSerializer;

  public EpochCommittableSerializer(SimpleVersionedSerializer<R> resultSerializer) {
    this.resultSerializer = resultSerializer;
  }

  @Override
  public int getVersion() {
    return VERSION;
  }

  @Override
  public byte[] serialize(EpochCommittable<R> committable) throws IOException {
    DataOutputSerializer out = new DataOutputSerializer(256);
    out.writeLong(committable.epoch());
    out.writeLong(committable.watermark());
    out.writeInt(resultSerializer.getVersion());
    out.writeInt(committable.results().size());
    for (R result : committable.results()) {
      byte[] bytes = resultSerializer.serialize(result);
      out.writeInt(bytes.length);
      out.write(bytes);
    }
    return out.getCopyOfBuffer();
  }

  @Override
  public EpochCommittable<R> deserialize(int version, byte[] serialized) throws IOException {
    if (version != VERSION) {
      throw new IOException(
          "Unknown epoch committable version "
              + version
              + " (this build reads version "
              + VERSION
              + "): restore with the lakestream version that wrote the checkpoint");
    }
    DataInputDeserializer in = new DataInputDeserializer(serialized);
    long epoch = in.readLong();
    long watermark = in.readLong();
    int resultVersion = in.readInt();
    int count = in.readInt();
    List<R> results = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      byte[] bytes = new byte[in.readInt()];
      in.readFully(bytes);
      results.add(resultSerializer.deserialize(resultVersion, bytes));
    }
    return new EpochCommittable<>(epoch, results, watermark);
  }
}
