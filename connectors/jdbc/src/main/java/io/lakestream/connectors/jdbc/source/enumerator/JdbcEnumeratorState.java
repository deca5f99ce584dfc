package io.lakestream.connectors.jdbc.source.enumerator;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.jdbc.source.split.JdbcPartitionSplit;
import java.util.List;

/**
 * The enumerator's checkpoint: the partitions no reader has taken yet. Partitions a reader holds
 * are in that reader's state; partitions read to their end are in neither.
 *
 * @param partitions how many partitions the read has (a restore with another count is refused)
 * @param unassigned the partitions not yet handed to a reader
 */
@Internal
public record JdbcEnumeratorState(int partitions, List<JdbcPartitionSplit> unassigned) {
  public JdbcEnumeratorState {
    unassigned = List.copyOf(unassigned);
  }
}
