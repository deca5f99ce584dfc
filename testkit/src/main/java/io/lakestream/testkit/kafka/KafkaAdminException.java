package io.lakestream.testkit.kafka;

/**
 * Thrown when an admin helper of {@link KafkaBroker} fails: the broker refused the request (the
 * cause is Kafka's exception, e.g. {@code TopicExistsException}) or did not answer in time.
 */
public final class KafkaAdminException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /** Creates the exception; {@code cause} may be null. */
  public KafkaAdminException(String message, Throwable cause) {
    super(message, cause);
  }
}
