package io.lakestream.pipelines.listener;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.runtime.QueryListener;
import io.lakestream.runtime.QueryProgress;
import io.lakestream.runtime.StreamingQuery;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes each progress event of a query, the JSON of {@code progress/N} as it is, to a Kafka topic,
 * keyed by the query's {@code id} (so one query's events stay in order in one partition), as the
 * listeners Databricks users write to feed dashboards and alerts. The producer is idempotent;
 * events are sent as they come and flushed when the query ends.
 *
 * <p>It never affects the query: a send that fails is logged (with the topic, never the producer's
 * properties, which may hold credentials) and the next event is sent anyway. An event lost that way
 * is still in the checkpoint location's {@code progress/} directory.
 */
@PublicEvolving
public final class KafkaProgressListener implements QueryListener, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(KafkaProgressListener.class);
  private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(10);

  private final String topic;
  private final Producer<byte[], byte[]> producer;

  private KafkaProgressListener(String topic, Producer<byte[], byte[]> producer) {
    this.topic = topic;
    this.producer = producer;
  }

  /**
   * A listener writing to {@code topic} with a producer of {@code properties} (Kafka client names:
   * {@code bootstrap.servers} and, e.g., {@code security.protocol}, {@code sasl.*}).
   *
   * @throws IllegalArgumentException without {@code bootstrap.servers} or a topic
   */
  public static KafkaProgressListener to(String topic, Map<String, String> properties) {
    if (topic == null || topic.isBlank()) {
      throw new IllegalArgumentException("The progress topic must not be empty");
    }
    if (!properties.containsKey(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG)) {
      throw new IllegalArgumentException(
          "The progress topic "
              + topic
              + " needs the Kafka property bootstrap.servers (e.g. --progress-kafka"
              + " bootstrap.servers=broker:9092)");
    }
    Properties config = new Properties();
    config.putAll(properties);
    config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
    config.put(ProducerConfig.ACKS_CONFIG, "all");
    config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    return new KafkaProgressListener(topic, new KafkaProducer<>(config));
  }

  /** The topic events go to. */
  public String topic() {
    return topic;
  }

  @Override
  public void onQueryProgress(StreamingQuery query, QueryProgress progress) {
    byte[] key = progress.json().path("id").asText(query.id()).getBytes(StandardCharsets.UTF_8);
    byte[] value = progress.json().toString().getBytes(StandardCharsets.UTF_8);
    producer.send(
        new ProducerRecord<>(topic, key, value),
        (metadata, error) -> {
          if (error != null) {
            LOG.warn(
                "Progress of epoch {} was not written to Kafka topic {} (it stays in the checkpoint"
                    + " location's progress/): {}",
                progress.batchId(),
                topic,
                error.toString());
          }
        });
  }

  @Override
  public void onQueryTerminated(StreamingQuery query, Throwable error) {
    producer.flush();
  }

  @Override
  public void close() {
    producer.close(CLOSE_TIMEOUT);
  }

  @Override
  public String toString() {
    return "KafkaProgressListener[topic=" + Objects.toString(topic) + "]";
  }
}
