package io.lakestream.connectors.kafka.source.split;

import io.lakestream.api.annotation.Internal;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.kafka.common.TopicPartition;

/**
 * One Kafka partition and the offset of the next record to read in it. Always a concrete offset:
 * the enumerator resolves {@code startingOffsets} before it creates a split, so a split restored
 * from a checkpoint continues exactly where the checkpoint left it.
 *
 * @param topic the topic
 * @param partition the partition number
 * @param nextOffset the next offset to read (>= 0)
 */
@Internal
public record KafkaPartitionSplit(String topic, int partition, long nextOffset)
    implements SourceSplit {

  public KafkaPartitionSplit {
    if (nextOffset < 0) {
      throw new IllegalArgumentException(
          "split " + topic + "-" + partition + " needs a concrete offset, was " + nextOffset);
    }
  }

  public static KafkaPartitionSplit of(TopicPartition tp, long nextOffset) {
    return new KafkaPartitionSplit(tp.topic(), tp.partition(), nextOffset);
  }

  public TopicPartition topicPartition() {
    return new TopicPartition(topic, partition);
  }

  @Override
  public String splitId() {
    return splitId(topic, partition);
  }

  /** {@code topic-partition}, as Kafka prints a partition. */
  public static String splitId(String topic, int partition) {
    return topic + "-" + partition;
  }

  public static String splitId(TopicPartition tp) {
    return splitId(tp.topic(), tp.partition());
  }
}
