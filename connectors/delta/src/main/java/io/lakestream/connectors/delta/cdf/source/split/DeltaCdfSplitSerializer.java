package io.lakestream.connectors.delta.cdf.source.split;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.delta.DeltaDeletionVector;
import io.lakestream.connectors.delta.cdf.DeltaChangeFile;
import io.lakestream.connectors.delta.source.split.DeltaStateSerializer;
import java.io.IOException;
import java.util.Map;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Versioned serializer for {@link DeltaCdfSplit} (reader state, enumerator pending splits). Version
 * 1: the file's position (path, version, index), its commit timestamp and kind, its partition
 * values and size, then the rows to skip. Version 2 adds the file's deletion vector and selection
 * vector at the end ({@link #writeDeletionVector}); version 1 splits restore without them.
 */
@Internal
public final class DeltaCdfSplitSerializer extends DeltaStateSerializer<DeltaCdfSplit> {
  /** The version {@link #write} writes. */
  public static final int VERSION = 2;

  public DeltaCdfSplitSerializer() {
    super(
        "Delta CDF source split",
        1,
        VERSION,
        DeltaCdfSplitSerializer::write,
        DeltaCdfSplitSerializer::read);
  }

  /** Writes {@code split} in this serializer's current format (for composite states). */
  public static void write(DeltaCdfSplit split, DataOutputView out) throws IOException {
    DeltaChangeFile file = split.file();
    FilePosition.of(file).write(out);
    out.writeLong(file.commitTimestamp());
    out.writeUTF(file.kind().name());
    writePartitionValues(file.partitionValues(), out);
    out.writeLong(file.size());
    out.writeLong(split.rowsToSkip());
    writeDeletionVector(file.deletionVector(), out);
    writeDeletionVector(file.selectionVector(), out);
  }

  /** Reads a split written by {@link #write} in format {@code version}. */
  public static DeltaCdfSplit read(int version, DataInputView in) throws IOException {
    FilePosition position = FilePosition.read(in);
    long timestamp = in.readLong();
    DeltaChangeFile.Kind kind = DeltaChangeFile.Kind.valueOf(in.readUTF());
    Map<String, String> values = readPartitionValues(in);
    long size = in.readLong();
    long rowsToSkip = in.readLong();
    DeltaDeletionVector deletion = version >= 2 ? readDeletionVector(in) : null;
    DeltaDeletionVector selection = version >= 2 ? readDeletionVector(in) : null;
    return new DeltaCdfSplit(
        new DeltaChangeFile(
            position.path(),
            position.version(),
            position.index(),
            timestamp,
            kind,
            values,
            size,
            deletion,
            selection),
        rowsToSkip);
  }
}
