package io.lakestream.pipelines.clicks;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.pipelines.PipelineOptions;
import io.lakestream.pipelines.SqlExample;
import io.lakestream.runtime.StreamingQueryBuilder;
import io.lakestream.runtime.Trigger;
import io.lakestream.state.StateBackendSettings;
import io.lakestream.testkit.delta.DeltaLogTxns;
import io.lakestream.testkit.kafka.KafkaBrokerExtension;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The worked example E5 as SQL ({@code pipelines/sql/e5_clicks_5m.sql}) against the Java pipeline
 * {@link AdClicksPerWindow}, both on one topic in two availableNow runs: the SQL table holds the
 * Java one's 5-minute counts per ad row for row, each window once and only windows the watermark
 * closed, both equal to a batch count of those clicks.
 */
class AdClicksPerWindowSqlITCase {
  @RegisterExtension static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

  private static final Instant T0 = Instant.parse("2026-05-01T12:00:00Z");

  @TempDir Path dir;

  private static String click(int id, String ad, Instant at) {
    return "{\"click_id\":\"k-" + id + "\",\"ad_id\":\"" + ad + "\",\"event_time\":\"" + at + "\"}";
  }

  /** Sends each value to its partition, in order. */
  private static void send(List<String[]> partitionAndValue) {
    Properties props = new Properties();
    props.put("bootstrap.servers", KAFKA.bootstrapServers());
    try (KafkaProducer<String, String> producer =
        new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
      for (String[] pv : partitionAndValue) {
        producer.send(new ProducerRecord<>("clicks", Integer.parseInt(pv[0]), null, pv[1]));
      }
    }
  }

  private void runJava() throws Exception {
    PipelineOptions options =
        new PipelineOptions(
            dir.resolve("java").toUri(),
            0,
            0,
            0,
            Map.of("kafka.bootstrap.servers", KAFKA.bootstrapServers()));
    StreamingQueryBuilder.of(new AdClicksPerWindow().dataflow(options))
        .queryName("clicks")
        .checkpointLocation(dir.resolve("java/_checkpoints/clicks").toString())
        .trigger(Trigger.availableNow())
        .parallelism(2)
        .stateBackend(StateBackendSettings.defaults())
        .start()
        .awaitTermination();
  }

  private void runSql() throws Exception {
    SqlExample.of("e5_clicks_5m.sql")
        .localized(dir.resolve("sql"), KAFKA.bootstrapServers())
        .replace("'maxOffsetsPerTrigger' = '200000'", "'maxOffsetsPerTrigger' = '400'")
        .run();
  }

  /** The table as "window_start|ad_id" -> clicks, each window once. */
  private TreeMap<String, Long> table(String side) throws Exception {
    TreeMap<String, Long> rows = new TreeMap<>();
    for (Object[] r :
        new DeltaTableReader(
                DeltaTable.forPath(dir.resolve(side + "/ad_clicks_5m").toUri().toString()))
            .readLatest()) {
      String key = r[0] + "|" + r[2];
      assertThat(r[1]).isEqualTo(((Instant) r[0]).plusSeconds(300));
      assertThat(rows.put(key, (Long) r[3])).as("%s window %s written once", side, key).isNull();
    }
    return rows;
  }

  @Test
  void theSqlFileWritesTheWindowsOfTheJavaPipeline() throws Exception {
    KAFKA.createTopic("clicks", 2);
    List<String[]> first = new ArrayList<>();
    TreeMap<String, Long> expected = new TreeMap<>();
    for (int i = 0; i < 900; i++) { // 45 minutes of clicks on 3 ads, in time order per partition
      String ad = "ad-" + (i % 3);
      Instant at = T0.plusSeconds(i * 3L);
      first.add(new String[] {Integer.toString(i % 2), click(i, ad, at)});
      Instant windowStart = Instant.ofEpochSecond(at.getEpochSecond() / 300 * 300);
      expected.merge(windowStart + "|" + ad, 1L, Long::sum);
    }
    first.add(new String[] {"0", "{\"click_id\":\"broken\""});
    // clicks two hours later in both partitions close every window above
    first.add(new String[] {"0", click(5000, "ad-late", T0.plusSeconds(7200))});
    first.add(new String[] {"1", click(5001, "ad-late", T0.plusSeconds(7200))});
    send(first);
    runJava();
    runSql();

    // the second run's clicks, much later, close the 2-hour windows
    send(
        List.of(
            new String[] {"0", click(6000, "ad-x", T0.plusSeconds(20_000))},
            new String[] {"1", click(6001, "ad-x", T0.plusSeconds(20_000))}));
    runJava();
    runSql();

    expected.put(T0.plusSeconds(7200) + "|ad-late", 2L);
    assertThat(table("sql")).isEqualTo(expected).isEqualTo(table("java"));
    DeltaLogTxns.read(dir.resolve("sql/ad_clicks_5m")).assertEachEpochOnce();
  }
}
