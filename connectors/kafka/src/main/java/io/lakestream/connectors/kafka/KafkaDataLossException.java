package io.lakestream.connectors.kafka;

/**
 * Records the query had not read yet are gone: a topic was deleted, or retention (or {@code
 * deleteRecords}) removed offsets below the query's position. Thrown only with {@code
 * failOnDataLoss=true} (the default); the message names the topic-partition and the lost offset
 * range and how to continue.
 */
public class KafkaDataLossException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public KafkaDataLossException(String message) {
    super(message);
  }
}
