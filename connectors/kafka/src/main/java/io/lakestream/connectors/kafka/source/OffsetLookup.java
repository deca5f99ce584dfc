package io.lakestream.connectors.kafka.source;

import io.lakestream.api.annotation.Internal;
import java.util.Collection;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;

/** Offsets of partitions as the broker reports them now. */
@Internal
public interface OffsetLookup {

  /** Offset of the first record still available in each partition. */
  Map<TopicPartition, Long> earliest(Collection<TopicPartition> partitions);

  /** Offset of the next record to be written to each partition. */
  Map<TopicPartition, Long> latest(Collection<TopicPartition> partitions);

  /**
   * Per partition, the first offset whose record timestamp is {@code >=} the given timestamp; a
   * partition without such a record maps to null.
   */
  Map<TopicPartition, Long> forTimestamps(Map<TopicPartition, Long> timestamps);
}
