package io.lakestream.testkit.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.Future;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class KafkaBrokerTest {

  @RegisterExtension static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

  @Test
  void producesAndConsumesAThousandRecordsOverThreePartitions() throws Exception {
    KAFKA.createTopic("records", 3);

    Set<Integer> partitionsWritten = new HashSet<>();
    try (KafkaProducer<String, String> producer = producer(false)) {
      List<Future<RecordMetadata>> sends = new java.util.ArrayList<>();
      for (int i = 0; i < 1000; i++) {
        sends.add(producer.send(new ProducerRecord<>("records", "key-" + i, "value-" + i)));
      }
      for (Future<RecordMetadata> send : sends) {
        partitionsWritten.add(send.get().partition());
      }
    }
    assertThat(partitionsWritten).containsExactlyInAnyOrder(0, 1, 2);
    assertThat(
            KAFKA.broker().endOffsets("records").values().stream().mapToLong(Long::longValue).sum())
        .isEqualTo(1000);

    Map<String, String> consumed = consumeAll("records", 1000, "read_uncommitted");

    Map<String, String> expected = new HashMap<>();
    for (int i = 0; i < 1000; i++) {
      expected.put("key-" + i, "value-" + i);
    }
    assertThat(consumed).isEqualTo(expected);
  }

  @Test
  void transactionsCommitAndAbortOnTheSingleNode() throws Exception {
    KAFKA.createTopic("transactional", 2);
    try (KafkaProducer<String, String> producer = producer(true)) {
      producer.initTransactions();
      producer.beginTransaction();
      producer.send(new ProducerRecord<>("transactional", "committed", "yes"));
      producer.commitTransaction();
      producer.beginTransaction();
      producer.send(new ProducerRecord<>("transactional", "aborted", "no"));
      producer.flush();
      producer.abortTransaction();
      producer.beginTransaction();
      producer.send(new ProducerRecord<>("transactional", "committed-too", "yes"));
      producer.commitTransaction();
    }

    Map<String, String> consumed = consumeAll("transactional", 2, "read_committed");

    assertThat(consumed).containsOnlyKeys("committed", "committed-too");
  }

  @Test
  void deletesRecordsAndTopics() throws Exception {
    KAFKA.createTopic("short-lived", 1, Map.of("retention.ms", "3600000"));
    assertThatThrownBy(() -> KAFKA.createTopic("short-lived", 1))
        .isInstanceOf(KafkaAdminException.class)
        .hasCauseInstanceOf(TopicExistsException.class);
    try (KafkaProducer<String, String> producer = producer(false)) {
      for (int i = 0; i < 10; i++) {
        producer.send(new ProducerRecord<>("short-lived", "k" + i, "v" + i));
      }
    }
    TopicPartition partition = new TopicPartition("short-lived", 0);
    assertThat(KAFKA.broker().endOffsets("short-lived")).containsEntry(partition, 10L);

    KAFKA.broker().deleteRecordsBefore(partition, 4);
    assertThat(KAFKA.broker().startOffsets("short-lived")).containsEntry(partition, 4L);

    KAFKA.deleteRecords("short-lived");
    assertThat(KAFKA.broker().startOffsets("short-lived")).containsEntry(partition, 10L);

    KAFKA.deleteTopic("short-lived");
    assertThat(KAFKA.broker().topics()).doesNotContain("short-lived");
  }

  private static KafkaProducer<String, String> producer(boolean transactional) {
    Properties props = KAFKA.broker().clientProperties();
    props.put(ProducerConfig.ACKS_CONFIG, "all");
    props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
    props.put(ProducerConfig.LINGER_MS_CONFIG, "5");
    if (transactional) {
      props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "testkit-" + System.nanoTime());
    }
    return new KafkaProducer<>(props, new StringSerializer(), new StringSerializer());
  }

  private static Map<String, String> consumeAll(String topic, int expected, String isolation) {
    Properties props = KAFKA.broker().clientProperties();
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation);
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    Map<String, String> consumed = new HashMap<>();
    try (KafkaConsumer<String, String> consumer =
        new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer())) {
      consumer.assign(KAFKA.broker().partitions(topic));
      consumer.seekToBeginning(consumer.assignment());
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (consumed.size() < expected && System.nanoTime() < deadline) {
        for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
          assertThat(consumed.put(record.key(), record.value())).as(record.key()).isNull();
        }
      }
      // one more poll: nothing beyond the expected records may arrive
      for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(300))) {
        consumed.put(record.key(), record.value());
      }
    }
    return consumed;
  }
}
