package io.lakestream.pipelines.autoloader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.connectors.autoloader.schema.UnknownFieldException;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.pipelines.Pipeline;
import io.lakestream.pipelines.PipelineOptions;
import io.lakestream.pipelines.Pipelines;
import io.lakestream.runtime.SchemaChangeRestarts;
import io.lakestream.runtime.StreamingQuery;
import io.lakestream.runtime.StreamingQueryBuilder;
import io.lakestream.runtime.Trigger;
import io.lakestream.state.StateBackendSettings;
import io.lakestream.testkit.delta.DeltaLogTxns;
import io.lakestream.testkit.query.EpochRecords;
import io.lakestream.testkit.s3.S3ServerExtension;
import io.lakestream.testkit.s3.S3aSettings;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pipeline E1 ({@code bronze-files}) end to end on the S3 server: JSON files landing under an
 * {@code s3a://} prefix, the Delta bronze table on S3 too, in the three trigger shapes of the seed
 * (default, processingTime 10 s, availableNow), each run restarted on the same checkpoint with new
 * files in between, and a column appearing mid-stream. The table is read back after every run and
 * must hold every row of every file exactly once, row for row, each epoch in one version.
 */
class OrdersBronzeFromFilesITCase {
  @RegisterExtension static final S3ServerExtension S3 = new S3ServerExtension("e1-bronze");

  private static final Duration WAIT = Duration.ofMinutes(3);

  @TempDir Path dir;

  /** One test's prefixes in the bucket, its files and the rows they hold. */
  private final class Landing {
    final String prefix;
    final Map<String, String> conf = S3aSettings.of(S3.server());
    final TreeMap<Long, String> expected = new TreeMap<>();
    private final FileSystem fs;

    Landing(String prefix) throws IOException {
      this.prefix = prefix;
      Configuration hadoop = new Configuration();
      conf.forEach(hadoop::set);
      this.fs = FileSystem.newInstance(URI.create(uri("")), hadoop);
    }

    String uri(String path) {
      return "s3a://" + S3.server().bucket() + "/" + prefix + "/" + path;
    }

    /** Writes a file of {@code count} orders from id {@code from}; {@code amount} adds a field. */
    void write(String key, long from, int count, boolean amount) throws IOException {
      try (OutputStream out =
          fs.create(new org.apache.hadoop.fs.Path(uri("landing/" + key)), true)) {
        for (long id = from; id < from + count; id++) {
          String row =
              "{\"order_id\":"
                  + id
                  + ",\"customer\":\"c-"
                  + (id % 7)
                  + "\""
                  + (amount ? ",\"amount\":" + id + ".5" : "")
                  + "}";
          out.write((row + "\n").getBytes(StandardCharsets.UTF_8));
          String date = key.substring(key.indexOf("date=") + 5, key.indexOf('/'));
          expected.put(id, id + "|c-" + (id % 7) + "|" + date + (amount ? "|" + id + ".5" : ""));
        }
      }
    }

    StreamingQuery start(Trigger trigger) throws Exception {
      return start(trigger, SchemaChangeRestarts.defaults());
    }

    StreamingQuery start(Trigger trigger, SchemaChangeRestarts restarts) throws Exception {
      Map<String, String> options = new LinkedHashMap<>(conf);
      options.put("path", uri("landing"));
      options.put("cloudFiles.schemaLocation", uri("state/schema"));
      options.put("cloudFiles.inferColumnTypes", "true");
      options.put("cloudFiles.maxFilesPerTrigger", "4");
      Pipeline pipeline = Pipelines.byName("bronze-files");
      return StreamingQueryBuilder.of(
              pipeline.dataflow(new PipelineOptions(URI.create(uri("out")), 0, 0, 0, options)))
          .queryName("bronze-files")
          .checkpointLocation(checkpoint().toUri().toString())
          .trigger(trigger)
          .parallelism(2)
          .stateBackend(StateBackendSettings.defaults())
          .restartOnSchemaChange(restarts)
          .start();
    }

    Path checkpoint() {
      return dir.resolve("checkpoint");
    }

    /** Waits for another epoch's commit: a file read twice would have landed by then. */
    void awaitAnotherEpoch() throws InterruptedException {
      EpochRecords.awaitMoreEpochs(checkpoint(), 1, WAIT);
    }

    /** Each epoch of the query is one version of the table (on S3), with the query's txn. */
    void assertOneVersionPerEpoch(StreamingQuery query) {
      DeltaLogTxns.read(S3.server(), prefix + "/out/" + OrdersBronzeFromFiles.TABLE)
          .assertEachEpochOnce()
          .assertVersionPerEpoch(query.appId(), checkpoint(), "bronze-files-sink");
    }

    DeltaTableReader table() {
      return new DeltaTableReader(
          DeltaTable.forPath(uri("out/" + OrdersBronzeFromFiles.TABLE), conf));
    }

    /** The table's rows as {@code order_id|customer|date[|amount]}, sorted by order id. */
    List<String> rows() throws Exception {
      DeltaTableReader reader = table();
      List<String> names = reader.columnNames();
      int id = names.indexOf("order_id");
      int customer = names.indexOf("customer");
      int date = names.indexOf("date");
      int amount = names.indexOf("amount");
      int rescued = names.indexOf("_rescued_data");
      TreeMap<Long, List<String>> byId = new TreeMap<>();
      for (Object[] r : reader.readLatest()) {
        assertThat(r[rescued]).as("nothing rescued in %s", Arrays.toString(r)).isNull();
        String line =
            r[id]
                + "|"
                + r[customer]
                + "|"
                + r[date]
                + (amount >= 0 && r[amount] != null ? "|" + r[amount] : "");
        byId.computeIfAbsent((Long) r[id], k -> new ArrayList<>()).add(line);
      }
      List<String> lines = new ArrayList<>();
      byId.values().forEach(lines::addAll);
      return lines;
    }

    List<String> expectedRows() {
      return new ArrayList<>(expected.values());
    }

    /** Waits until the table holds as many rows as expected (or more: a duplicate fails later). */
    void awaitRows(StreamingQuery query) throws Exception {
      long deadline = System.nanoTime() + WAIT.toNanos();
      while (true) {
        if (table().table().latestSnapshot().isPresent() && table().count() >= expected.size()) {
          return;
        }
        assertThat(query.isActive()).as("query still running: %s", query.exception()).isTrue();
        assertThat(System.nanoTime())
            .as("%d rows within %s", expected.size(), WAIT)
            .isLessThan(deadline);
        Thread.sleep(300);
      }
    }
  }

  private static String day(int d) {
    return String.format("date=2026-11-%02d", d);
  }

  /** A continuous trigger: runs until the rows are in, stops, restarts with new files. */
  private void continuousShape(String prefix, Trigger trigger) throws Exception {
    Landing landing = new Landing(prefix);
    for (int f = 0; f < 6; f++) {
      landing.write(day(1) + "/part-" + f + ".json", f * 10L, 10, false);
    }
    StreamingQuery first = landing.start(trigger);
    landing.awaitRows(first);
    for (int f = 6; f < 9; f++) { // arriving while the query runs
      landing.write(day(2) + "/part-" + f + ".json", f * 10L, 10, false);
    }
    landing.awaitRows(first);
    first.stop();
    assertThat(landing.rows()).containsExactlyElementsOf(landing.expectedRows());

    for (int f = 9; f < 12; f++) { // arriving while no query runs
      landing.write(day(3) + "/part-" + f + ".json", f * 10L, 10, false);
    }
    StreamingQuery second = landing.start(trigger);
    landing.awaitRows(second);
    landing.awaitAnotherEpoch();
    second.stop();
    assertThat(landing.rows()).hasSize(120).containsExactlyElementsOf(landing.expectedRows());
    landing.assertOneVersionPerEpoch(second);
  }

  @Test
  void defaultTriggerIngestsRunningAndAcrossARestartExactlyOnce() throws Exception {
    continuousShape("default", Trigger.parse("default"));
  }

  /** The seeds' {@code processingTime='10 seconds'} shape, at 3 s so the test takes seconds. */
  @Test
  void processingTimeIngestsRunningAndAcrossARestartExactlyOnce() throws Exception {
    continuousShape("ptime", Trigger.parse("processingTime=3 seconds"));
  }

  @Test
  void availableNowStopsByItselfAndTheNextRunTakesOnlyNewFiles() throws Exception {
    Landing landing = new Landing("anow");
    for (int f = 0; f < 10; f++) {
      landing.write(day(1 + f / 5) + "/part-" + f + ".json", f * 10L, 10, false);
    }
    StreamingQuery first = landing.start(Trigger.availableNow());
    assertThat(first.awaitTermination(WAIT)).isTrue();
    assertThat(landing.rows()).containsExactlyElementsOf(landing.expectedRows());
    long version = landing.table().latestVersion();

    StreamingQuery idle = landing.start(Trigger.availableNow());
    assertThat(idle.awaitTermination(WAIT)).isTrue();
    assertThat(landing.rows()).hasSize(100);

    for (int f = 10; f < 13; f++) {
      landing.write(day(3) + "/part-" + f + ".json", f * 10L, 10, false);
    }
    StreamingQuery second = landing.start(Trigger.availableNow());
    assertThat(second.awaitTermination(WAIT)).isTrue();
    assertThat(landing.rows()).hasSize(130).containsExactlyElementsOf(landing.expectedRows());
    assertThat(landing.table().latestVersion()).isGreaterThan(version);
    landing.assertOneVersionPerEpoch(second);
  }

  @Test
  void newColumnMidStreamRestartsTheQueryByItselfAndTheTableGainsIt() throws Exception {
    Landing landing = new Landing("evolve");
    for (int f = 0; f < 4; f++) {
      landing.write(day(1) + "/part-" + f + ".json", f * 10L, 10, false);
    }
    StreamingQuery query = landing.start(Trigger.parse("default"));
    String firstRun = query.runId();
    landing.awaitRows(query);
    assertThat(landing.table().columnNames())
        .containsExactly("customer", "order_id", "date", "_rescued_data");

    landing.write(day(2) + "/part-4.json", 40, 10, true); // a new field: amount
    landing.write(day(2) + "/part-5.json", 50, 10, false);
    landing.awaitRows(query);
    landing.awaitAnotherEpoch();
    assertThat(query.runId()).as("rebuilt and restarted by itself").isNotEqualTo(firstRun);
    query.stop();
    assertThat(landing.table().columnNames())
        .containsExactly(
            "customer", "order_id", "date", "_rescued_data", "amount"); // inferred: sorted by name
    assertThat(landing.rows()).hasSize(60).containsExactlyElementsOf(landing.expectedRows());
    landing.assertOneVersionPerEpoch(query);
  }

  @Test
  void withRestartsOffANewColumnStopsTheQueryAndTheNextRunAddsItToTheTable() throws Exception {
    Landing landing = new Landing("evolve-off");
    for (int f = 0; f < 4; f++) {
      landing.write(day(1) + "/part-" + f + ".json", f * 10L, 10, false);
    }
    StreamingQuery first = landing.start(Trigger.parse("default"), SchemaChangeRestarts.off());
    landing.awaitRows(first);

    landing.write(day(2) + "/part-4.json", 40, 10, true); // a new field: amount
    landing.write(day(2) + "/part-5.json", 50, 10, false);
    assertThatThrownBy(() -> first.awaitTermination(WAIT))
        .hasStackTraceContaining(UnknownFieldException.class.getName())
        .hasStackTraceContaining("new columns [amount]");
    assertThat(landing.rows()).hasSize(40);

    StreamingQuery second = landing.start(Trigger.parse("default"), SchemaChangeRestarts.off());
    landing.awaitRows(second);
    landing.awaitAnotherEpoch();
    second.stop();
    assertThat(landing.rows()).hasSize(60).containsExactlyElementsOf(landing.expectedRows());
    landing.assertOneVersionPerEpoch(second);
  }
}
