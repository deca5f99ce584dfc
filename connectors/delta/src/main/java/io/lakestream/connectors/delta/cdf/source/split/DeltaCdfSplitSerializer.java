package io.lakestream.connectors.delta.cdf.source.split;

import io.lakestream.connectors.delta.cdf.DeltaChangeFile;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.core.memory.DataOutputView;

/** Versioned serializer for {@link DeltaCdfSplit} (reader state, enumerator pending splits). */
public final class DeltaCdfSplitSerializer implements SimpleVersionedSerializer<DeltaCdfSplit> {
  private static final int VERSION = 1;

  @Override
  public int getVersion() {
    return VERSION;
  }

  @Override
  public byte[] serialize(DeltaCdfSplit split) throws IOException {
    DataOutputSerializer out = new DataOutputSerializer(128);
    write(split, out);
    return out.getCopyOfBuffer();
  }

  @Override
  public DeltaCdfSplit deserialize(int version, byte[] serialized) throws IOException {
    if (version != VERSION) {
      throw new IOException(
          "Unknown Delta CDF source split version " + version + ", expected " + VERSION);
    }
    return read(new DataInputDeserializer(serialized));
  }

  /** Writes {@code split} in this serializer's current format (for composite states). */
  public static void write(DeltaCdfSplit split, DataOutputView out) throws IOException {
    DeltaChangeFile file = split.file();
    out.writeUTF(file.path());
    out.writeLong(file.version());
    out.writeInt(file.index());
    out.writeLong(file.commitTimestamp());
    out.writeUTF(file.kind().name());
    out.writeInt(file.partitionValues().size());
    for (Map.Entry<String, String> e : file.partitionValues().entrySet()) {
      out.writeUTF(e.getKey());
      out.writeBoolean(e.getValue() != null);
      if (e.getValue() != null) {
        out.writeUTF(e.getValue());
      }
    }
    out.writeLong(file.size());
    out.writeLong(split.rowsToSkip());
  }

  /** Reads a split written by {@link #write}. */
  public static DeltaCdfSplit read(DataInputView in) throws IOException {
    String path = in.readUTF();
    long version = in.readLong();
    int index = in.readInt();
    long timestamp = in.readLong();
    DeltaChangeFile.Kind kind = DeltaChangeFile.Kind.valueOf(in.readUTF());
    int partitions = in.readInt();
    Map<String, String> values = new LinkedHashMap<>();
    for (int i = 0; i < partitions; i++) {
      String key = in.readUTF();
      values.put(key, in.readBoolean() ? in.readUTF() : null);
    }
    long size = in.readLong();
    long rowsToSkip = in.readLong();
    return new DeltaCdfSplit(
        new DeltaChangeFile(path, version, index, timestamp, kind, values, size), rowsToSkip);
  }
}
