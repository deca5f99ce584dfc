package io.lakestream.connectors.kafka.security;

import io.lakestream.api.annotation.Internal;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A bootstrap server that is an Amazon MSK broker, recognised by its host name ({@code
 * *.kafka.<region>.amazonaws.com}, {@code *.kafka-serverless.<region>.amazonaws.com}, also {@code
 * .amazonaws.com.cn}), and the port each client security mode must use on it.
 *
 * <p>MSK listens on one port per mode: 9092 plaintext, 9094 TLS, 9096 SASL/SCRAM (over TLS), 9098
 * IAM (over TLS); brokers reached through public access ({@code b-N-public.*}) use 9194, 9196 and
 * 9198, and have no plaintext port. MSK Serverless offers IAM on 9098 only. MSK supports neither
 * {@code SASL_PLAINTEXT}, nor PLAIN, nor SCRAM-SHA-256.
 *
 * @param host the host name as written
 * @param port the port as written
 * @param publicAccess whether the host is a public-access broker name
 * @param serverless whether the host is an MSK Serverless bootstrap name
 */
@Internal
public record MskBrokerAddress(String host, int port, boolean publicAccess, boolean serverless) {

  private static final Pattern MSK_HOST =
      Pattern.compile(
          "^(?<first>[^.]+)\\..*\\.kafka(?<serverless>-serverless)?\\.[a-z0-9-]+\\.amazonaws\\.com(\\.cn)?$");

  /** The MSK broker a {@code host:port} names, or empty if the host is not an MSK name. */
  public static Optional<MskBrokerAddress> of(String host, int port) {
    Matcher matcher = MSK_HOST.matcher(host.toLowerCase(Locale.ROOT));
    if (!matcher.matches()) {
      return Optional.empty();
    }
    return Optional.of(
        new MskBrokerAddress(
            host,
            port,
            matcher.group("first").endsWith("-public"),
            matcher.group("serverless") != null));
  }

  /**
   * The port a client in the given mode must use on this broker.
   *
   * @param mechanism the SASL mechanism, null unless {@code protocol} uses SASL
   * @return the port, or empty when MSK offers no listener for that mode (see {@link
   *     #unsupportedReason})
   */
  public Optional<Integer> expectedPort(
      KafkaSecurityProtocol protocol, KafkaSaslMechanism mechanism) {
    if (unsupportedReason(protocol, mechanism).isPresent()) {
      return Optional.empty();
    }
    int offset = publicAccess ? 100 : 0;
    switch (protocol) {
      case PLAINTEXT:
        return Optional.of(9092);
      case SSL:
        return Optional.of(9094 + offset);
      case SASL_SSL:
        return Optional.of((mechanism == KafkaSaslMechanism.AWS_MSK_IAM ? 9098 : 9096) + offset);
      default:
        return Optional.empty();
    }
  }

  /** Why MSK has no listener for the given mode, or empty if it has one. */
  public Optional<String> unsupportedReason(
      KafkaSecurityProtocol protocol, KafkaSaslMechanism mechanism) {
    if (serverless
        && !(protocol == KafkaSecurityProtocol.SASL_SSL
            && mechanism == KafkaSaslMechanism.AWS_MSK_IAM)) {
      return Optional.of(
          "MSK Serverless accepts only IAM: set kafka.security.protocol=SASL_SSL and"
              + " kafka.sasl.mechanism=AWS_MSK_IAM (port 9098)");
    }
    if (protocol == KafkaSecurityProtocol.SASL_PLAINTEXT) {
      return Optional.of(
          "MSK offers SASL only over TLS: use kafka.security.protocol=SASL_SSL (port "
              + (publicAccess ? "9196/9198" : "9096/9098")
              + ")");
    }
    if (protocol == KafkaSecurityProtocol.PLAINTEXT && publicAccess) {
      return Optional.of(
          "MSK public access has no plaintext listener: use SSL (9194), SASL_SSL with"
              + " SCRAM-SHA-512 (9196) or SASL_SSL with AWS_MSK_IAM (9198)");
    }
    if (protocol == KafkaSecurityProtocol.SASL_SSL
        && (mechanism == KafkaSaslMechanism.PLAIN
            || mechanism == KafkaSaslMechanism.SCRAM_SHA_256)) {
      return Optional.of(
          "MSK does not support SASL mechanism "
              + mechanism.kafkaName()
              + ": use SCRAM-SHA-512 (port "
              + (publicAccess ? 9196 : 9096)
              + ") or AWS_MSK_IAM (port "
              + (publicAccess ? 9198 : 9098)
              + ")");
    }
    return Optional.empty();
  }

  /** What listens on {@link #port()} on an MSK broker, for error messages. */
  String portMeaning() {
    switch (port) {
      case 9092:
        return "the plaintext port";
      case 9094:
      case 9194:
        return "the TLS port";
      case 9096:
      case 9196:
        return "the SASL/SCRAM port";
      case 9098:
      case 9198:
        return "the IAM port";
      default:
        return "not an MSK client port";
    }
  }
}
