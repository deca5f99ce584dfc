package io.lakestream.connectors.kafka.security;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.kafka.KafkaErrorClass;

/**
 * A Kafka option is missing, unknown or has a value that cannot work. The message names the option,
 * says what is wrong and what to write instead; it never contains a password or a JAAS config.
 * Error class {@link KafkaErrorClass#KAFKA_INVALID_OPTION}.
 */
@PublicEvolving
public final class InvalidKafkaOptionException extends LakestreamException {

  private static final long serialVersionUID = 1L;

  private final String option;

  /**
   * Creates the exception; the message becomes {@code "[KAFKA_INVALID_OPTION] Option '<option>':
   * <problem>"}.
   *
   * @param option the option's name as the user writes it (e.g. {@code kafka.sasl.mechanism})
   * @param problem what is wrong and what to do; must not contain secrets
   */
  public InvalidKafkaOptionException(String option, String problem) {
    super(KafkaErrorClass.KAFKA_INVALID_OPTION, "Option '" + option + "': " + problem);
    this.option = option;
  }

  /** The option at fault, e.g. {@code kafka.bootstrap.servers}. */
  public String option() {
    return option;
  }
}
