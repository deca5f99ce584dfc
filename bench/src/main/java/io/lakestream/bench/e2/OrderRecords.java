package io.lakestream.bench.e2;

import java.time.Instant;
import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The e2-bronze input: JSON orders (the record format of pipeline E2) of which 10% are duplicates
 * re-sent a few records after their original, all with an order time inside ten minutes, so every
 * duplicate falls within the one-hour watermark and must be dropped.
 *
 * <p>For {@code records} records there are {@code distinct = records - records / 10} distinct
 * events; after every ninth distinct event, the one sent four events earlier is sent again.
 */
final class OrderRecords {
  private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");

  private final long distinct;

  OrderRecords(long records) {
    this.distinct = records - records / 10;
  }

  long distinct() {
    return distinct;
  }

  /** Records actually produced: the distinct events plus one duplicate per nine of them. */
  long records() {
    return distinct + distinct / 9;
  }

  static String json(long i) {
    return "{\"event_id\":\"e-"
        + i
        + "\",\"order_id\":\"o-"
        + i
        + "\",\"customer_id\":\"c-"
        + (i % 997)
        + "\",\"amount\":"
        + (i % 5000)
        + ".25,\"currency\":\""
        + (i % 3 == 0 ? "EUR" : "USD")
        + "\",\"order_ts\":\""
        + T0.plusSeconds(i % 600)
        + "\"}";
  }

  /** Produces all records to {@code topic} (acks=all, batched) and returns how many. */
  long produce(String bootstrapServers, String topic) {
    Properties props = new Properties();
    props.put("bootstrap.servers", bootstrapServers);
    props.put("linger.ms", "20");
    props.put("batch.size", String.valueOf(256 * 1024));
    long sent = 0;
    try (KafkaProducer<byte[], String> producer =
        new KafkaProducer<>(props, new ByteArraySerializer(), new StringSerializer())) {
      for (long i = 0; i < distinct; i++) {
        producer.send(new ProducerRecord<>(topic, json(i)));
        sent++;
        if (i % 9 == 8) {
          producer.send(new ProducerRecord<>(topic, json(i - 4)));
          sent++;
        }
      }
      producer.flush();
    }
    return sent;
  }
}
