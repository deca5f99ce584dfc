package io.lakestream.bench.e2;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The ceiling of {@code bin/bench e2-bronze}, in its own JVM: one plain {@link KafkaConsumer} (one
 * thread, default settings) reads the whole topic once and touches every value's bytes. Arguments:
 * {@code bootstrap=... topic=... records=N}; exits 1 if it read another number of records.
 */
public final class RawConsumerMain {
  private RawConsumerMain() {}

  public static void main(String[] args) {
    Map<String, String> a = ChildArgs.parse(args);
    long expected = Long.parseLong(a.get("records"));
    Properties props = new Properties();
    props.put("bootstrap.servers", a.get("bootstrap"));
    props.put("enable.auto.commit", "false");
    long cpu0 = ChildReport.processCpuNanos();
    long t0 = System.nanoTime();
    long n = 0;
    long bytes = 0;
    long checksum = 0;
    try (KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      List<TopicPartition> partitions =
          consumer.partitionsFor(a.get("topic")).stream()
              .map(p -> new TopicPartition(p.topic(), p.partition()))
              .toList();
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      Map<TopicPartition, Long> end = new HashMap<>(consumer.endOffsets(partitions));
      end.values().removeIf(v -> v == 0);
      while (!end.isEmpty()) {
        ConsumerRecords<byte[], byte[]> batch = consumer.poll(Duration.ofMillis(500));
        for (ConsumerRecord<byte[], byte[]> r : batch) {
          n++;
          bytes += r.value().length;
          checksum += r.value()[r.value().length / 2];
        }
        end.entrySet().removeIf(e -> consumer.position(e.getKey()) >= e.getValue());
      }
    }
    long nanos = System.nanoTime() - t0;
    long cpu = ChildReport.processCpuNanos() - cpu0;
    if (n != expected) {
      System.err.printf(Locale.ROOT, "raw consumer read %,d records, expected %,d%n", n, expected);
      System.exit(1);
    }
    ChildReport.print(
        n,
        nanos,
        cpu,
        ChildReport.peakRssBytes(),
        ChildReport.peakHeapBytes(),
        String.format(
            Locale.ROOT,
            "one KafkaConsumer thread, default settings, assign + seekToBeginning -> end offsets;"
                + " %,d MiB of values (checksum %d)",
            bytes / (1024 * 1024),
            checksum));
    System.exit(0);
  }
}
