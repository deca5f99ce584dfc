package io.lakestream.connectors.autoloader.source.split;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.autoloader.discovery.DiscoveredFile;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.core.memory.DataOutputView;

/** Versioned serializer for {@link FileBatchSplit}. */
@Internal
public final class FileBatchSplitSerializer implements SimpleVersionedSerializer<FileBatchSplit> {
  private static final int VERSION = 1;

  @Override
  public int getVersion() {
    return VERSION;
  }

  @Override
  public byte[] serialize(FileBatchSplit split) throws IOException {
    DataOutputSerializer out = new DataOutputSerializer(64 + 64 * split.files().size());
    out.writeUTF(split.id());
    writeFiles(split.files(), out);
    return out.getCopyOfBuffer();
  }

  @Override
  public FileBatchSplit deserialize(int version, byte[] serialized) throws IOException {
    if (version != VERSION) {
      throw new IOException(
          "Unknown Auto Loader split version " + version + ", expected " + VERSION);
    }
    DataInputDeserializer in = new DataInputDeserializer(serialized);
    return new FileBatchSplit(in.readUTF(), readFiles(in));
  }

  /** Writes a count and the files; shared with the enumerator state. */
  public static void writeFiles(List<DiscoveredFile> files, DataOutputView out) throws IOException {
    out.writeInt(files.size());
    for (DiscoveredFile file : files) {
      out.writeUTF(file.key);
      out.writeLong(file.size);
      out.writeLong(file.modificationTime);
    }
  }

  /** Reads what {@link #writeFiles} wrote. */
  public static List<DiscoveredFile> readFiles(DataInputView in) throws IOException {
    int count = in.readInt();
    List<DiscoveredFile> files = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      files.add(new DiscoveredFile(in.readUTF(), in.readLong(), in.readLong()));
    }
    return files;
  }
}
