package io.lakestream.connectors.kafka.security;

import static io.lakestream.connectors.kafka.security.KafkaSecurityOptions.BOOTSTRAP_SERVERS;
import static io.lakestream.connectors.kafka.security.KafkaSecurityOptions.SASL_CLIENT_CALLBACK_HANDLER_CLASS;
import static io.lakestream.connectors.kafka.security.KafkaSecurityOptions.SASL_JAAS_CONFIG;
import static io.lakestream.connectors.kafka.security.KafkaSecurityOptions.SASL_MECHANISM;
import static io.lakestream.connectors.kafka.security.KafkaSecurityOptions.SECURITY_PROTOCOL;

import io.lakestream.api.annotation.Internal;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.SslAuthenticationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a Kafka client connects: bootstrap servers, security protocol, SASL mechanism and
 * credentials, TLS stores, read from the {@code kafka.}-prefixed options a Spark/Databricks user
 * writes ({@link KafkaSecurityOptions}) and validated when created.
 *
 * <p>Guarantees:
 *
 * <ul>
 *   <li>{@link #fromOptions} fails with an {@link InvalidKafkaOptionException} naming the option
 *       for: a missing or malformed {@code kafka.bootstrap.servers}; an unknown protocol or
 *       mechanism; an unknown {@code kafka.security.*}/{@code kafka.sasl.*}/{@code kafka.ssl.*}
 *       option (the message lists the valid ones); SASL options without a SASL protocol, TLS
 *       options without TLS; a JAAS config that does not parse, names the wrong login module or
 *       lacks the user name or password; a trust/key store that is missing or has no password; an
 *       MSK IAM setup without TLS or without the {@code aws-msk-iam-auth} classes; and an Amazon
 *       MSK broker whose port is not the one of the chosen mode (9092 plaintext, 9094 TLS, 9096
 *       SASL/SCRAM, 9098 IAM).
 *   <li>Secrets (the JAAS config with its password, store passwords) never appear in {@link
 *       #toString()}, in the messages of the exceptions this class creates, or in its log lines.
 *       Databricks' shaded class names ({@code kafkashaded.org.apache.kafka...}, {@code
 *       shadedmskiam.software.amazon.msk...}) are accepted and mapped to the real ones.
 *   <li>{@link #clientProperties()} are ready for a producer, consumer or admin client. They hold
 *       the secrets: pass them to Kafka (which hides password-typed values in its logs), never log
 *       them.
 * </ul>
 *
 * <p>Immutable and serializable.
 */
@Internal
public final class KafkaClientSecurity implements Serializable {

  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(KafkaClientSecurity.class);
  private static final String REDACTED = "<redacted>";
  private static final String IAM_DEFAULT_JAAS =
      KafkaSaslMechanism.AWS_MSK_IAM.loginModule() + " required;";
  private static final Map<String, String> SHADED_PREFIXES =
      Map.of(
          "kafkashaded.org.apache.kafka.", "org.apache.kafka.",
          "shadedmskiam.software.amazon.msk.", "software.amazon.msk.");

  private final List<String> bootstrapServers;
  private final KafkaSecurityProtocol protocol;
  private final KafkaSaslMechanism mechanism;
  private final String principal;
  private final Map<String, String> properties;
  private final Set<String> secrets;

  private KafkaClientSecurity(
      List<String> bootstrapServers,
      KafkaSecurityProtocol protocol,
      KafkaSaslMechanism mechanism,
      String principal,
      Map<String, String> properties,
      Set<String> secrets) {
    this.bootstrapServers = List.copyOf(bootstrapServers);
    this.protocol = protocol;
    this.mechanism = mechanism;
    this.principal = principal;
    this.properties = Collections.unmodifiableMap(new LinkedHashMap<>(properties));
    this.secrets = Collections.unmodifiableSet(new LinkedHashSet<>(secrets));
  }

  /**
   * Reads and validates the connection options in {@code options}. Options without the {@code
   * kafka.} prefix, and {@code kafka.*} options outside the security family (e.g. {@code
   * kafka.linger.ms}), are left to the source or sink that owns them.
   *
   * @throws InvalidKafkaOptionException if an option is missing, unknown or cannot work; see the
   *     class comment
   */
  public static KafkaClientSecurity fromOptions(Map<String, String> options) {
    Objects.requireNonNull(options, "options");
    Set<String> secrets = new LinkedHashSet<>();
    for (String key : KafkaSecurityOptions.SECRETS) {
      String value = options.get(key);
      if (value != null && !value.isEmpty()) {
        secrets.add(value);
      }
    }
    for (String key : options.keySet()) {
      if (KafkaSecurityOptions.isSecurityOption(key) && !KafkaSecurityOptions.NAMES.contains(key)) {
        throw new InvalidKafkaOptionException(
            key,
            "unknown Kafka security option; valid: "
                + new TreeSet<>(KafkaSecurityOptions.NAMES)
                + " (other kafka.* client options belong to the source or sink)");
      }
    }
    List<String> servers = parseServers(options.get(BOOTSTRAP_SERVERS.key()));
    KafkaSecurityProtocol protocol =
        KafkaSecurityProtocol.parse(
            SECURITY_PROTOCOL.key(),
            options.getOrDefault(SECURITY_PROTOCOL.key(), SECURITY_PROTOCOL.defaultValue()));

    Map<String, String> props = new LinkedHashMap<>();
    props.put("bootstrap.servers", String.join(",", servers));
    props.put("security.protocol", protocol.name());
    KafkaSaslMechanism mechanism = null;
    String principal = "(no login)";
    if (protocol.usesSasl()) {
      SaslLogin login = SaslLogin.from(options, protocol, secrets);
      mechanism = login.mechanism();
      principal = login.principal();
      props.put("sasl.mechanism", mechanism.kafkaName());
      props.put("sasl.jaas.config", login.jaasConfig());
      login.callbackHandler().ifPresent(h -> props.put("sasl.client.callback.handler.class", h));
      secrets.addAll(login.secrets());
    } else {
      refuseFamily(options, "kafka.sasl.", protocol, "SASL_PLAINTEXT or SASL_SSL");
    }
    if (protocol.usesTls()) {
      props.putAll(TlsStores.clientProperties(options));
    } else {
      refuseFamily(options, "kafka.ssl.", protocol, "SSL or SASL_SSL");
    }
    checkMskPorts(servers, protocol, mechanism);
    KafkaClientSecurity security =
        new KafkaClientSecurity(servers, protocol, mechanism, principal, props, secrets);
    LOG.info("Kafka connection: {}", security);
    return security;
  }

  /** Properties for a Kafka client; they contain secrets: never log them. */
  public Properties clientProperties() {
    Properties copy = new Properties();
    copy.putAll(properties);
    return copy;
  }

  /** The bootstrap servers, as {@code host:port} entries. */
  public List<String> bootstrapServers() {
    return bootstrapServers;
  }

  /** The security protocol. */
  public KafkaSecurityProtocol protocol() {
    return protocol;
  }

  /** The SASL mechanism, or empty without SASL. */
  public Optional<KafkaSaslMechanism> mechanism() {
    return Optional.ofNullable(mechanism);
  }

  /**
   * Who logs in, for messages: the SASL user name, the IAM role or profile, or {@code (no login)}.
   */
  public String principal() {
    return principal;
  }

  /** Removes every secret of this configuration from {@code text} (e.g. a broker's error text). */
  public String redact(String text) {
    if (text == null) {
      return null;
    }
    String result = text;
    for (String secret : secrets) {
      result = result.replace(secret, REDACTED);
    }
    return result;
  }

  /**
   * Like {@link #authenticationFailure(Throwable)}, for a client configured with {@code
   * clientProperties} (Kafka names, without the {@code kafka.} prefix, as {@link
   * #clientProperties()} gives them). Empty when {@code failure} is not an authentication failure.
   */
  public static Optional<KafkaAuthenticationException> authenticationFailure(
      Properties clientProperties, Throwable failure) {
    Map<String, String> options = new LinkedHashMap<>();
    clientProperties.forEach(
        (k, v) -> {
          String key = "kafka." + k;
          if (key.equals(BOOTSTRAP_SERVERS.key()) || KafkaSecurityOptions.NAMES.contains(key)) {
            options.put(key, String.valueOf(v));
          }
        });
    try {
      return fromOptions(options).authenticationFailure(failure);
    } catch (RuntimeException unexplained) {
      return Optional.empty();
    }
  }

  /**
   * The lakestream error for a failure caused (anywhere in its cause chain) by Kafka refusing the
   * login or the TLS handshake: it names the user, servers, protocol and mechanism and the option
   * to check, without any secret. Empty if the failure has no such cause.
   */
  public Optional<KafkaAuthenticationException> authenticationFailure(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (!(t instanceof AuthenticationException)) {
        continue;
      }
      String servers = String.join(",", bootstrapServers);
      String said = " The broker said: " + redact(String.valueOf(t.getMessage()));
      String message;
      if (t instanceof SslAuthenticationException) {
        message =
            "TLS handshake with Kafka servers "
                + servers
                + " failed (kafka.security.protocol="
                + protocol
                + "): check that kafka.ssl.truststore.location trusts the brokers' certificates"
                + " and that the servers' host names match them.";
      } else {
        message =
            "Kafka authentication failed for user '"
                + principal
                + "' at servers "
                + servers
                + " with mechanism "
                + mechanism
                + " (kafka.security.protocol="
                + protocol
                + "): check the credentials in option '"
                + (mechanism == KafkaSaslMechanism.AWS_MSK_IAM
                    ? SASL_JAAS_CONFIG.key() + "' and the IAM policy of the AWS identity"
                    : SASL_JAAS_CONFIG.key() + "'")
                + ".";
      }
      String text = message + said;
      if (!(t instanceof SaslAuthenticationException)
          && !(t instanceof SslAuthenticationException)) {
        text = message + " (" + t.getClass().getSimpleName() + ")" + said;
      }
      return Optional.of(new KafkaAuthenticationException(text, t));
    }
    return Optional.empty();
  }

  /** The configuration without secrets: servers, protocol, mechanism, user, store locations. */
  @Override
  public String toString() {
    StringBuilder text = new StringBuilder("KafkaClientSecurity[");
    List<String> parts = new ArrayList<>();
    properties.forEach(
        (key, value) -> parts.add(key + "=" + (isSecretProperty(key) ? REDACTED : value)));
    if (mechanism != null) {
      parts.add("principal=" + principal);
    }
    return text.append(String.join(", ", parts)).append(']').toString();
  }

  private static boolean isSecretProperty(String clientKey) {
    return KafkaSecurityOptions.SECRETS.contains(KafkaSecurityOptions.PREFIX + clientKey);
  }

  /** Maps Databricks' shaded class names to the real ones. */
  static String unshade(String text) {
    String result = text;
    for (Map.Entry<String, String> e : SHADED_PREFIXES.entrySet()) {
      result = result.replace(e.getKey(), e.getValue());
    }
    return result;
  }

  static String iamDefaultJaas() {
    return IAM_DEFAULT_JAAS;
  }

  private static List<String> parseServers(String value) {
    String option = BOOTSTRAP_SERVERS.key();
    if (value == null || value.isBlank()) {
      throw new InvalidKafkaOptionException(
          option, "required: the brokers to connect to, e.g. b-1.example:9092,b-2.example:9092");
    }
    List<String> servers = new ArrayList<>();
    for (String entry : value.split(",")) {
      String server = entry.trim();
      if (server.isEmpty()) {
        continue;
      }
      hostAndPort(server); // validates
      servers.add(server);
    }
    if (servers.isEmpty()) {
      throw new InvalidKafkaOptionException(option, "lists no server");
    }
    return servers;
  }

  /** Splits {@code host:port} (or {@code [ipv6]:port}). */
  private static Map.Entry<String, Integer> hostAndPort(String server) {
    String option = BOOTSTRAP_SERVERS.key();
    int colon = server.lastIndexOf(':');
    String host = colon > 0 ? server.substring(0, colon) : "";
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    if (colon <= 0 || host.isEmpty() || server.contains("://")) {
      throw new InvalidKafkaOptionException(
          option, "'" + server + "' is not host:port (e.g. broker-1.example.com:9092)");
    }
    int port;
    try {
      port = Integer.parseInt(server.substring(colon + 1));
    } catch (NumberFormatException e) {
      port = -1;
    }
    if (port < 1 || port > 65535) {
      throw new InvalidKafkaOptionException(
          option, "'" + server + "' has no valid port (1-65535) after the last ':'");
    }
    return Map.entry(host, port);
  }

  private static void refuseFamily(
      Map<String, String> options,
      String prefix,
      KafkaSecurityProtocol protocol,
      String neededProtocols) {
    for (String key : options.keySet()) {
      if (key.startsWith(prefix)) {
        throw new InvalidKafkaOptionException(
            key,
            "applies only when kafka.security.protocol is "
                + neededProtocols
                + ", but it is "
                + protocol
                + ": set kafka.security.protocol or remove the option");
      }
    }
  }

  private static void checkMskPorts(
      List<String> servers, KafkaSecurityProtocol protocol, KafkaSaslMechanism mechanism) {
    String mode =
        "kafka.security.protocol="
            + protocol
            + (mechanism == null ? "" : " with kafka.sasl.mechanism=" + mechanism);
    for (String server : servers) {
      Map.Entry<String, Integer> hp = hostAndPort(server);
      Optional<MskBrokerAddress> msk = MskBrokerAddress.of(hp.getKey(), hp.getValue());
      if (msk.isEmpty()) {
        continue;
      }
      MskBrokerAddress broker = msk.get();
      Optional<String> unsupported = broker.unsupportedReason(protocol, mechanism);
      if (unsupported.isPresent()) {
        throw new InvalidKafkaOptionException(
            SECURITY_PROTOCOL.key(),
            server
                + " is an Amazon MSK broker, which has no listener for "
                + mode
                + ": "
                + unsupported.get());
      }
      int expected = broker.expectedPort(protocol, mechanism).orElseThrow();
      if (broker.port() != expected) {
        throw new InvalidKafkaOptionException(
            BOOTSTRAP_SERVERS.key(),
            server
                + " is an Amazon MSK broker, where port "
                + broker.port()
                + " is "
                + broker.portMeaning()
                + ", but "
                + mode
                + " connects to port "
                + expected
                + ": use "
                + hp.getKey()
                + ":"
                + expected
                + " (or change "
                + SECURITY_PROTOCOL.key()
                + (mechanism == null ? "" : "/" + SASL_MECHANISM.key())
                + " to the mode of port "
                + broker.port()
                + ")");
      }
    }
  }

  static String callbackHandlerOption() {
    return SASL_CLIENT_CALLBACK_HANDLER_CLASS.key();
  }
}
