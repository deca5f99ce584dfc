package io.lakestream.connectors.delta.source.enumerator;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.delta.source.split.DeltaSourceSplit;
import java.util.List;

/**
 * Enumerator checkpoint state: the position of the next data file to admit, and the admitted files
 * not yet handed to a reader. Files before the position were admitted; they are in {@code pending}
 * or in a reader's state, so a restore neither re-reads nor loses any.
 *
 * @param nextVersion the version of the next file to admit (the snapshot's version while {@code
 *     initialSnapshot})
 * @param nextIndex the index of the next file within that version (or snapshot)
 * @param initialSnapshot whether the next file belongs to the initial snapshot
 * @param pending admitted splits not yet assigned to a reader
 * @param rowsAdmitted rows of all admitted files so far, from their statistics (files without
 *     statistics count 0); progress reports derive each epoch's input rows from it
 */
@Internal
public record DeltaEnumeratorState(
    long nextVersion,
    int nextIndex,
    boolean initialSnapshot,
    List<DeltaSourceSplit> pending,
    long rowsAdmitted)
    implements DeltaEnumeratorPosition<DeltaSourceSplit> {
  public DeltaEnumeratorState {
    pending = List.copyOf(pending);
  }
}
