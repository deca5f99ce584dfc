package io.lakestream.connectors.kafka.security;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.kafka.KafkaErrorClass;

/**
 * The Kafka servers did not answer in time or refused a request for a reason other than the login.
 * The message names the servers and the options to check; it never contains secrets. Error class
 * {@link KafkaErrorClass#KAFKA_UNREACHABLE}.
 */
@PublicEvolving
public final class KafkaUnreachableException extends LakestreamException {

  private static final long serialVersionUID = 1L;

  KafkaUnreachableException(String message) {
    super(KafkaErrorClass.KAFKA_UNREACHABLE, message);
  }
}
