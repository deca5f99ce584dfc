package io.lakestream.connectors.delta.cdf.source.enumerator;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.delta.cdf.source.split.DeltaCdfSplit;
import io.lakestream.connectors.delta.cdf.source.split.DeltaCdfSplitSerializer;
import io.lakestream.connectors.delta.source.split.DeltaStateSerializer;
import java.io.IOException;
import java.util.List;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Versioned serializer for {@link DeltaCdfEnumeratorState}: next version, next index, files
 * admitted, the pending splits (count, then each in {@link DeltaCdfSplitSerializer}'s format), and
 * since version 2 the snapshot version; version 1 states (written before the source had an initial
 * snapshot) restore without one. Version 3 writes the pending splits in {@link
 * DeltaCdfSplitSerializer}'s version 2 (with deletion vectors); states 1 and 2 hold its version 1.
 */
@Internal
public final class DeltaCdfEnumeratorStateSerializer
    extends DeltaStateSerializer<DeltaCdfEnumeratorState> {
  private static final int VERSION = 3;

  public DeltaCdfEnumeratorStateSerializer() {
    super(
        "Delta CDF source enumerator state",
        1,
        VERSION,
        DeltaCdfEnumeratorStateSerializer::write,
        DeltaCdfEnumeratorStateSerializer::read);
  }

  private static void write(DeltaCdfEnumeratorState state, DataOutputView out) throws IOException {
    out.writeLong(state.nextVersion());
    out.writeInt(state.nextIndex());
    out.writeLong(state.filesAdmitted());
    writeList(state.pending(), DeltaCdfSplitSerializer::write, out);
    out.writeLong(state.snapshotVersion());
  }

  private static DeltaCdfEnumeratorState read(int version, DataInputView in) throws IOException {
    long nextVersion = in.readLong();
    int nextIndex = in.readInt();
    long filesAdmitted = in.readLong();
    int splitVersion = version >= 3 ? 2 : 1;
    List<DeltaCdfSplit> pending =
        readList(split -> DeltaCdfSplitSerializer.read(splitVersion, split), in);
    long snapshotVersion = version >= 2 ? in.readLong() : DeltaCdfEnumeratorState.NO_SNAPSHOT;
    return new DeltaCdfEnumeratorState(
        nextVersion, nextIndex, pending, filesAdmitted, snapshotVersion);
  }
}
