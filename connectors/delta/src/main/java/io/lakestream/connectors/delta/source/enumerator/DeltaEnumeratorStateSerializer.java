package io.lakestream.connectors.delta.source.enumerator;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.delta.source.split.DeltaSourceSplitSerializer;
import io.lakestream.connectors.delta.source.split.DeltaStateSerializer;
import java.io.IOException;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Versioned serializer for {@link DeltaEnumeratorState}: next version, next index, whether in the
 * initial snapshot, rows admitted, then the pending splits (count, then each in {@link
 * DeltaSourceSplitSerializer}'s format: its version 1 in state version 1, its version 2, with
 * deletion vectors, in state version 2).
 */
@Internal
public final class DeltaEnumeratorStateSerializer
    extends DeltaStateSerializer<DeltaEnumeratorState> {
  private static final int VERSION = 2;

  public DeltaEnumeratorStateSerializer() {
    super(
        "Delta source enumerator state",
        1,
        VERSION,
        DeltaEnumeratorStateSerializer::write,
        DeltaEnumeratorStateSerializer::read);
  }

  private static void write(DeltaEnumeratorState state, DataOutputView out) throws IOException {
    out.writeLong(state.nextVersion());
    out.writeInt(state.nextIndex());
    out.writeBoolean(state.initialSnapshot());
    out.writeLong(state.rowsAdmitted());
    writeList(state.pending(), DeltaSourceSplitSerializer::write, out);
  }

  private static DeltaEnumeratorState read(int version, DataInputView in) throws IOException {
    long nextVersion = in.readLong();
    int nextIndex = in.readInt();
    boolean initialSnapshot = in.readBoolean();
    long rowsAdmitted = in.readLong();
    return new DeltaEnumeratorState(
        nextVersion,
        nextIndex,
        initialSnapshot,
        readList(split -> DeltaSourceSplitSerializer.read(version, split), in),
        rowsAdmitted);
  }
}
