package io.lakestream.connectors.kafka.sink;

import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Turns a row into a Kafka record from its key, value, topic and partition columns. The topic is
 * the fixed topic if one is set (Spark's {@code topic} option overrides the topic column), else the
 * row's topic column; a row with neither fails with {@link KafkaSinkRecordException}.
 */
final class ColumnRecordSerializer<IN> implements KafkaRecordSerializationSchema<IN> {

  private static final long serialVersionUID = 1L;

  private final String fixedTopic;
  private final KafkaColumn<IN, String> topicColumn;
  private final KafkaColumn<IN, byte[]> key;
  private final KafkaColumn<IN, byte[]> value;
  private final KafkaColumn<IN, Integer> partition;

  ColumnRecordSerializer(
      String fixedTopic,
      KafkaColumn<IN, String> topicColumn,
      KafkaColumn<IN, byte[]> key,
      KafkaColumn<IN, byte[]> value,
      KafkaColumn<IN, Integer> partition) {
    this.fixedTopic = fixedTopic;
    this.topicColumn = topicColumn;
    this.key = key;
    this.value = value;
    this.partition = partition;
  }

  @Override
  public ProducerRecord<byte[], byte[]> serialize(
      IN row, KafkaSinkContext context, Long timestamp) {
    String topic = fixedTopic != null ? fixedTopic : topicColumn.get(row);
    if (topic == null || topic.isBlank()) {
      throw new KafkaSinkRecordException(
          "a row has no topic: its topic column is "
              + (topic == null ? "null" : "blank")
              + " and option 'topic' is not set; set the option or give every row a topic");
    }
    Integer partitionNumber = partition == null ? null : partition.get(row);
    return new ProducerRecord<>(
        topic, partitionNumber, null, key == null ? null : key.get(row), value.get(row));
  }
}
