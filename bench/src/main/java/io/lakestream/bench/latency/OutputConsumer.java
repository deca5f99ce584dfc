package io.lakestream.bench.latency;

import io.lakestream.testkit.kafka.KafkaBroker;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads the query's output topic on its own thread from the beginning and stamps each record with
 * the real-time clock when {@code poll} hands it over (one stamp per poll's batch: the records of a
 * batch arrived together). Output values start with {@code <id>,<send µs>,<seen by the job µs>}; a
 * windowed count's go on with {@code ,<key>,<window start ms>,<count>}. On the input topic (values
 * {@code <id>,<send µs>}) it measures Kafka alone, the part from send to the job then 0. Latency of
 * a measured id = receive - send, its first arrival; a second arrival is counted as a duplicate. On
 * a topic with {@code message.timestamp.type=LogAppendTime} it also keeps the broker's append time
 * of each record (milliseconds), which splits the latency into hops ({@link #hop}). With {@code
 * readCommitted} it reads as an exactly-once consumer must ({@code
 * isolation.level=read_committed}). As a measurement tool it fetches for low latency: the broker
 * answers a fetch as soon as one byte is there ({@code fetch.min.bytes=1}) and a fetch waiting for
 * data returns at most every 100 ms ({@code fetch.max.wait.ms}).
 */
final class OutputConsumer implements AutoCloseable {
  /** The instants of a record's way, in microseconds on the machine's real-time clock. */
  enum Stamp {
    /** The producer's send (carried in the value). */
    SENT,
    /** The job's first operator (carried in the value; absent on the input topic). */
    SEEN_BY_JOB,
    /** The broker's append (LogAppendTime topics only, millisecond resolution). */
    APPENDED,
    /** This consumer's poll returned it. */
    RECEIVED
  }

  private final KafkaConsumer<byte[], byte[]> consumer;
  private final long firstMeasured;
  private final long[][] stamps;
  private final BitSet seen = new BitSet();
  private final Map<String, long[]> windows = new HashMap<>();
  private final Thread thread;
  private volatile boolean closed;
  private volatile Throwable failure;
  private long seenCount;
  private long duplicates;

  /** Starts reading {@code topic}; ids {@code [firstMeasured, total)} are measured. */
  OutputConsumer(
      KafkaBroker kafka, String topic, boolean readCommitted, long firstMeasured, long total) {
    Properties props = kafka.clientProperties();
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    props.put(ConsumerConfig.FETCH_MIN_BYTES_CONFIG, "1");
    props.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, "100");
    props.put(
        ConsumerConfig.ISOLATION_LEVEL_CONFIG,
        readCommitted ? "read_committed" : "read_uncommitted");
    this.consumer =
        new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    List<TopicPartition> partitions = new ArrayList<>();
    for (PartitionInfo p : consumer.partitionsFor(topic)) {
      partitions.add(new TopicPartition(topic, p.partition()));
    }
    consumer.assign(partitions);
    consumer.seekToBeginning(partitions);
    this.firstMeasured = firstMeasured;
    this.stamps = new long[Stamp.values().length][(int) (total - firstMeasured)];
    this.thread = new Thread(this::run, "output-consumer-" + topic);
    thread.setDaemon(true);
    thread.start();
  }

  private void run() {
    try {
      while (!closed) {
        ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(50));
        long now = PacedProducer.nowMicros();
        synchronized (this) {
          for (ConsumerRecord<byte[], byte[]> r : records) {
            long appendedMicros =
                r.timestampType() == TimestampType.LOG_APPEND_TIME ? r.timestamp() * 1000 : 0;
            accept(new String(r.value(), StandardCharsets.UTF_8), appendedMicros, now);
          }
        }
      }
    } catch (Throwable t) {
      failure = t;
    } finally {
      consumer.close(Duration.ofSeconds(5));
    }
  }

  private void accept(String value, long appendedMicros, long nowMicros) {
    String[] parts = value.split(",");
    int id = Integer.parseInt(parts[0]);
    if (seen.get(id)) {
      duplicates++;
      return;
    }
    seen.set(id);
    seenCount++;
    if (id >= firstMeasured) {
      int i = (int) (id - firstMeasured);
      stamps[Stamp.SENT.ordinal()][i] = Long.parseLong(parts[1]);
      if (parts.length >= 3) {
        stamps[Stamp.SEEN_BY_JOB.ordinal()][i] = Long.parseLong(parts[2]);
      }
      stamps[Stamp.APPENDED.ordinal()][i] = appendedMicros;
      stamps[Stamp.RECEIVED.ordinal()][i] = nowMicros;
    }
    if (parts.length >= 6) {
      long[] window = windows.computeIfAbsent(parts[3] + "@" + parts[4], k -> new long[2]);
      window[0]++;
      window[1] = Math.max(window[1], Long.parseLong(parts[5]));
    }
  }

  /** Distinct ids seen so far; throws what stopped the reading thread. */
  synchronized long seenCount() {
    if (failure != null) {
      throw new IllegalStateException("the output consumer failed", failure);
    }
    return seenCount;
  }

  synchronized boolean seen(long id) {
    return seen.get((int) id);
  }

  synchronized long duplicates() {
    return duplicates;
  }

  /**
   * The measured ids' latencies, send to receive; fails if one is missing, or if a window's counts
   * do not run 1, 2, ..., n over its n results (a count that skipped or repeated a record).
   */
  synchronized LatencySample sample() {
    int missing =
        stamps[0].length
            - seen.get((int) firstMeasured, (int) firstMeasured + stamps[0].length).cardinality();
    if (missing > 0) {
      throw new IllegalStateException(missing + " measured records never reached the output");
    }
    for (Map.Entry<String, long[]> w : windows.entrySet()) {
      if (w.getValue()[0] != w.getValue()[1]) {
        throw new IllegalStateException(
            "window "
                + w.getKey()
                + " emitted "
                + w.getValue()[0]
                + " results but its count reached "
                + w.getValue()[1]);
      }
    }
    return hop(Stamp.SENT, Stamp.RECEIVED);
  }

  /**
   * The measured ids' time from {@code from} to {@code to}, or null when this topic's records do
   * not carry both stamps. Hops from or to {@link Stamp#APPENDED} are off by up to 1 ms each way
   * (the broker stamps milliseconds).
   */
  synchronized LatencySample hop(Stamp from, Stamp to) {
    long[] a = stamps[from.ordinal()];
    long[] b = stamps[to.ordinal()];
    long[] micros = new long[a.length];
    for (int i = 0; i < a.length; i++) {
      if (a[i] == 0 || b[i] == 0) {
        return null;
      }
      micros[i] = b[i] - a[i];
    }
    return micros.length == 0 ? null : new LatencySample(micros);
  }

  /** Windows (key and start) seen in the output. */
  synchronized int windows() {
    return windows.size();
  }

  @Override
  public void close() throws InterruptedException {
    closed = true;
    thread.join(10_000);
  }
}
