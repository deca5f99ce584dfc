package io.lakestream.connectors.kafka;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.LakestreamException;

/**
 * Records the query had not read yet are gone: a topic was deleted, or retention (or {@code
 * deleteRecords}) removed offsets below the query's position. Thrown only with {@code
 * failOnDataLoss=true} (the default); the message names the topic-partition and the lost offset
 * range and how to continue. Error class {@link KafkaErrorClass#KAFKA_DATA_LOSS}.
 */
@PublicEvolving
public class KafkaDataLossException extends LakestreamException {
  private static final long serialVersionUID = 1L;

  public KafkaDataLossException(String message) {
    super(KafkaErrorClass.KAFKA_DATA_LOSS, message);
  }
}
