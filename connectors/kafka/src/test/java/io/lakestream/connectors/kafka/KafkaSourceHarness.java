package io.lakestream.connectors.kafka;

import io.lakestream.connectors.kafka.source.KafkaSourceBuilder;
import io.lakestream.testkit.kafka.KafkaBroker;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Test plumbing: produce records, and record what a job read — every record by position, and per
 * checkpoint (epoch) how many records of each partition passed, summed over subtasks.
 */
final class KafkaSourceHarness {
  /** run -> positions read ("topic-partition@offset"), in order per subtask. */
  static final Map<String, List<String>> SEEN = new ConcurrentHashMap<>();

  /** run -> checkpoint id -> partition -> records in the epoch that ended at that checkpoint. */
  static final Map<String, Map<Long, Map<String, Long>>> EPOCHS = new ConcurrentHashMap<>();

  private KafkaSourceHarness() {}

  static void produce(KafkaBroker broker, String topic, int partition, List<String> values) {
    Properties p = broker.clientProperties();
    p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
      for (String v : values) {
        producer.send(
            new ProducerRecord<>(
                topic, partition, null, v == null ? null : v.getBytes(StandardCharsets.UTF_8)));
      }
      producer.flush();
    }
  }

  static void produceCount(KafkaBroker broker, String topic, int partition, int count) {
    List<String> values = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      values.add("v" + i);
    }
    produce(broker, topic, partition, values);
  }

  static KafkaSourceBuilder source(KafkaBroker broker, String name, String topic) {
    return KafkaSourceBuilder.kafka(name)
        .option("kafka.bootstrap.servers", broker.bootstrapServers())
        .option("subscribe", topic);
  }

  /** source -> recorder -> discarding sink, all with uids. */
  static void pipeline(StreamExecutionEnvironment env, KafkaSourceBuilder source, String run) {
    SEEN.putIfAbsent(run, Collections.synchronizedList(new ArrayList<>()));
    EPOCHS.putIfAbsent(run, new ConcurrentHashMap<>());
    DataStream<KafkaRecord> records =
        env.fromSource(source.build(), WatermarkStrategy.noWatermarks(), "kafka").uid("kafka");
    records.map(new Recorder(run)).uid("recorder").sinkTo(new DiscardingSink<>()).uid("discard");
  }

  static List<String> seen(String run) {
    synchronized (SEEN.get(run)) {
      return new ArrayList<>(SEEN.get(run));
    }
  }

  /** Epochs (ascending) that read anything, partition -> count. */
  static TreeMap<Long, Map<String, Long>> epochsWithData(String run) {
    TreeMap<Long, Map<String, Long>> out = new TreeMap<>();
    EPOCHS
        .get(run)
        .forEach(
            (cp, counts) -> {
              if (counts.values().stream().mapToLong(Long::longValue).sum() > 0) {
                out.put(cp, new TreeMap<>(counts));
              }
            });
    return out;
  }

  static void await(String what, Duration timeout, BooleanSupplier condition)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out after " + timeout + " waiting for " + what);
      }
      Thread.sleep(50);
    }
  }

  /** Passes records on; notes each one and, at each snapshot, the epoch's per-partition counts. */
  static final class Recorder extends RichMapFunction<KafkaRecord, KafkaRecord>
      implements CheckpointedFunction {
    private final String run;
    private transient Map<String, Long> counts;

    Recorder(String run) {
      this.run = run;
    }

    @Override
    public KafkaRecord map(KafkaRecord r) {
      SEEN.get(run).add(r.topic + "-" + r.partition + "@" + r.offset);
      counts.merge(r.topic + "-" + r.partition, 1L, Long::sum);
      return r;
    }

    @Override
    public void snapshotState(FunctionSnapshotContext context) {
      Map<String, Long> epoch =
          EPOCHS
              .get(run)
              .computeIfAbsent(context.getCheckpointId(), id -> new ConcurrentHashMap<>());
      counts.forEach((p, n) -> epoch.merge(p, n, Long::sum));
      counts.clear();
    }

    @Override
    public void initializeState(FunctionInitializationContext context) {
      counts = new java.util.HashMap<>();
    }
  }
}
