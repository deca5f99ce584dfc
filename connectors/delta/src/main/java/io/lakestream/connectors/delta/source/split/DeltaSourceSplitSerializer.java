package io.lakestream.connectors.delta.source.split;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.delta.DeltaAddedFile;
import java.io.IOException;
import java.util.Map;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Versioned serializer for {@link DeltaSourceSplit} (reader state, enumerator pending splits).
 * Version 1: the file's position (path, version, index), whether it is of the initial snapshot, its
 * partition values, size and row count, then the rows to skip.
 */
@Internal
public final class DeltaSourceSplitSerializer extends DeltaStateSerializer<DeltaSourceSplit> {
  private static final int VERSION = 1;

  public DeltaSourceSplitSerializer() {
    super(
        "Delta source split",
        VERSION,
        DeltaSourceSplitSerializer::write,
        DeltaSourceSplitSerializer::read);
  }

  /** Writes {@code split} in this serializer's current format (for composite states). */
  public static void write(DeltaSourceSplit split, DataOutputView out) throws IOException {
    DeltaAddedFile file = split.file();
    FilePosition.of(file).write(out);
    out.writeBoolean(file.initialSnapshot());
    writePartitionValues(file.partitionValues(), out);
    out.writeLong(file.size());
    out.writeLong(file.numRecords());
    out.writeLong(split.rowsToSkip());
  }

  /** Reads a split written by {@link #write}. */
  public static DeltaSourceSplit read(DataInputView in) throws IOException {
    FilePosition position = FilePosition.read(in);
    boolean initialSnapshot = in.readBoolean();
    Map<String, String> values = readPartitionValues(in);
    long size = in.readLong();
    long numRecords = in.readLong();
    long rowsToSkip = in.readLong();
    return new DeltaSourceSplit(
        new DeltaAddedFile(
            position.path(),
            position.version(),
            position.index(),
            initialSnapshot,
            values,
            size,
            numRecords),
        rowsToSkip);
  }
}
