package io.lakestream.connectors.delta.source.split;

import io.lakestream.connectors.delta.DeltaAddedFile;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.core.memory.DataOutputView;

/** Versioned serializer for {@link DeltaSourceSplit} (reader state, enumerator pending splits). */
public final class DeltaSourceSplitSerializer
    implements SimpleVersionedSerializer<DeltaSourceSplit> {
  private static final int VERSION = 1;

  @Override
  public int getVersion() {
    return VERSION;
  }

  @Override
  public byte[] serialize(DeltaSourceSplit split) throws IOException {
    DataOutputSerializer out = new DataOutputSerializer(128);
    write(split, out);
    return out.getCopyOfBuffer();
  }

  @Override
  public DeltaSourceSplit deserialize(int version, byte[] serialized) throws IOException {
    checkVersion(version);
    return read(new DataInputDeserializer(serialized));
  }

  static void checkVersion(int version) throws IOException {
    if (version != VERSION) {
      throw new IOException(
          "Unknown Delta source split version " + version + ", expected " + VERSION);
    }
  }

  /** Writes {@code split} in this serializer's current format (for composite states). */
  public static void write(DeltaSourceSplit split, DataOutputView out) throws IOException {
    DeltaAddedFile file = split.file();
    out.writeUTF(file.path());
    out.writeLong(file.version());
    out.writeInt(file.index());
    out.writeBoolean(file.initialSnapshot());
    out.writeInt(file.partitionValues().size());
    for (Map.Entry<String, String> e : file.partitionValues().entrySet()) {
      out.writeUTF(e.getKey());
      out.writeBoolean(e.getValue() != null);
      if (e.getValue() != null) {
        out.writeUTF(e.getValue());
      }
    }
    out.writeLong(file.size());
    out.writeLong(file.numRecords());
    out.writeLong(split.rowsToSkip());
  }

  /** Reads a split written by {@link #write}. */
  public static DeltaSourceSplit read(DataInputView in) throws IOException {
    String path = in.readUTF();
    long version = in.readLong();
    int index = in.readInt();
    boolean initialSnapshot = in.readBoolean();
    int partitions = in.readInt();
    Map<String, String> values = new LinkedHashMap<>();
    for (int i = 0; i < partitions; i++) {
      String key = in.readUTF();
      values.put(key, in.readBoolean() ? in.readUTF() : null);
    }
    long size = in.readLong();
    long numRecords = in.readLong();
    long rowsToSkip = in.readLong();
    return new DeltaSourceSplit(
        new DeltaAddedFile(path, version, index, initialSnapshot, values, size, numRecords),
        rowsToSkip);
  }
}
