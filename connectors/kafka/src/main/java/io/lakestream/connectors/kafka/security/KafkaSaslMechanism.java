package io.lakestream.connectors.kafka.security;

import io.lakestream.api.annotation.Internal;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The SASL mechanisms lakestream supports for {@code kafka.sasl.mechanism}, each with the JAAS
 * login module its {@code kafka.sasl.jaas.config} must name.
 */
@Internal
public enum KafkaSaslMechanism {
  /** User name and password sent as they are (use only over TLS). */
  PLAIN("PLAIN", "org.apache.kafka.common.security.plain.PlainLoginModule"),
  /** Salted challenge-response with SHA-256. */
  SCRAM_SHA_256("SCRAM-SHA-256", "org.apache.kafka.common.security.scram.ScramLoginModule"),
  /** Salted challenge-response with SHA-512 (the SCRAM variant Amazon MSK supports). */
  SCRAM_SHA_512("SCRAM-SHA-512", "org.apache.kafka.common.security.scram.ScramLoginModule"),
  /** Amazon MSK IAM: AWS credentials sign the login (library {@code aws-msk-iam-auth}). */
  AWS_MSK_IAM("AWS_MSK_IAM", "software.amazon.msk.auth.iam.IAMLoginModule");

  /** The client callback handler the MSK IAM mechanism needs. */
  public static final String IAM_CALLBACK_HANDLER =
      "software.amazon.msk.auth.iam.IAMClientCallbackHandler";

  private final String kafkaName;
  private final String loginModule;

  KafkaSaslMechanism(String kafkaName, String loginModule) {
    this.kafkaName = kafkaName;
    this.loginModule = loginModule;
  }

  /** The name Kafka uses ({@code sasl.mechanism}), e.g. {@code SCRAM-SHA-512}. */
  public String kafkaName() {
    return kafkaName;
  }

  /** The JAAS login module class this mechanism needs. */
  public String loginModule() {
    return loginModule;
  }

  /** Whether the JAAS config must carry {@code username} and {@code password}. */
  public boolean usesPassword() {
    return this != AWS_MSK_IAM;
  }

  /**
   * Parses an option value, ignoring case.
   *
   * @throws InvalidKafkaOptionException naming {@code option} and the supported mechanisms
   */
  public static KafkaSaslMechanism parse(String option, String value) {
    String normalized = value.trim().toUpperCase(Locale.ROOT);
    for (KafkaSaslMechanism mechanism : values()) {
      if (mechanism.kafkaName.equals(normalized)) {
        return mechanism;
      }
    }
    throw new InvalidKafkaOptionException(
        option,
        "'"
            + value
            + "' is not a supported SASL mechanism; valid: "
            + Arrays.stream(values())
                .map(KafkaSaslMechanism::kafkaName)
                .collect(Collectors.joining(", ")));
  }

  @Override
  public String toString() {
    return kafkaName;
  }
}
