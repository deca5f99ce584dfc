package io.lakestream.connectors.kafka.security;

import io.lakestream.api.annotation.Internal;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The values of {@code kafka.security.protocol}: whether the connection is encrypted (TLS) and
 * whether the client logs in with SASL.
 */
@Internal
public enum KafkaSecurityProtocol {
  /** No encryption, no login. */
  PLAINTEXT(false, false),
  /** TLS, no SASL login (optionally a client certificate: mutual TLS). */
  SSL(true, false),
  /** SASL login over an unencrypted connection (test brokers; MSK does not offer it). */
  SASL_PLAINTEXT(false, true),
  /** SASL login over TLS. */
  SASL_SSL(true, true);

  private final boolean tls;
  private final boolean sasl;

  KafkaSecurityProtocol(boolean tls, boolean sasl) {
    this.tls = tls;
    this.sasl = sasl;
  }

  /** Whether the connection is encrypted with TLS (the {@code kafka.ssl.*} options apply). */
  public boolean usesTls() {
    return tls;
  }

  /** Whether the client logs in with SASL (the {@code kafka.sasl.*} options apply). */
  public boolean usesSasl() {
    return sasl;
  }

  /**
   * Parses an option value, ignoring case.
   *
   * @throws InvalidKafkaOptionException naming {@code option} and the valid values
   */
  public static KafkaSecurityProtocol parse(String option, String value) {
    String normalized = value.trim().toUpperCase(Locale.ROOT);
    for (KafkaSecurityProtocol protocol : values()) {
      if (protocol.name().equals(normalized)) {
        return protocol;
      }
    }
    throw new InvalidKafkaOptionException(
        option,
        "'"
            + value
            + "' is not a security protocol; valid: "
            + Arrays.stream(values()).map(Enum::name).collect(Collectors.joining(", ")));
  }
}
