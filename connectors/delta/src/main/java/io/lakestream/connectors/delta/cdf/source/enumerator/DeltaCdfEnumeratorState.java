package io.lakestream.connectors.delta.cdf.source.enumerator;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.delta.cdf.source.split.DeltaCdfSplit;
import io.lakestream.connectors.delta.source.enumerator.DeltaEnumeratorPosition;
import java.util.List;

/**
 * CDF source enumerator checkpoint state: the position of the next change file to admit, and the
 * admitted files not yet handed to a reader. Files before the position were admitted; they are in
 * {@code pending} or in a reader's state, so a restore neither re-reads nor loses any.
 *
 * @param nextVersion the version of the next change file to admit
 * @param nextIndex the index of the next change file within that version
 * @param pending admitted splits not yet assigned to a reader
 * @param filesAdmitted change files admitted so far (the offsets records' {@code totalOffset})
 * @param snapshotVersion the version whose snapshot the stream began with (its data files read as
 *     inserts, in place of that version's own changes), or {@link #NO_SNAPSHOT}
 */
@Internal
public record DeltaCdfEnumeratorState(
    long nextVersion,
    int nextIndex,
    List<DeltaCdfSplit> pending,
    long filesAdmitted,
    long snapshotVersion)
    implements DeltaEnumeratorPosition<DeltaCdfSplit> {
  /** {@code snapshotVersion} of a stream that began with a version's changes. */
  public static final long NO_SNAPSHOT = -1;

  public DeltaCdfEnumeratorState {
    pending = List.copyOf(pending);
  }

  /** The start of a stream that reads the changes of {@code version} first. */
  public static DeltaCdfEnumeratorState startingAt(long version) {
    return new DeltaCdfEnumeratorState(version, 0, List.of(), 0, NO_SNAPSHOT);
  }

  /**
   * The start of a stream that reads the snapshot of {@code version} as inserts, then the changes
   * of later versions (Spark's default when {@code startingVersion} is not set).
   */
  public static DeltaCdfEnumeratorState startingWithSnapshotOf(long version) {
    return new DeltaCdfEnumeratorState(version, 0, List.of(), 0, version);
  }
}
