package io.lakestream.bench.latency;

import io.lakestream.testkit.kafka.KafkaBroker;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Properties;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The benches' input: record {@code id} has key {@code k<id % KEYS>} and value {@code <id>,<send
 * time in µs>}, the send time read from the real-time clock just before {@code send} (the record's
 * Kafka CreateTime is the same instant in milliseconds). linger.ms 0 and acks 1, so the producer
 * adds no batching delay. A failed send fails the next call.
 */
final class PacedProducer implements AutoCloseable {
  /** Distinct keys, for the windowed count. */
  static final int KEYS = 100;

  private final KafkaProducer<String, String> producer;
  private final String topic;
  private volatile Exception failure;

  PacedProducer(KafkaBroker kafka, String topic) {
    Properties props = kafka.clientProperties();
    props.put(ProducerConfig.LINGER_MS_CONFIG, "0");
    props.put(ProducerConfig.ACKS_CONFIG, "1");
    this.producer = new KafkaProducer<>(props, new StringSerializer(), new StringSerializer());
    this.topic = topic;
  }

  /** Microseconds since the epoch on the machine's real-time clock. */
  static long nowMicros() {
    return ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
  }

  void send(long id) throws Exception {
    if (failure != null) {
      throw failure;
    }
    String value = id + "," + nowMicros();
    producer.send(
        new ProducerRecord<>(topic, "k" + (id % KEYS), value),
        (metadata, e) -> {
          if (e != null) {
            failure = e;
          }
        });
  }

  /**
   * Sends ids {@code [from, to)} at {@code rate} records per second (each at its due time, no
   * catching up in bursts beyond what a late thread must) and flushes; returns the nanoseconds it
   * took.
   */
  long sendPaced(long from, long to, int rate) throws Exception {
    long start = System.nanoTime();
    long intervalNanos = 1_000_000_000L / rate;
    for (long id = from; id < to; id++) {
      long wait = start + (id - from) * intervalNanos - System.nanoTime();
      if (wait > 0) {
        LockSupport.parkNanos(wait);
      }
      send(id);
    }
    producer.flush();
    if (failure != null) {
      throw failure;
    }
    return System.nanoTime() - start;
  }

  @Override
  public void close() {
    producer.close();
  }
}
