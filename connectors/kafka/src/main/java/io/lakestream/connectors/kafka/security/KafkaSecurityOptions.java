package io.lakestream.connectors.kafka.security;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.connectors.options.Option;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The connection and security options of a Kafka source or sink, named as Spark's Kafka connector
 * names them ({@code kafka.} followed by the Kafka client property). {@link KafkaClientSecurity}
 * reads and validates them; the source's and sink's option catalogs list them. {@link
 * #BOOTSTRAP_SERVERS} is required; the secret ones are never printed.
 */
@PublicEvolving
public final class KafkaSecurityOptions {

  /** Prefix of every option passed to the Kafka client. */
  public static final String PREFIX = "kafka.";

  public static final Option<String> BOOTSTRAP_SERVERS =
      Option.key("kafka.bootstrap.servers")
          .stringType()
          .noDefaultValue()
          .required()
          .withDescription(
              "Comma-separated host:port list of brokers to connect to. Required. On Amazon MSK"
                  + " the port must match the security mode: 9092 plaintext, 9094 TLS, 9096"
                  + " SASL/SCRAM, 9098 IAM.");

  public static final Option<String> SECURITY_PROTOCOL =
      Option.key("kafka.security.protocol")
          .stringType()
          .defaultValue("PLAINTEXT")
          .withDescription("PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL.");

  public static final Option<String> SASL_MECHANISM =
      Option.key("kafka.sasl.mechanism")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "PLAIN, SCRAM-SHA-256, SCRAM-SHA-512 or AWS_MSK_IAM. Required with a SASL protocol.");

  public static final Option<String> SASL_JAAS_CONFIG =
      Option.key("kafka.sasl.jaas.config")
          .stringType()
          .noDefaultValue()
          .secret()
          .withDescription(
              "JAAS login config, e.g. org.apache.kafka.common.security.scram.ScramLoginModule"
                  + " required username=\"u\" password=\"p\"; Required for PLAIN and SCRAM;"
                  + " optional for AWS_MSK_IAM (default: IAMLoginModule required;). Secret: never"
                  + " printed.");

  public static final Option<String> SASL_CLIENT_CALLBACK_HANDLER_CLASS =
      Option.key("kafka.sasl.client.callback.handler.class")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "Only for AWS_MSK_IAM, where it defaults to"
                  + " software.amazon.msk.auth.iam.IAMClientCallbackHandler.");

  public static final Option<String> SSL_TRUSTSTORE_LOCATION =
      Option.key("kafka.ssl.truststore.location")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "Trust store file with the brokers' CA certificates (default: the JVM's trusted"
                  + " CAs, which suffice for MSK).");

  public static final Option<String> SSL_TRUSTSTORE_PASSWORD =
      Option.key("kafka.ssl.truststore.password")
          .stringType()
          .noDefaultValue()
          .secret()
          .withDescription("Password of the trust store. Secret: never printed.");

  public static final Option<String> SSL_TRUSTSTORE_TYPE =
      Option.key("kafka.ssl.truststore.type")
          .stringType()
          .noDefaultValue()
          .withDescription("JKS, PKCS12 or PEM (Kafka's default: JKS).");

  public static final Option<String> SSL_KEYSTORE_LOCATION =
      Option.key("kafka.ssl.keystore.location")
          .stringType()
          .noDefaultValue()
          .withDescription("Key store with the client certificate, for mutual TLS.");

  public static final Option<String> SSL_KEYSTORE_PASSWORD =
      Option.key("kafka.ssl.keystore.password")
          .stringType()
          .noDefaultValue()
          .secret()
          .withDescription(
              "Password of the key store; required with a JKS or PKCS12 key store. Secret.");

  public static final Option<String> SSL_KEYSTORE_TYPE =
      Option.key("kafka.ssl.keystore.type")
          .stringType()
          .noDefaultValue()
          .withDescription("JKS, PKCS12 or PEM (Kafka's default: JKS).");

  public static final Option<String> SSL_KEY_PASSWORD =
      Option.key("kafka.ssl.key.password")
          .stringType()
          .noDefaultValue()
          .secret()
          .withDescription("Password of the private key in the key store. Secret.");

  public static final Option<String> SSL_ENDPOINT_IDENTIFICATION_ALGORITHM =
      Option.key("kafka.ssl.endpoint.identification.algorithm")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "https (Kafka's default: the broker's certificate must name its host) or empty to"
                  + " skip host name checks.");

  /** Every option above. */
  public static final List<Option<String>> ALL =
      List.of(
          BOOTSTRAP_SERVERS,
          SECURITY_PROTOCOL,
          SASL_MECHANISM,
          SASL_JAAS_CONFIG,
          SASL_CLIENT_CALLBACK_HANDLER_CLASS,
          SSL_TRUSTSTORE_LOCATION,
          SSL_TRUSTSTORE_PASSWORD,
          SSL_TRUSTSTORE_TYPE,
          SSL_KEYSTORE_LOCATION,
          SSL_KEYSTORE_PASSWORD,
          SSL_KEYSTORE_TYPE,
          SSL_KEY_PASSWORD,
          SSL_ENDPOINT_IDENTIFICATION_ALGORITHM);

  /** Options whose values are secrets: never printed, removed from error texts. */
  public static final Set<String> SECRETS =
      Set.of(
          SASL_JAAS_CONFIG.key(),
          SSL_TRUSTSTORE_PASSWORD.key(),
          SSL_KEYSTORE_PASSWORD.key(),
          SSL_KEY_PASSWORD.key());

  /** The names of {@link #ALL}. */
  public static final Set<String> NAMES =
      ALL.stream().map(Option::key).collect(Collectors.toUnmodifiableSet());

  private KafkaSecurityOptions() {}

  /**
   * Whether an option belongs to the security family ({@code kafka.security.*}, {@code
   * kafka.sasl.*}, {@code kafka.ssl.*}): such options must be in {@link #ALL}, so a misspelt
   * password option fails instead of being ignored.
   */
  public static boolean isSecurityOption(String key) {
    return key.startsWith("kafka.security.")
        || key.startsWith("kafka.sasl.")
        || key.startsWith("kafka.ssl.");
  }
}
