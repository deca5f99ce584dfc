package io.lakestream.testkit.kafka;

/**
 * Thrown when a {@link KafkaBroker} does not come up: its JVM exited, it did not answer in time, or
 * its files could not be written. The message ends with the tail of the broker's log.
 */
public final class KafkaBrokerStartException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /** Creates the exception; {@code cause} may be null. */
  public KafkaBrokerStartException(String message, Throwable cause) {
    super(message, cause);
  }
}
