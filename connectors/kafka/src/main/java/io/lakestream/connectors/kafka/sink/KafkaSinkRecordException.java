package io.lakestream.connectors.kafka.sink;

/**
 * A row cannot become a Kafka record (for example it names no topic). Thrown by the sink's record
 * serializer, it fails the task: the row is never dropped silently. The message names the option or
 * column to fix.
 */
public final class KafkaSinkRecordException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  KafkaSinkRecordException(String message) {
    super(message);
  }
}
