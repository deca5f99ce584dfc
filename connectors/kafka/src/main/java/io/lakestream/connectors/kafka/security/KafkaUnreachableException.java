package io.lakestream.connectors.kafka.security;

/**
 * The Kafka servers did not answer in time or refused a request for a reason other than the login.
 * The message names the servers and the options to check; it never contains secrets.
 */
public final class KafkaUnreachableException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  KafkaUnreachableException(String message) {
    super(message);
  }
}
