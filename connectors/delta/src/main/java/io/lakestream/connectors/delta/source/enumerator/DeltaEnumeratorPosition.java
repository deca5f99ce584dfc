package io.lakestream.connectors.delta.source.enumerator;

import io.lakestream.api.annotation.Internal;
import java.util.List;

/**
 * What the checkpoint of every Delta source enumerator holds: the position of the next file to
 * admit and the admitted splits not yet handed to a reader.
 *
 * @param <S> the split type
 */
@Internal
public interface DeltaEnumeratorPosition<S> {
  /** The version of the next file to admit. */
  long nextVersion();

  /** The index of the next file within that version. */
  int nextIndex();

  /** Admitted splits not yet assigned to a reader, in order. */
  List<S> pending();
}
