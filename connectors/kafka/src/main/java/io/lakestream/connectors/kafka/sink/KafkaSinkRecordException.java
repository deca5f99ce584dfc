package io.lakestream.connectors.kafka.sink;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.kafka.KafkaErrorClass;

/**
 * A row cannot become a Kafka record (for example it names no topic). Thrown by the sink's record
 * serializer, it fails the task: the row is never dropped silently. The message names the option or
 * column to fix. Error class {@link KafkaErrorClass#KAFKA_SINK_INVALID_RECORD}.
 */
@PublicEvolving
public final class KafkaSinkRecordException extends LakestreamException {

  private static final long serialVersionUID = 1L;

  KafkaSinkRecordException(String message) {
    super(KafkaErrorClass.KAFKA_SINK_INVALID_RECORD, message);
  }
}
