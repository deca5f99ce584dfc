package io.lakestream.connectors.rate.source.enumerator;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.rate.source.split.SequenceSplit;
import java.util.List;

/**
 * Enumerator checkpoint state: the number of partitions (fixed when the query is created) and the
 * splits not currently owned by a reader.
 */
@Internal
public record SequenceEnumeratorState(int partitions, List<SequenceSplit> unassigned) {
  public SequenceEnumeratorState {
    unassigned = List.copyOf(unassigned);
  }
}
