package io.lakestream.connectors.kafka.security;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.kafka.KafkaErrorClass;

/**
 * Kafka refused the client's login (SASL) or the TLS handshake failed. The message names the user,
 * the servers, the security protocol and mechanism, and the option to check; it never contains a
 * password, a JAAS config or a key store password (they are removed from the broker's text too).
 *
 * <p>Error class {@link KafkaErrorClass#KAFKA_AUTHENTICATION_FAILED}. Create it with {@link
 * KafkaClientSecurity#authenticationFailure(Throwable)}.
 */
@PublicEvolving
public final class KafkaAuthenticationException extends LakestreamException {

  private static final long serialVersionUID = 1L;

  KafkaAuthenticationException(String message, Throwable cause) {
    super(KafkaErrorClass.KAFKA_AUTHENTICATION_FAILED, message, cause);
  }
}
