package io.lakestream.connectors.kafka.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.api.error.LakestreamException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KafkaClientSecurityTest {

  private static final String PASSWORD = "S3cr3t-Pa55word";
  private static final String SCRAM_JAAS =
      "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"bob\""
          + " password=\""
          + PASSWORD
          + "\";";

  @TempDir Path dir;

  @Test
  void plaintextNeedsOnlyServers() {
    KafkaClientSecurity security =
        KafkaClientSecurity.fromOptions(
            Map.of("kafka.bootstrap.servers", "b1:9092, b2:9092", "startingOffsets", "earliest"));

    assertThat(security.clientProperties())
        .containsExactlyInAnyOrderEntriesOf(
            Map.of("bootstrap.servers", "b1:9092,b2:9092", "security.protocol", "PLAINTEXT"));
    assertThat(security.mechanism()).isEmpty();
    assertThat(security.bootstrapServers()).containsExactly("b1:9092", "b2:9092");
  }

  @Test
  void scramLoginBecomesClientPropertiesAndIsRedactedInToString() {
    KafkaClientSecurity security =
        KafkaClientSecurity.fromOptions(
            Map.of(
                "kafka.bootstrap.servers", "127.0.0.1:9092",
                "kafka.security.protocol", "sasl_plaintext",
                "kafka.sasl.mechanism", "scram-sha-512",
                "kafka.sasl.jaas.config", SCRAM_JAAS));

    Properties props = security.clientProperties();
    assertThat(props)
        .containsEntry("security.protocol", "SASL_PLAINTEXT")
        .containsEntry("sasl.mechanism", "SCRAM-SHA-512")
        .containsEntry("sasl.jaas.config", SCRAM_JAAS)
        .doesNotContainKey("sasl.client.callback.handler.class");
    assertThat(security.principal()).isEqualTo("bob");
    assertThat(security.mechanism()).contains(KafkaSaslMechanism.SCRAM_SHA_512);
    assertThat(security.toString())
        .contains("SCRAM-SHA-512", "principal=bob", "sasl.jaas.config=<redacted>")
        .doesNotContain(PASSWORD)
        .doesNotContain("ScramLoginModule");
    assertThat(security.redact("broker echoed " + PASSWORD)).isEqualTo("broker echoed <redacted>");
  }

  @Test
  void databricksShadedClassNamesAreMappedToTheRealOnes() {
    KafkaClientSecurity security =
        KafkaClientSecurity.fromOptions(
            Map.of(
                "kafka.bootstrap.servers", "127.0.0.1:9093",
                "kafka.security.protocol", "SASL_SSL",
                "kafka.sasl.mechanism", "PLAIN",
                "kafka.sasl.jaas.config",
                    "kafkashaded.org.apache.kafka.common.security.plain.PlainLoginModule required"
                        + " username=\"ann\" password=\""
                        + PASSWORD
                        + "\";"));

    assertThat(security.clientProperties().getProperty("sasl.jaas.config"))
        .startsWith("org.apache.kafka.common.security.plain.PlainLoginModule required");
  }

  @Test
  void mskIamSetsTheCallbackHandlerAndTheIamLoginModuleAndKafkaAcceptsThem() throws Exception {
    KafkaClientSecurity security =
        KafkaClientSecurity.fromOptions(
            Map.of(
                "kafka.bootstrap.servers",
                "b-1.orders.abc123.c2.kafka.eu-west-1.amazonaws.com:9098",
                "kafka.security.protocol",
                "SASL_SSL",
                "kafka.sasl.mechanism",
                "AWS_MSK_IAM"));

    Properties props = security.clientProperties();
    assertThat(props)
        .containsEntry("sasl.mechanism", "AWS_MSK_IAM")
        .containsEntry("sasl.jaas.config", "software.amazon.msk.auth.iam.IAMLoginModule required;")
        .containsEntry(
            "sasl.client.callback.handler.class",
            "software.amazon.msk.auth.iam.IAMClientCallbackHandler");
    assertThat(security.principal()).contains("default AWS credentials");
    // The library's classes load and instantiate (no AWS call is made).
    Class<?> handler = Class.forName(props.getProperty("sasl.client.callback.handler.class"));
    assertThat(handler.getDeclaredConstructor().newInstance())
        .isInstanceOf(org.apache.kafka.common.security.auth.AuthenticateCallbackHandler.class);
    assertThat(Class.forName("software.amazon.msk.auth.iam.IAMLoginModule"))
        .isAssignableTo(javax.security.auth.spi.LoginModule.class);

    // A Kafka producer accepts the properties: it logs in (IAM login is local) and builds its
    // TLS context; nothing connects until a send. A local address avoids DNS.
    Properties local = new Properties();
    local.putAll(props);
    local.put("bootstrap.servers", "127.0.0.1:9098");
    local.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "1000");
    new KafkaProducer<>(local, new ByteArraySerializer(), new ByteArraySerializer())
        .close(java.time.Duration.ZERO);
  }

  @Test
  void mskIamAcceptsDatabricksShadedNamesAndARoleArn() {
    KafkaClientSecurity security =
        KafkaClientSecurity.fromOptions(
            Map.of(
                "kafka.bootstrap.servers",
                "boot-abc.c2.kafka-serverless.us-east-1.amazonaws.com:9098",
                "kafka.security.protocol",
                "SASL_SSL",
                "kafka.sasl.mechanism",
                "AWS_MSK_IAM",
                "kafka.sasl.jaas.config",
                "shadedmskiam.software.amazon.msk.auth.iam.IAMLoginModule required"
                    + " awsRoleArn=\"arn:aws:iam::123456789012:role/ingest\";",
                "kafka.sasl.client.callback.handler.class",
                "shadedmskiam.software.amazon.msk.auth.iam.IAMClientCallbackHandler"));

    assertThat(security.principal()).isEqualTo("IAM role arn:aws:iam::123456789012:role/ingest");
    assertThat(security.clientProperties().getProperty("sasl.client.callback.handler.class"))
        .isEqualTo(KafkaSaslMechanism.IAM_CALLBACK_HANDLER);
  }

  @Test
  void mskPortsMustMatchTheMode() {
    String host = "b-2.orders.abc123.c2.kafka.us-east-1.amazonaws.com";
    String scram = KafkaSaslMechanism.SCRAM_SHA_512.loginModule();
    String jaas = scram + " required username=\"bob\" password=\"" + PASSWORD + "\";";
    // accepted
    KafkaClientSecurity.fromOptions(Map.of("kafka.bootstrap.servers", host + ":9092"));
    KafkaClientSecurity.fromOptions(ssl(host + ":9094"));
    KafkaClientSecurity.fromOptions(sasl(host + ":9096", "SCRAM-SHA-512", jaas));
    KafkaClientSecurity.fromOptions(sasl(host + ":9098", "AWS_MSK_IAM", null));
    KafkaClientSecurity.fromOptions(
        sasl(
            "b-1-public.orders.abc123.c2.kafka.us-east-1.amazonaws.com:9198", "AWS_MSK_IAM", null));

    assertThatThrownBy(
            () -> KafkaClientSecurity.fromOptions(sasl(host + ":9092", "AWS_MSK_IAM", null)))
        .isInstanceOf(InvalidKafkaOptionException.class)
        .hasMessageContaining("Option 'kafka.bootstrap.servers'")
        .hasMessageContaining("port 9092 is the plaintext port")
        .hasMessageContaining("connects to port 9098")
        .hasMessageContaining("use " + host + ":9098")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("KAFKA_INVALID_OPTION");
    assertThatThrownBy(
            () -> KafkaClientSecurity.fromOptions(sasl(host + ":9098", "SCRAM-SHA-512", jaas)))
        .hasMessageContaining("port 9098 is the IAM port")
        .hasMessageContaining("connects to port 9096")
        .hasMessageNotContaining(PASSWORD)
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("KAFKA_INVALID_OPTION");
    assertThatThrownBy(() -> KafkaClientSecurity.fromOptions(ssl(host + ":9092")))
        .hasMessageContaining("connects to port 9094")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("KAFKA_INVALID_OPTION");
    assertThatThrownBy(
            () ->
                KafkaClientSecurity.fromOptions(Map.of("kafka.bootstrap.servers", host + ":9094")))
        .hasMessageContaining("kafka.security.protocol=PLAINTEXT connects to port 9092")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("KAFKA_INVALID_OPTION");
    assertThatThrownBy(
            () ->
                KafkaClientSecurity.fromOptions(
                    sasl(host + ":9096", "SCRAM-SHA-256", jaas.replace("512", "256"))))
        .hasMessageContaining("MSK does not support SASL mechanism SCRAM-SHA-256")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("KAFKA_INVALID_OPTION");
    Map<String, String> saslPlaintext = new HashMap<>(sasl(host + ":9096", "SCRAM-SHA-512", jaas));
    saslPlaintext.put("kafka.security.protocol", "SASL_PLAINTEXT");
    assertThatThrownBy(() -> KafkaClientSecurity.fromOptions(saslPlaintext))
        .isInstanceOf(InvalidKafkaOptionException.class)
        .hasMessageContaining("Option 'kafka.security.protocol'")
        .hasMessageContaining("SASL only over TLS")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("KAFKA_INVALID_OPTION");
    assertThatThrownBy(
            () ->
                KafkaClientSecurity.fromOptions(
                    sasl(
                        "boot-abc.c2.kafka-serverless.us-east-1.amazonaws.com:9096",
                        "SCRAM-SHA-512",
                        jaas)))
        .hasMessageContaining("MSK Serverless accepts only IAM")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("KAFKA_INVALID_OPTION");
    // Not an MSK host: any port goes.
    KafkaClientSecurity.fromOptions(sasl("kafka.internal.example:9092", "AWS_MSK_IAM", null));
  }

  @Test
  void badOptionsFailNamingTheOptionAndNeverShowTheSecret() throws Exception {
    Path truststore = Files.writeString(dir.resolve("trust.jks"), "x");
    List<Map<String, String>> bad =
        List.of(
            Map.of("kafka.security.protocol", "SASL_SSL"),
            Map.of("kafka.bootstrap.servers", "broker-without-port"),
            Map.of("kafka.bootstrap.servers", "b:99999"),
            Map.of("kafka.bootstrap.servers", "b:9092", "kafka.security.protocol", "TLS"),
            Map.of("kafka.bootstrap.servers", "b:9092", "kafka.security.protocol", "SASL_SSL"),
            withJaas("GSSAPI", SCRAM_JAAS),
            withJaas("SCRAM-SHA-512", null),
            withJaas("SCRAM-SHA-512", SCRAM_JAAS.replace("ScramLoginModule", "PlainLoginModule")),
            withJaas("SCRAM-SHA-512", SCRAM_JAAS.replace("\";", "\"")),
            withJaas("SCRAM-SHA-512", SCRAM_JAAS.replace(" required", " mandatory")),
            withJaas("SCRAM-SHA-512", SCRAM_JAAS.replace("username=\"bob\"", "")),
            withJaas("PLAIN", SCRAM_JAAS),
            Map.of("kafka.bootstrap.servers", "b:9092", "kafka.sasl.jaas.config", SCRAM_JAAS),
            Map.of(
                "kafka.bootstrap.servers", "b:9092",
                "kafka.security.protocol", "SSL",
                "kafka.ssl.truststore.pasword", PASSWORD),
            Map.of("kafka.bootstrap.servers", "b:9092", "kafka.ssl.truststore.password", PASSWORD),
            Map.of(
                "kafka.bootstrap.servers",
                "b:9092",
                "kafka.security.protocol",
                "SSL",
                "kafka.ssl.truststore.location",
                dir.resolve("missing.jks").toString(),
                "kafka.ssl.truststore.password",
                PASSWORD),
            Map.of(
                "kafka.bootstrap.servers",
                "b:9092",
                "kafka.security.protocol",
                "SSL",
                "kafka.ssl.keystore.location",
                truststore.toString(),
                "kafka.ssl.key.password",
                PASSWORD),
            Map.of(
                "kafka.bootstrap.servers", "b:9092",
                "kafka.security.protocol", "SASL_PLAINTEXT",
                "kafka.sasl.mechanism", "AWS_MSK_IAM",
                "kafka.sasl.jaas.config", SCRAM_JAAS));

    try (CapturedLogs logs = CapturedLogs.open()) {
      for (Map<String, String> options : bad) {
        assertThatThrownBy(() -> KafkaClientSecurity.fromOptions(options))
            .as("%s", options.keySet())
            .isInstanceOf(InvalidKafkaOptionException.class)
            .satisfies(
                e -> {
                  InvalidKafkaOptionException invalid = (InvalidKafkaOptionException) e;
                  assertThat(invalid.getMessage())
                      .startsWith("[KAFKA_INVALID_OPTION] Option '" + invalid.option() + "'");
                  assertThat(invalid.option()).startsWith("kafka.");
                  assertThat(stackTrace(e)).doesNotContain(PASSWORD);
                });
      }
      KafkaClientSecurity.fromOptions(withJaas("SCRAM-SHA-512", SCRAM_JAAS));
      KafkaClientSecurity.fromOptions(
          withJaas(
              "PLAIN", SCRAM_JAAS.replace("scram.ScramLoginModule", "plain.PlainLoginModule")));
      // the capture works: the valid configurations were logged (redacted), with the PLAIN warning
      assertThat(logs.lines())
          .anyMatch(line -> line.startsWith("Kafka connection: KafkaClientSecurity["))
          .anyMatch(line -> line.contains("password crosses the network unencrypted"));
      assertThat(logs.lines()).noneMatch(line -> line.contains(PASSWORD));
    }
  }

  @Test
  void typosInSecurityOptionsListTheValidOnes() {
    assertThatThrownBy(
            () ->
                KafkaClientSecurity.fromOptions(
                    Map.of(
                        "kafka.bootstrap.servers", "b:9092",
                        "kafka.security.protocol", "SSL",
                        "kafka.ssl.truststore.pasword", PASSWORD)))
        .hasMessageStartingWith(
            "[KAFKA_INVALID_OPTION] Option 'kafka.ssl.truststore.pasword': unknown")
        .hasMessageContaining("kafka.ssl.truststore.password")
        .hasMessageContaining("kafka.sasl.jaas.config")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("KAFKA_INVALID_OPTION");
    assertThatThrownBy(
            () ->
                KafkaClientSecurity.fromOptions(
                    Map.of("kafka.bootstrap.servers", "b:9092", "kafka.security.protocol", "SASL")))
        .hasMessageContaining("valid: PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("KAFKA_INVALID_OPTION");
    assertThatThrownBy(() -> KafkaClientSecurity.fromOptions(withJaas("GSSAPI", SCRAM_JAAS)))
        .hasMessageContaining("valid: PLAIN, SCRAM-SHA-256, SCRAM-SHA-512, AWS_MSK_IAM")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("KAFKA_INVALID_OPTION");
  }

  @Test
  void tlsStoresArePassedOnAndTheirPasswordsRedacted() throws Exception {
    Path truststore = Files.writeString(dir.resolve("trust.p12"), "x");
    KafkaClientSecurity security =
        KafkaClientSecurity.fromOptions(
            Map.of(
                "kafka.bootstrap.servers", "b:9093",
                "kafka.security.protocol", "SSL",
                "kafka.ssl.truststore.location", truststore.toString(),
                "kafka.ssl.truststore.password", PASSWORD,
                "kafka.ssl.truststore.type", "PKCS12"));

    assertThat(security.clientProperties())
        .containsEntry("ssl.truststore.location", truststore.toString())
        .containsEntry("ssl.truststore.password", PASSWORD)
        .containsEntry("ssl.truststore.type", "PKCS12");
    assertThat(security.toString())
        .contains("ssl.truststore.location=" + truststore, "ssl.truststore.password=<redacted>")
        .doesNotContain(PASSWORD);
  }

  @Test
  void authenticationFailuresBecomeAClearErrorWithoutTheSecret() {
    KafkaClientSecurity security =
        KafkaClientSecurity.fromOptions(withJaas("SCRAM-SHA-512", SCRAM_JAAS));
    RuntimeException kafkaError =
        new RuntimeException(
            "send failed",
            new SaslAuthenticationException(
                "Authentication failed: invalid credentials (echo " + PASSWORD + ")"));

    KafkaAuthenticationException error = security.authenticationFailure(kafkaError).orElseThrow();

    assertThat(error.errorClass()).isEqualTo("KAFKA_AUTHENTICATION_FAILED");
    assertThat(error.getMessage())
        .startsWith(
            "[KAFKA_AUTHENTICATION_FAILED] Kafka authentication failed for user 'bob' at servers 127.0.0.1:9092 with mechanism"
                + " SCRAM-SHA-512 (kafka.security.protocol=SASL_PLAINTEXT): check the credentials"
                + " in option 'kafka.sasl.jaas.config'.")
        .contains("The broker said: Authentication failed: invalid credentials (echo <redacted>)")
        .doesNotContain(PASSWORD);
    assertThat(security.authenticationFailure(new IllegalStateException("other"))).isEmpty();
  }

  static String stackTrace(Throwable t) {
    StringWriter out = new StringWriter();
    t.printStackTrace(new PrintWriter(out));
    return out.toString();
  }

  private static Map<String, String> withJaas(String mechanism, String jaas) {
    Map<String, String> options = new HashMap<>();
    options.put("kafka.bootstrap.servers", "127.0.0.1:9092");
    options.put("kafka.security.protocol", "SASL_PLAINTEXT");
    options.put("kafka.sasl.mechanism", mechanism);
    if (jaas != null) {
      options.put("kafka.sasl.jaas.config", jaas);
    }
    return options;
  }

  private static Map<String, String> ssl(String servers) {
    return Map.of("kafka.bootstrap.servers", servers, "kafka.security.protocol", "SSL");
  }

  private static Map<String, String> sasl(String servers, String mechanism, String jaas) {
    Map<String, String> options = new HashMap<>();
    options.put("kafka.bootstrap.servers", servers);
    options.put("kafka.security.protocol", "SASL_SSL");
    options.put("kafka.sasl.mechanism", mechanism);
    if (jaas != null) {
      options.put("kafka.sasl.jaas.config", jaas);
    }
    return options;
  }
}
