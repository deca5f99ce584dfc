package io.lakestream.testkit.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class KafkaBrokerScramTest {

  @RegisterExtension static final KafkaBrokerExtension KAFKA = KafkaBrokerExtension.withScram();

  @Test
  void scramUsersProduceAndConsumeOverTheSaslListener() throws Exception {
    KAFKA.createScramUser("alice", "alice-secret");
    KAFKA.createTopic("scram-records", 2);

    for (String mechanism : List.of("SCRAM-SHA-512", "SCRAM-SHA-256")) {
      Properties props = KAFKA.broker().scramClientProperties(mechanism, "alice", "alice-secret");
      props.put(ProducerConfig.ACKS_CONFIG, "all");
      try (KafkaProducer<String, String> producer =
          new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
        producer
            .send(new ProducerRecord<>("scram-records", mechanism, "v"))
            .get(30, TimeUnit.SECONDS);
      }
    }

    Properties props =
        KAFKA.broker().scramClientProperties("SCRAM-SHA-512", "alice", "alice-secret");
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    List<String> keys = new java.util.ArrayList<>();
    try (KafkaConsumer<String, String> consumer =
        new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer())) {
      consumer.assign(KAFKA.broker().partitions("scram-records"));
      consumer.seekToBeginning(consumer.assignment());
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (keys.size() < 2 && System.nanoTime() < deadline) {
        for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
          keys.add(record.key());
        }
      }
    }
    assertThat(keys).containsExactlyInAnyOrder("SCRAM-SHA-512", "SCRAM-SHA-256");
  }

  @Test
  void wrongPasswordAndUnknownUserAreRefused() {
    KAFKA.createScramUser("bob", "bob-secret");
    for (Properties props :
        List.of(
            KAFKA.broker().scramClientProperties("SCRAM-SHA-512", "bob", "not-bobs-password"),
            KAFKA.broker().scramClientProperties("SCRAM-SHA-512", "mallory", "whatever"))) {
      try (Admin admin = Admin.create(props)) {
        assertThatThrownBy(() -> admin.describeCluster().nodes().get(30, TimeUnit.SECONDS))
            .isInstanceOf(ExecutionException.class)
            .hasCauseInstanceOf(SaslAuthenticationException.class);
      }
    }
  }

  @Test
  void scramOverTlsWorksWithTheTrustStoreAndFailsTheHandshakeWithoutIt() throws Exception {
    KAFKA.createScramUser("tess", "tess-secret");
    KAFKA.createTopic("tls-records", 1);
    Properties props = KAFKA.broker().scramClientProperties("SCRAM-SHA-512", "tess", "tess-secret");
    props.put("bootstrap.servers", KAFKA.scramTlsBootstrapServers());
    props.put("security.protocol", "SASL_SSL");
    Properties trusting = new Properties();
    trusting.putAll(props);
    trusting.put("ssl.truststore.location", KAFKA.broker().truststore().toString());
    trusting.put("ssl.truststore.type", "PKCS12");
    trusting.put("ssl.truststore.password", KAFKA.broker().truststorePassword());
    try (KafkaProducer<String, String> producer =
        new KafkaProducer<>(trusting, new StringSerializer(), new StringSerializer())) {
      producer.send(new ProducerRecord<>("tls-records", "k", "v")).get(30, TimeUnit.SECONDS);
    }
    assertThat(KAFKA.broker().endOffsets("tls-records").values()).containsExactly(1L);

    try (Admin admin = Admin.create(props)) {
      assertThatThrownBy(() -> admin.describeCluster().nodes().get(30, TimeUnit.SECONDS))
          .hasCauseInstanceOf(org.apache.kafka.common.errors.SslAuthenticationException.class);
    }
  }

  @Test
  void aBrokerWithoutScramSaysHowToGetOne() {
    // The SCRAM broker's own plaintext listener keeps working for the admin helpers.
    assertThat(KAFKA.broker().topics()).isNotNull();
    assertThat(KAFKA.scramBootstrapServers()).isNotEqualTo(KAFKA.bootstrapServers());
  }
}
