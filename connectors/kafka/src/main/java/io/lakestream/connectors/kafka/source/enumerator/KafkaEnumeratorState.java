package io.lakestream.connectors.kafka.source.enumerator;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.kafka.source.split.KafkaPartitionSplit;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Enumerator checkpoint state: the splits not currently owned by a reader, and every partition the
 * query has ever been given (so a restored query does not start them again from {@code
 * startingOffsets}: their positions live in the readers' state).
 *
 * @param unassigned splits waiting for a reader
 * @param knownPartitions split ids ({@code topic-partition}) of all partitions seen so far
 */
@Internal
public record KafkaEnumeratorState(
    List<KafkaPartitionSplit> unassigned, Set<String> knownPartitions) {
  public KafkaEnumeratorState {
    unassigned = List.copyOf(unassigned);
    knownPartitions = Set.copyOf(new TreeSet<>(knownPartitions));
  }
}
