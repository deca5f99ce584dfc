package io.lakestream.connectors.kafka.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.testkit.kafka.KafkaBrokerExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** SCRAM-SHA-512 against a real broker, with clients built from {@link KafkaClientSecurity}. */
class KafkaScramAuthenticationITCase {

  private static final String PASSWORD = "Carol-S3cret-9f2";
  private static final String WRONG_PASSWORD = "Not-Carols-Pa55";

  @RegisterExtension static final KafkaBrokerExtension KAFKA = KafkaBrokerExtension.withScram();

  @BeforeAll
  static void createUser() {
    KAFKA.createScramUser("carol", PASSWORD);
  }

  @Test
  void producerAndConsumerFromTheOptionsAuthenticate() throws Exception {
    KAFKA.createTopic("auth-ok", 2);
    KafkaClientSecurity security = KafkaClientSecurity.fromOptions(options(PASSWORD));

    try (CapturedLogs logs = CapturedLogs.open()) {
      Properties producerProps = security.clientProperties();
      producerProps.put(ProducerConfig.ACKS_CONFIG, "all");
      try (KafkaProducer<String, String> producer =
          new KafkaProducer<>(producerProps, new StringSerializer(), new StringSerializer())) {
        for (int i = 0; i < 20; i++) {
          producer
              .send(new ProducerRecord<>("auth-ok", "k" + i, "v" + i))
              .get(30, TimeUnit.SECONDS);
        }
      }
      Properties consumerProps = security.clientProperties();
      consumerProps.put(ConsumerConfig.GROUP_ID_CONFIG, "auth-ok-readers");
      consumerProps.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
      List<String> values = new ArrayList<>();
      try (KafkaConsumer<String, String> consumer =
          new KafkaConsumer<>(consumerProps, new StringDeserializer(), new StringDeserializer())) {
        consumer.subscribe(List.of("auth-ok"));
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (values.size() < 20 && System.nanoTime() < deadline) {
          for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
            values.add(record.value());
          }
        }
      }
      assertThat(values).hasSize(20).contains("v0", "v19");

      KafkaClusterInfo cluster = KafkaClusterInfo.fetch(security, Duration.ofSeconds(30));
      assertThat(cluster.brokers()).isEqualTo(1);
      assertThat(cluster.transactionMaxTimeoutMs()).hasValue(3_600_000L); // testkit's setting

      assertThat(logs.lines()).isNotEmpty().noneMatch(line -> line.contains(PASSWORD));
    }
  }

  @Test
  void aWrongPasswordGivesAClearErrorWithoutThePassword() {
    KafkaClientSecurity security = KafkaClientSecurity.fromOptions(options(WRONG_PASSWORD));
    String expectedStart =
        "[KAFKA_AUTHENTICATION_FAILED] Kafka authentication failed for user 'carol' at servers "
            + KAFKA.scramBootstrapServers()
            + " with mechanism SCRAM-SHA-512 (kafka.security.protocol=SASL_PLAINTEXT): check the"
            + " credentials in option 'kafka.sasl.jaas.config'.";

    try (CapturedLogs logs = CapturedLogs.open()) {
      // The eager check a sink or source makes before the job starts.
      assertThatThrownBy(() -> KafkaClusterInfo.fetch(security, Duration.ofSeconds(30)))
          .isInstanceOf(KafkaAuthenticationException.class)
          .hasMessageStartingWith(expectedStart)
          .hasMessageContaining("invalid credentials")
          .hasCauseInstanceOf(SaslAuthenticationException.class)
          .satisfies(
              e ->
                  assertThat(KafkaClientSecurityTest.stackTrace(e))
                      .doesNotContain(WRONG_PASSWORD)
                      .doesNotContain(PASSWORD))
          .extracting(e -> ((LakestreamException) e).errorClass())
          .isEqualTo("KAFKA_AUTHENTICATION_FAILED");

      // A plain consumer fails with Kafka's exception; the security turns it into ours.
      Properties props = security.clientProperties();
      props.put(ConsumerConfig.GROUP_ID_CONFIG, "intruders");
      try (KafkaConsumer<String, String> consumer =
          new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer())) {
        consumer.subscribe(List.of("auth-ok"));
        assertThatThrownBy(() -> consumer.poll(Duration.ofSeconds(10)))
            .isInstanceOf(SaslAuthenticationException.class)
            .satisfies(
                e ->
                    assertThat(security.authenticationFailure(e).orElseThrow().getMessage())
                        .startsWith(expectedStart)
                        .doesNotContain(WRONG_PASSWORD));
      }
      assertThat(logs.lines())
          .anyMatch(line -> line.contains("failed authentication"))
          .noneMatch(line -> line.contains(WRONG_PASSWORD) || line.contains(PASSWORD));
    }
  }

  @Test
  void scramOverTlsWithTheTrustStoreAuthenticatesAndWithoutItFailsTheHandshakeClearly() {
    Map<String, String> tls = new HashMap<>(options(PASSWORD));
    tls.put("kafka.bootstrap.servers", KAFKA.scramTlsBootstrapServers());
    tls.put("kafka.security.protocol", "SASL_SSL");
    Map<String, String> trusting = new HashMap<>(tls);
    trusting.put("kafka.ssl.truststore.location", KAFKA.broker().truststore().toString());
    trusting.put("kafka.ssl.truststore.type", "PKCS12");
    trusting.put("kafka.ssl.truststore.password", KAFKA.broker().truststorePassword());

    KafkaClientSecurity security = KafkaClientSecurity.fromOptions(trusting);
    assertThat(security.toString())
        .doesNotContain(KAFKA.broker().truststorePassword())
        .contains("ssl.truststore.password=<redacted>");
    assertThat(KafkaClusterInfo.fetch(security, Duration.ofSeconds(30)).brokers()).isEqualTo(1);

    // The JVM's default CAs do not trust the broker's self-signed certificate.
    assertThatThrownBy(
            () ->
                KafkaClusterInfo.fetch(
                    KafkaClientSecurity.fromOptions(tls), Duration.ofSeconds(30)))
        .isInstanceOf(KafkaAuthenticationException.class)
        .hasMessageStartingWith(
            "[KAFKA_AUTHENTICATION_FAILED] TLS handshake with Kafka servers "
                + KAFKA.scramTlsBootstrapServers()
                + " failed")
        .hasMessageContaining("kafka.ssl.truststore.location")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("KAFKA_AUTHENTICATION_FAILED");
  }

  @Test
  void theKafkaSourceWithAWrongPasswordFailsTheQueryWithAClearError() {
    KAFKA.createTopic("auth-source", 1);
    Map<String, String> options = new java.util.HashMap<>(options(WRONG_PASSWORD));
    options.put("subscribe", "auth-source");
    org.apache.flink.streaming.api.environment.StreamExecutionEnvironment env =
        org.apache.flink.streaming.api.environment.StreamExecutionEnvironment
            .getExecutionEnvironment();
    env.setRestartStrategy(
        org.apache.flink.api.common.restartstrategy.RestartStrategies.noRestart());
    env.fromSource(
            io.lakestream.connectors.kafka.source.KafkaSourceBuilder.kafka("auth-source")
                .options(options)
                .build(),
            org.apache.flink.api.common.eventtime.WatermarkStrategy.noWatermarks(),
            "auth-source")
        .uid("auth-source")
        .sinkTo(new org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink<>());

    Throwable failure = org.assertj.core.api.Assertions.catchThrowable(env::execute);

    assertThat(failure).isNotNull();
    assertThat(org.apache.flink.util.ExceptionUtils.stringifyException(failure))
        .contains("Kafka authentication failed for user 'carol'")
        .contains("kafka.sasl.jaas.config")
        .doesNotContain(WRONG_PASSWORD);
  }

  private static Map<String, String> options(String password) {
    return Map.of(
        "kafka.bootstrap.servers",
        KAFKA.scramBootstrapServers(),
        "kafka.security.protocol",
        "SASL_PLAINTEXT",
        "kafka.sasl.mechanism",
        "SCRAM-SHA-512",
        "kafka.sasl.jaas.config",
        "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"carol\""
            + " password=\""
            + password
            + "\";");
  }
}
