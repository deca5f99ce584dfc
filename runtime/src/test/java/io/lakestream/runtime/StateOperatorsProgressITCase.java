package io.lakestream.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.lakestream.connectors.files.JsonLinesFileSink;
import io.lakestream.connectors.rate.source.RateSourceBuilder;
import io.lakestream.connectors.sink.CommitRecordListener;
import io.lakestream.operators.dedup.DeduplicationBuilder;
import io.lakestream.operators.row.KeyColumns;
import io.lakestream.operators.watermark.Watermarks;
import io.lakestream.state.StateBackendSettings;
import io.lakestream.testkit.flink.FlinkMiniCluster;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.client.program.StreamContextEnvironment;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.DeploymentOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.core.execution.DefaultExecutorServiceLoader;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An embedded query rate -> withWatermark(10 s) -> dropDuplicatesWithinWatermark(id) -> JSON lines,
 * whose progress must show the dedup operator in {@code stateOperators} with the right numbers,
 * read from the running job's REST API: the per-epoch {@code numRowsUpdated} add up to the rows
 * that passed (those in the table), {@code numRowsDroppedByWatermark} to the rows made late on
 * purpose, and once input has stopped {@code numRowsTotal} equals the passed rows whose bound
 * (event time + 10 s) is above the reported watermark.
 */
class StateOperatorsProgressITCase {
  private static final long ROWS = 4_000;
  private static final long BASE = Instant.parse("2026-01-01T00:00:00Z").toEpochMilli();
  private static final long DELAY = 10_000;

  @TempDir Path dir;

  /**
   * A click: rows r and r + 2 of each group of four are the same click (same id and time; the same
   * source partition, so the second always comes right after the first); click i happens at i * 20
   * ms, 40 s in all. Some rows come late.
   */
  public static class Click {
    public String id;
    public long ts;

    public Click() {}

    static Click of(long row) {
      Click c = new Click();
      long click = row / 4 * 2 + row % 2;
      c.id = "c" + click;
      c.ts = late(row) ? 0 : BASE + click * 20;
      return c;
    }
  }

  /** After the first 1000 rows, every 10th row carries event time 0: behind any watermark. */
  static boolean late(long row) {
    return row >= 1_000 && row % 10 == 9;
  }

  private Dataflow dataflow(Path table) {
    String out = table.toUri().toString();
    return (env, query) -> {
      DataStream<Click> clicks =
          env.fromSource(
                  RateSourceBuilder.rate("clicks", Click::of, TypeInformation.of(Click.class))
                      .rows(ROWS)
                      .numPartitions(2)
                      .rowsPerSecond(1_000)
                      .query(query)
                      .build(),
                  WatermarkStrategy.noWatermarks(),
                  "clicks")
              .uid("clicks");
      DataStream<Click> marked =
          Watermarks.withWatermark(clicks, c -> c.ts, Duration.ofMillis(DELAY), "clicks-watermark");
      DeduplicationBuilder.dropDuplicatesWithinWatermark(
              marked, KeyColumns.of("id", (Click c) -> c.id))
          .uid("dedup")
          .build()
          .map(c -> c.id + "," + c.ts)
          .returns(Types.STRING)
          .uid("format")
          .sinkTo(
              JsonLinesFileSink.create(
                  out, line -> line, new CommitRecordListener(query, "unique", "unique " + out)))
          .uid("unique");
    };
  }

  private StreamingQuery start(Path table) throws Exception {
    return StreamingQueryBuilder.of(dataflow(table))
        .queryName("dedup-progress")
        .checkpointLocation(dir.resolve("checkpoint").toString())
        .trigger(Trigger.processingTime(Duration.ofSeconds(1)))
        .parallelism(2)
        .stateBackend(StateBackendSettings.defaults())
        .start();
  }

  @Test
  void embeddedRunReportsTheDedupOperatorsStateMetricsPerEpoch() throws Exception {
    Path table = dir.resolve("unique");
    check(start(table), table);
  }

  /**
   * As {@code flink run} (attached) against a session cluster: the program runs in Flink's context
   * environment, which submits to the cluster's REST endpoint (a MiniCluster in this JVM here); the
   * tracker finds the REST address in the job's configuration.
   */
  @Test
  void clusterRunReportsTheSameThroughTheClustersRestEndpoint() throws Exception {
    try (FlinkMiniCluster cluster =
        FlinkMiniCluster.builder().set("metrics.fetcher.update-interval", "1 s").start()) {
      URI rest = cluster.miniCluster().getRestAddress().get();
      Configuration client = new Configuration();
      client.set(DeploymentOptions.TARGET, "remote");
      client.set(DeploymentOptions.ATTACHED, true);
      client.set(RestOptions.ADDRESS, rest.getHost());
      client.set(RestOptions.PORT, rest.getPort());
      StreamContextEnvironment.setAsContext(
          new DefaultExecutorServiceLoader(), client, getClass().getClassLoader(), false, false);
      try {
        Path table = dir.resolve("unique");
        check(start(table), table);
        assertThat(cluster.miniCluster().listJobs().get())
            .as("the query ran on the cluster")
            .hasSize(1);
      } finally {
        StreamContextEnvironment.unsetAsContext();
      }
    }
  }

  private static JsonNode lastOf(StreamingQuery query) {
    List<QueryProgress> progress = query.recentProgress();
    return progress.get(progress.size() - 1).json();
  }

  private void check(StreamingQuery query, Path table) throws Exception {
    long lates =
        Stream.iterate(0L, r -> r + 1)
            .limit(ROWS)
            .filter(StateOperatorsProgressITCase::late)
            .count();
    long passed = ROWS / 2; // one row of each click passes; a late row's twin is not late
    try {
      long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
      int stableEpochs = 0;
      while (stableEpochs < 2) {
        assertThat(System.nanoTime()).as("progress reaching all rows").isLessThan(deadline);
        Thread.sleep(500);
        List<QueryProgress> progress = query.recentProgress();
        if (total(progress, "numRowsUpdated") == passed
            && total(progress, "numRowsDroppedByWatermark") == lates) {
          stableEpochs = (int) progress.stream().skip(firstComplete(progress, passed)).count();
        }
      }
      // Flink refreshes RocksDB's metrics every 5 s: wait for an epoch after a refresh
      while (dedup(lastOf(query)).path("customMetrics").path("rocksdbSstFileSize").asLong() == 0) {
        assertThat(System.nanoTime()).as("RocksDB's metrics refreshed").isLessThan(deadline);
        Thread.sleep(500);
      }
      List<QueryProgress> progress = query.recentProgress();
      QueryProgress last = progress.get(progress.size() - 1);
      JsonNode dedup = dedup(last.json());
      assertThat(dedup.path("operatorName").asText()).isEqualTo("dedup");
      assertThat(dedup.path("numRowsUpdated").asLong()).isZero(); // no input any more
      assertThat(dedup.path("memoryUsedBytes").asLong()).isPositive();
      JsonNode rocksdb = dedup.path("customMetrics");
      assertThat(rocksdb.fieldNames())
          .toIterable()
          .as("RocksDB's native metrics of the dedup's states")
          .containsExactlyInAnyOrder(
              "rocksdbEstimatedNumKeys",
              "rocksdbSstFileSize",
              "rocksdbMemTableBytes",
              "rocksdbRunningFlushes",
              "rocksdbRunningCompactions");
      // estimates (puts less deletes); the checkpoints flushed the state to SST files
      assertThat(rocksdb.path("rocksdbEstimatedNumKeys").asLong()).isPositive();
      assertThat(rocksdb.path("rocksdbMemTableBytes").asLong()).isPositive();
      assertThat(rocksdb.path("rocksdbRunningCompactions").asLong()).isNotNegative();
      long watermark =
          Instant.parse(last.json().path("eventTime").path("watermark").asText()).toEpochMilli();
      List<Long> times = passedTimes(table);
      assertThat(times).hasSize((int) passed);
      long live = times.stream().filter(ts -> ts + DELAY > watermark).count();
      assertThat(dedup.path("numRowsTotal").asLong())
          .as("keys whose bound is above the watermark %s", watermark)
          .isEqualTo(live)
          .isPositive()
          .isLessThan(passed);
      // Each epoch shows the state as of its end (or an earlier epoch's): the rows counted in
      // dedup up to an epoch never exceed the rows the sink committed up to it (every row that
      // passes is written in the epoch that processed it).
      long counted = 0;
      long committed = 0;
      int exact = 0;
      for (QueryProgress p : progress) {
        counted +=
            p.json().path("stateOperators").size() > 0
                ? dedup(p.json()).path("numRowsUpdated").asLong()
                : 0;
        committed += p.numOutputRows();
        assertThat(counted)
            .as("rows counted by epoch %d", p.batchId())
            .isLessThanOrEqualTo(committed);
        exact += counted == committed ? 1 : 0;
      }
      assertThat(exact).as("epochs whose counts equal the committed rows").isPositive();
      assertThat(progress)
          .allSatisfy(
              p ->
                  p.json()
                      .path("stateOperators")
                      .forEach(o -> assertThat(o.path("numRowsUpdated").asLong()).isNotNegative()));
    } finally {
      query.stop();
    }
  }

  private static JsonNode dedup(JsonNode progress) {
    JsonNode operators = progress.path("stateOperators");
    assertThat(operators.size()).as("stateOperators of %s", progress).isEqualTo(1);
    return operators.get(0);
  }

  private static long total(List<QueryProgress> progress, String metric) {
    return progress.stream()
        .filter(p -> p.json().path("stateOperators").size() > 0)
        .mapToLong(p -> dedup(p.json()).path(metric).asLong())
        .sum();
  }

  private static long firstComplete(List<QueryProgress> progress, long passed) {
    long sum = 0;
    for (int i = 0; i < progress.size(); i++) {
      JsonNode ops = progress.get(i).json().path("stateOperators");
      sum += ops.size() > 0 ? ops.get(0).path("numRowsUpdated").asLong() : 0;
      if (sum == passed) {
        return i + 1;
      }
    }
    return progress.size();
  }

  private static List<Long> passedTimes(Path table) throws Exception {
    List<Long> times = new ArrayList<>();
    try (Stream<Path> files = Files.list(table)) {
      for (Path f : files.filter(p -> p.toString().endsWith(".jsonl")).toList()) {
        for (String line : Files.readAllLines(f)) {
          times.add(Long.parseLong(line.split(",")[1]));
        }
      }
    }
    return times;
  }
}
