package io.lakestream.connectors.delta.source.split;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.delta.DeltaDeletionVector;
import io.lakestream.connectors.delta.DeltaStreamFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.core.memory.DataOutputView;

/**
 * What the Delta sources' split and enumerator state serializers share: the version check and the
 * buffers, and the encodings of the fields several formats hold (a file's position, its partition
 * values, a list of splits). The formats themselves stay each serializer's own, with their own
 * versions: a subclass gives the functions that write and read its fields in its order.
 *
 * @param <T> the serialized type
 */
@Internal
public abstract class DeltaStateSerializer<T> implements SimpleVersionedSerializer<T> {
  /** Writes one item of a list. */
  @FunctionalInterface
  public interface ItemWriter<S> {
    void write(S item, DataOutputView out) throws IOException;
  }

  /** Reads one item of a list. */
  @FunctionalInterface
  public interface ItemReader<S> {
    S read(DataInputView in) throws IOException;
  }

  /** Reads a value written in a given version of the format. */
  @FunctionalInterface
  public interface VersionedReader<S> {
    S read(int version, DataInputView in) throws IOException;
  }

  private final String what;
  private final int oldestVersion;
  private final int version;
  private final ItemWriter<T> writer;
  private final VersionedReader<T> reader;

  /**
   * @param what the state's name in the message for an unknown version
   * @param oldestVersion the oldest version {@link #deserialize} still reads
   * @param version the version {@link #serialize} writes
   * @param writer writes a value's fields in the current format
   * @param reader reads a value written in a version from {@code oldestVersion} to {@code version}
   */
  protected DeltaStateSerializer(
      String what,
      int oldestVersion,
      int version,
      ItemWriter<T> writer,
      VersionedReader<T> reader) {
    this.what = what;
    this.oldestVersion = oldestVersion;
    this.version = version;
    this.writer = writer;
    this.reader = reader;
  }

  /** A serializer of a format that has had one version. */
  protected DeltaStateSerializer(
      String what, int version, ItemWriter<T> writer, ItemReader<T> reader) {
    this(what, version, version, writer, (v, in) -> reader.read(in));
  }

  @Override
  public final int getVersion() {
    return version;
  }

  @Override
  public final byte[] serialize(T value) throws IOException {
    DataOutputSerializer out = new DataOutputSerializer(128);
    writer.write(value, out);
    return out.getCopyOfBuffer();
  }

  /**
   * @throws IOException for a version this serializer does not read (the message names it)
   */
  @Override
  public final T deserialize(int version, byte[] serialized) throws IOException {
    if (version < oldestVersion || version > this.version) {
      throw new IOException(
          "Unknown "
              + what
              + " version "
              + version
              + ", expected "
              + (oldestVersion == this.version ? "" : oldestVersion + " to ")
              + this.version);
    }
    return reader.read(version, new DataInputDeserializer(serialized));
  }

  /** A file's position: its path, version and index, as the split formats begin. */
  public record FilePosition(String path, long version, int index) {
    /** The position of {@code file}. */
    public static FilePosition of(DeltaStreamFile file) {
      return new FilePosition(file.path(), file.version(), file.index());
    }

    public void write(DataOutputView out) throws IOException {
      out.writeUTF(path);
      out.writeLong(version);
      out.writeInt(index);
    }

    public static FilePosition read(DataInputView in) throws IOException {
      return new FilePosition(in.readUTF(), in.readLong(), in.readInt());
    }
  }

  /** Writes partition values: their count, then each name and (present flag) value, in order. */
  public static void writePartitionValues(Map<String, String> values, DataOutputView out)
      throws IOException {
    out.writeInt(values.size());
    for (Map.Entry<String, String> e : values.entrySet()) {
      out.writeUTF(e.getKey());
      out.writeBoolean(e.getValue() != null);
      if (e.getValue() != null) {
        out.writeUTF(e.getValue());
      }
    }
  }

  /** Reads partition values written by {@link #writePartitionValues}, in their order. */
  public static Map<String, String> readPartitionValues(DataInputView in) throws IOException {
    int count = in.readInt();
    Map<String, String> values = new LinkedHashMap<>();
    for (int i = 0; i < count; i++) {
      String key = in.readUTF();
      values.put(key, in.readBoolean() ? in.readUTF() : null);
    }
    return values;
  }

  /**
   * Writes a file's deletion vector: a presence flag, then its storage type, path or inline data
   * (length-prefixed UTF-8), offset, size and cardinality.
   */
  public static void writeDeletionVector(DeltaDeletionVector dv, DataOutputView out)
      throws IOException {
    out.writeBoolean(dv != null);
    if (dv != null) {
      out.writeUTF(dv.storageType());
      byte[] path = dv.pathOrInlineDv().getBytes(StandardCharsets.UTF_8);
      out.writeInt(path.length);
      out.write(path);
      out.writeInt(dv.offset());
      out.writeInt(dv.sizeInBytes());
      out.writeLong(dv.cardinality());
    }
  }

  /** Reads a deletion vector written by {@link #writeDeletionVector} (null if there was none). */
  public static DeltaDeletionVector readDeletionVector(DataInputView in) throws IOException {
    if (!in.readBoolean()) {
      return null;
    }
    String storageType = in.readUTF();
    byte[] path = new byte[in.readInt()];
    in.readFully(path);
    return new DeltaDeletionVector(
        storageType,
        new String(path, StandardCharsets.UTF_8),
        in.readInt(),
        in.readInt(),
        in.readLong());
  }

  /** Writes a list: its size, then each item. */
  public static <S> void writeList(List<S> items, ItemWriter<S> item, DataOutputView out)
      throws IOException {
    out.writeInt(items.size());
    for (S s : items) {
      item.write(s, out);
    }
  }

  /** Reads a list written by {@link #writeList}. */
  public static <S> List<S> readList(ItemReader<S> item, DataInputView in) throws IOException {
    int count = in.readInt();
    List<S> items = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      items.add(item.read(in));
    }
    return items;
  }
}
