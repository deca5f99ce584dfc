package io.lakestream.connectors.delta.cdf.source.enumerator;

import io.lakestream.connectors.delta.cdf.source.split.DeltaCdfSplit;
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
 */
public record DeltaCdfEnumeratorState(
    long nextVersion, int nextIndex, List<DeltaCdfSplit> pending, long filesAdmitted) {
  public DeltaCdfEnumeratorState {
    pending = List.copyOf(pending);
  }
}
