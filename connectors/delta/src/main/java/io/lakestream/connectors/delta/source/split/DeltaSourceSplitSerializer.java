package io.lakestream.connectors.delta.source.split;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.delta.DeltaAddedFile;
import io.lakestream.connectors.delta.DeltaDeletionVector;
import java.io.IOException;
import java.util.Map;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Versioned serializer for {@link DeltaSourceSplit} (reader state, enumerator pending splits).
 * Version 1: the file's position (path, version, index), whether it is of the initial snapshot, its
 * partition values, size and row count, then the rows to skip. Version 2 adds the file's deletion
 * vector at the end ({@link #writeDeletionVector}); version 1 splits restore without one (they were
 * written when files with deletion vectors were refused).
 */
@Internal
public final class DeltaSourceSplitSerializer extends DeltaStateSerializer<DeltaSourceSplit> {
  /** The version {@link #write} writes. */
  public static final int VERSION = 2;

  public DeltaSourceSplitSerializer() {
    super(
        "Delta source split",
        1,
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
    writeDeletionVector(file.deletionVector(), out);
  }

  /** Reads a split written by {@link #write} in format {@code version}. */
  public static DeltaSourceSplit read(int version, DataInputView in) throws IOException {
    FilePosition position = FilePosition.read(in);
    boolean initialSnapshot = in.readBoolean();
    Map<String, String> values = readPartitionValues(in);
    long size = in.readLong();
    long numRecords = in.readLong();
    long rowsToSkip = in.readLong();
    DeltaDeletionVector dv = version >= 2 ? readDeletionVector(in) : null;
    return new DeltaSourceSplit(
        new DeltaAddedFile(
            position.path(),
            position.version(),
            position.index(),
            initialSnapshot,
            values,
            size,
            numRecords,
            dv),
        rowsToSkip);
  }
}
