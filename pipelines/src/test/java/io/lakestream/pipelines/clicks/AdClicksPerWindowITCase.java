package io.lakestream.pipelines.clicks;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.pipelines.PipelineOptions;
import io.lakestream.pipelines.Pipelines;
import io.lakestream.runtime.StreamingQueryBuilder;
import io.lakestream.runtime.Trigger;
import io.lakestream.state.StateBackendSettings;
import io.lakestream.testkit.delta.DeltaLogTxns;
import io.lakestream.testkit.kafka.KafkaBrokerExtension;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pipeline E5 on a real broker: 5-minute click counts per ad in append mode equal a batch count of
 * the same clicks, each (window, ad) written exactly once, only for windows the watermark closed;
 * malformed clicks are dead letters.
 */
class AdClicksPerWindowITCase {
  @RegisterExtension static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

  private static final Instant T0 = Instant.parse("2026-05-01T12:00:00Z");

  @TempDir Path dir;

  private static String click(int id, String ad, Instant at) {
    return "{\"click_id\":\"k-" + id + "\",\"ad_id\":\"" + ad + "\",\"event_time\":\"" + at + "\"}";
  }

  /** Sends to partition {@code id % 2}, in the given order. */
  private static void send(List<String[]> keyedValues) {
    send("clicks", keyedValues);
  }

  private static void send(String topic, List<String[]> keyedValues) {
    Properties props = new Properties();
    props.put("bootstrap.servers", KAFKA.bootstrapServers());
    try (KafkaProducer<String, String> producer =
        new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
      for (String[] kv : keyedValues) {
        producer.send(new ProducerRecord<>(topic, Integer.parseInt(kv[0]), null, kv[1]));
      }
    }
  }

  private void run() throws Exception {
    run(Map.of("kafka.bootstrap.servers", KAFKA.bootstrapServers()));
  }

  private void run(Map<String, String> sourceOptions) throws Exception {
    PipelineOptions options =
        new PipelineOptions(dir.resolve("lake").toUri(), 0, 0, 0, sourceOptions);
    StreamingQueryBuilder.of(Pipelines.byName("clicks").dataflow(options))
        .queryName("clicks")
        .checkpointLocation(dir.resolve("lake/_checkpoints/clicks").toString())
        .trigger(Trigger.availableNow())
        .parallelism(2)
        .stateBackend(StateBackendSettings.defaults())
        .start()
        .awaitTermination();
  }

  private TreeMap<String, Long> table() throws Exception {
    TreeMap<String, Long> rows = new TreeMap<>();
    for (Object[] r :
        new DeltaTableReader(
                DeltaTable.forPath(dir.resolve("lake/ad_clicks_5m").toUri().toString()))
            .readLatest()) {
      String key = r[0] + "|" + r[2];
      assertThat(rows.put(key, (Long) r[3])).as("window %s written once", key).isNull();
    }
    return rows;
  }

  @Test
  void appendModeCountsEqualABatchCountOfTheClosedWindows() throws Exception {
    KAFKA.createTopic("clicks", 2);
    List<String[]> first = new java.util.ArrayList<>();
    TreeMap<String, Long> expected = new TreeMap<>();
    // 60 minutes of clicks on 3 ads, in event-time order per partition, some seconds apart.
    for (int i = 0; i < 1200; i++) {
      String ad = "ad-" + (i % 3);
      Instant at = T0.plusSeconds(i * 3L);
      first.add(new String[] {Integer.toString(i % 2), click(i, ad, at)});
      Instant windowStart = Instant.ofEpochSecond(at.getEpochSecond() / 300 * 300);
      expected.merge(windowStart + "|" + ad, 1L, Long::sum);
    }
    first.add(new String[] {"0", "{\"click_id\":\"broken\""});
    // Clicks two hours later in both partitions move the watermark past every window above.
    first.add(new String[] {"0", click(5000, "ad-late", T0.plusSeconds(7200))});
    first.add(new String[] {"1", click(5001, "ad-late", T0.plusSeconds(7200))});
    send(first);
    run();

    // A second run (more clicks much later) re-announces the watermark and closes the 2 h windows.
    send(
        List.of(
            new String[] {"0", click(6000, "ad-x", T0.plusSeconds(20_000))},
            new String[] {"1", click(6001, "ad-x", T0.plusSeconds(20_000))}));
    run();

    expected.put(T0.plusSeconds(7200) + "|ad-late", 2L);
    assertThat(table()).isEqualTo(expected);
    assertThat(new TreeSet<>(table().keySet())).doesNotContain(T0.plusSeconds(20_000) + "|ad-x");
    DeltaLogTxns log = DeltaLogTxns.read(dir.resolve("lake/ad_clicks_5m")).assertEachEpochOnce();
    assertThat(log.appIds()).as("app ids of the table's txns").hasSize(1);
    log.assertVersionPerEpoch(
        log.appIds().get(0), dir.resolve("lake/_checkpoints/clicks"), "clicks-sink");
  }

  @Test
  void aTopicWithFewerPartitionsThanSubtasksClosesWindowsWithinOneShortRun() throws Exception {
    // The subtask without a partition sees no row: it must not hold the watermark at -inf. It
    // used to until the one-minute idle timeout, which a short availableNow run never reaches.
    KAFKA.createTopic("clicks-one", 1);
    List<String[]> clicks = new java.util.ArrayList<>();
    TreeMap<String, Long> expected = new TreeMap<>();
    for (int i = 0; i < 400; i++) {
      String ad = "ad-" + (i % 5);
      Instant at = T0.plusSeconds(i * 9L);
      clicks.add(new String[] {"0", click(i, ad, at)});
      Instant windowStart = Instant.ofEpochSecond(at.getEpochSecond() / 300 * 300);
      if (windowStart.plusSeconds(300).isBefore(T0.plusSeconds(399 * 9L - 600 + 1))) {
        expected.merge(windowStart + "|" + ad, 1L, Long::sum); // closed by the final watermark
      }
    }
    send("clicks-one", clicks);
    run(Map.of("kafka.bootstrap.servers", KAFKA.bootstrapServers(), "subscribe", "clicks-one"));
    assertThat(table()).hasSize(45).isEqualTo(expected);
  }
}
