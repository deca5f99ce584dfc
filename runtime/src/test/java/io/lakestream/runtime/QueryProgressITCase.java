package io.lakestream.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import io.lakestream.connectors.files.JsonLinesFileSink;
import io.lakestream.connectors.rate.source.RateSourceBuilder;
import io.lakestream.connectors.sink.CommitRecordListener;
import io.lakestream.operators.watermark.Watermarks;
import io.lakestream.state.checkpoint.CheckpointLocation;
import io.lakestream.state.checkpoint.EpochLog;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An embedded query rate (2 partitions, 3000 rows at 3000 rows/s; row r has event time BASE + 10 r
 * ms) -> withWatermark(1 s) -> JSON lines, triggered every 300 ms: every field of its progress is
 * checked against what the source read (its offsets, hence which rows), what the sink wrote (the
 * table's lines) and the watermark those rows imply, and the durations against each other.
 */
class QueryProgressITCase {
  private static final long ROWS = 3_000;
  private static final int PARTITIONS = 2;
  private static final long BASE = Instant.parse("2026-01-01T00:00:00Z").toEpochMilli();
  private static final long DELAY = 1_000;

  @TempDir Path dir;

  private Dataflow dataflow(Path table) {
    String out = table.toUri().toString();
    return (env, query) -> {
      var rows =
          env.fromSource(
                  RateSourceBuilder.rate("numbers", row -> row, Types.LONG)
                      .rows(ROWS)
                      .numPartitions(PARTITIONS)
                      .rowsPerSecond(3_000)
                      .query(query)
                      .build(),
                  WatermarkStrategy.noWatermarks(),
                  "numbers")
              .uid("numbers");
      Watermarks.withWatermark(rows, row -> BASE + row * 10, Duration.ofMillis(DELAY), "wm", query)
          .map(row -> row + "," + (BASE + row * 10))
          .returns(Types.STRING)
          .uid("format")
          .sinkTo(
              JsonLinesFileSink.create(
                  out, line -> line, new CommitRecordListener(query, "rows", "rows " + out)))
          .uid("rows");
    };
  }

  @Test
  void progressOfARealRunMatchesWhatTheSourceReadAndTheSinkWrote() throws Exception {
    Path table = dir.resolve("rows");
    Path checkpoint = dir.resolve("checkpoint");
    StreamingQuery query =
        StreamingQueryBuilder.of(dataflow(table))
            .queryName("progress-fields")
            .checkpointLocation(checkpoint.toString())
            .trigger(Trigger.processingTime(Duration.ofMillis(300)))
            .parallelism(2)
            .start();
    List<QueryProgress> progress;
    try {
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      boolean scraped = false;
      while (output(query.recentProgress()) < ROWS || query.recentProgress().size() < 4) {
        assertThat(System.nanoTime()).as("progress reaching all rows").isLessThan(deadline);
        if (!scraped && !query.recentProgress().isEmpty()) {
          scrapedMetricsMatchTheProgressFiles(checkpoint); // while rows flow
          scraped = true;
        }
        Thread.sleep(200);
      }
      scrapedMetricsMatchTheProgressFiles(checkpoint);
    } finally {
      query.stop();
    }
    progress = query.recentProgress();
    EpochLog log = new CheckpointLocation(checkpoint.toUri()).epochs();
    List<String> lines = lines(table);
    assertThat(lines).hasSize((int) ROWS).doesNotHaveDuplicates();
    assertThat(progress.stream().mapToLong(QueryProgress::numInputRows).sum()).isEqualTo(ROWS);
    assertThat(output(progress)).isEqualTo(ROWS);
    assertThat(progress.stream().filter(p -> p.numInputRows() > 0).count())
        .as("epochs with input")
        .isGreaterThanOrEqualTo(3);

    JsonNode previous = null;
    String runId = progress.get(0).json().path("runId").asText();
    for (QueryProgress each : progress) {
      JsonNode p = each.json();
      String epoch = "epoch " + each.batchId();
      assertThat(log.readProgress(each.batchId())).as(epoch).contains(p);
      assertThat(p.path("name").asText()).isEqualTo("progress-fields");
      assertThat(p.path("runId").asText()).isEqualTo(runId);
      assertThat(p.path("id").asText()).isNotBlank();

      JsonNode source = p.path("sources").get(0);
      assertThat(source.path("description").asText()).isEqualTo("numbers");
      long read = sum(source.path("endOffset")) - sum(source.path("startOffset"));
      assertThat(source.path("numInputRows").asLong()).as(epoch).isEqualTo(read);
      assertThat(p.path("numInputRows").asLong()).as(epoch).isEqualTo(read);
      assertThat(each.numOutputRows())
          .as("%s: one line per row, same epoch", epoch)
          .isEqualTo(read);
      assertThat(sum(source.path("latestOffset"))).as("the run's end").isEqualTo(ROWS);
      assertThat(p.path("sink").path("description").asText())
          .startsWith("rows file:")
          .endsWith(table.toString());

      JsonNode d = p.path("durationMs");
      long addBatch = d.path("addBatch").asLong();
      long walCommit = d.path("walCommit").asLong();
      long commit = d.path("commitOffsets").asLong();
      long trigger = d.path("triggerExecution").asLong();
      assertThat(d.has("addBatch") && d.has("commitOffsets") && d.has("triggerExecution"))
          .as("%s: %s", epoch, d)
          .isTrue();
      assertThat(addBatch).as(epoch).isPositive();
      assertThat(trigger)
          .as("%s: the epoch spans its processing, checkpoint and commit: %s", epoch, d)
          .isGreaterThanOrEqualTo(addBatch + walCommit + commit - 2);
      assertThat(p.path("batchDuration").asLong()).isEqualTo(trigger);
      assertThat(p.path("inputRowsPerSecond").asDouble())
          .isCloseTo(read * 1000.0 / addBatch, within(1e-9));
      assertThat(p.path("processedRowsPerSecond").asDouble())
          .isCloseTo(read * 1000.0 / trigger, within(1e-9));
      if (read > 0) {
        assertThat(p.path("processedRowsPerSecond").asDouble())
            .isLessThan(p.path("inputRowsPerSecond").asDouble());
      }

      // min, max and avg of the event times of exactly the rows the epoch read
      java.util.LongSummaryStatistics times = eventTimes(source);
      JsonNode eventTime = p.path("eventTime");
      if (times.getCount() == 0) {
        assertThat(eventTime.has("min")).as(epoch).isFalse();
      } else {
        assertThat(eventTime.path("min").asText())
            .as(epoch)
            .isEqualTo(Instant.ofEpochMilli(times.getMin()).toString());
        assertThat(eventTime.path("max").asText())
            .as(epoch)
            .isEqualTo(Instant.ofEpochMilli(times.getMax()).toString());
        assertThat(eventTime.path("avg").asText())
            .as(epoch)
            .isEqualTo(Instant.ofEpochMilli(Math.round(times.getAverage())).toString());
      }
      assertThat(p.path("observedMetrics").isMissingNode())
          .as("event-time statistics are not user observations")
          .isTrue();

      // the watermark at the epoch's end (none before the first): at most what the rows read allow
      JsonNode wm = p.path("eventTime").path("watermark");
      if (wm.isTextual()) {
        assertThat(Instant.parse(wm.asText()).toEpochMilli())
            .as(epoch)
            .isLessThanOrEqualTo(maxEventTime(source) - DELAY);
      }

      if (previous != null) {
        JsonNode before = previous.path("sources").get(0);
        assertThat(source.path("startOffset")).as(epoch).isEqualTo(before.path("endOffset"));
        long previousStart = Instant.parse(previous.path("timestamp").asText()).toEpochMilli();
        long start = Instant.parse(p.path("timestamp").asText()).toEpochMilli();
        assertThat(start)
            .as("%s starts where the previous one was cut", epoch)
            .isCloseTo(
                previousStart + previous.path("durationMs").path("addBatch").asLong(), within(1L));
      }
      previous = p;
    }
    long lastEventTime = BASE + (ROWS - 1) * 10;
    long lastWatermark =
        Instant.parse(previous.path("eventTime").path("watermark").asText()).toEpochMilli();
    assertThat(lastWatermark)
        .as("once all rows are read: the lowest partition's newest event time - 1 s")
        .isBetween(lastEventTime - 10 - DELAY - 1, lastEventTime - DELAY);
  }

  /**
   * The run's {@code /metrics} (Prometheus text, on the loopback port the embedded run opened) has
   * the latest epoch's progress, per query and source: compared with {@code progress/<batchId>}.
   */
  private void scrapedMetricsMatchTheProgressFiles(Path checkpoint) throws Exception {
    assertThat(PrometheusEndpoint.OPEN).isNotEmpty();
    String url = PrometheusEndpoint.OPEN.get(PrometheusEndpoint.OPEN.size() - 1);
    assertThat(url).startsWith("http://127.0.0.1:");
    EpochLog log = new CheckpointLocation(checkpoint.toUri()).epochs();
    for (int attempt = 0; ; attempt++) {
      Map<String, String> m = scrape(url);
      String prefix = "flink_jobmanager_job_operator_coordinator_enumerator_lakestream_query_";
      assertThat(m).as("the query's series").containsKey(prefix + "batchId");
      long batchId = (long) Double.parseDouble(m.get(prefix + "batchId"));
      JsonNode p = log.readProgress(batchId).orElseThrow();
      Map<String, Double> expected =
          Map.of(
              prefix + "numInputRows", p.path("numInputRows").asDouble(),
              prefix + "sink_numOutputRows", p.path("sink").path("numOutputRows").asDouble(),
              prefix + "durationMs_addBatch", p.path("durationMs").path("addBatch").asDouble(),
              prefix + "durationMs_triggerExecution",
                  p.path("durationMs").path("triggerExecution").asDouble(),
              prefix + "inputRowsPerSecond", p.path("inputRowsPerSecond").asDouble(),
              prefix + "source_numInputRows",
                  p.path("sources").get(0).path("numInputRows").asDouble(),
              prefix + "eventTime_watermark", watermarkMillis(p));
      Map<String, Double> scraped = new java.util.TreeMap<>();
      expected.keySet().forEach(k -> scraped.put(k, Double.parseDouble(m.get(k))));
      boolean sameEpoch = Double.parseDouble(scrape(url).get(prefix + "batchId")) == batchId;
      if (sameEpoch || attempt == 5) {
        assertThat(scraped).as("epoch %d scraped from %s", batchId, url).isEqualTo(expected);
        return;
      }
    }
  }

  /** The progress' watermark in epoch milliseconds; NaN (as the gauge reads) before the first. */
  private static double watermarkMillis(JsonNode progress) {
    JsonNode watermark = progress.path("eventTime").path("watermark");
    return watermark.isTextual() && !watermark.asText().isEmpty()
        ? Instant.parse(watermark.asText()).toEpochMilli()
        : Double.NaN;
  }

  /**
   * The series of query {@code progress-fields} (and source {@code numbers}) by metric name; fails
   * on a line that is not in Prometheus' text format.
   */
  private static Map<String, String> scrape(String url) throws Exception {
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(HttpRequest.newBuilder(URI.create(url)).build(), BodyHandlers.ofString());
    assertThat(response.statusCode()).isEqualTo(200);
    Map<String, String> series = new java.util.TreeMap<>();
    for (String line : response.body().split("\n")) {
      assertThat(line).matches("# TYPE \\S+ gauge|[a-zA-Z_:][a-zA-Z0-9_:]*(\\{.*\\})? \\S+");
      if (line.contains("query=\"progress-fields\"") && !line.startsWith("#")) {
        boolean otherSource = line.contains("source=") && !line.contains("source=\"numbers\"");
        if (!otherSource) {
          series.put(
              line.substring(0, line.indexOf('{')), line.substring(line.lastIndexOf(' ') + 1));
        }
      }
    }
    return series;
  }

  private static long output(List<QueryProgress> progress) {
    return progress.stream().mapToLong(QueryProgress::numOutputRows).sum();
  }

  /** The sum of a source position's split offsets; 0 for none (the first epoch's start). */
  private static long sum(JsonNode offsets) {
    long sum = 0;
    for (Iterator<JsonNode> it = offsets.elements(); it.hasNext(); ) {
      sum += it.next().asLong();
    }
    return sum;
  }

  /** The newest event time of the rows read up to the source's end offset. */
  /** The event times of the rows between the source's start and end offsets. */
  private static java.util.LongSummaryStatistics eventTimes(JsonNode source) {
    java.util.LongSummaryStatistics times = new java.util.LongSummaryStatistics();
    for (Iterator<Map.Entry<String, JsonNode>> it = source.path("endOffset").fields();
        it.hasNext(); ) {
      Map.Entry<String, JsonNode> split = it.next();
      int partition = Integer.parseInt(split.getKey().replaceAll("\\D", ""));
      long from = source.path("startOffset").path(split.getKey()).asLong(0);
      for (long offset = from; offset < split.getValue().asLong(); offset++) {
        times.accept(BASE + (offset * PARTITIONS + partition) * 10);
      }
    }
    return times;
  }

  private static long maxEventTime(JsonNode source) {
    long maxRow = -1;
    for (Iterator<Map.Entry<String, JsonNode>> it = source.path("endOffset").fields();
        it.hasNext(); ) {
      Map.Entry<String, JsonNode> split = it.next();
      long offset = split.getValue().asLong();
      int partition = Integer.parseInt(split.getKey().replaceAll("\\D", ""));
      if (offset > 0) {
        maxRow = Math.max(maxRow, (offset - 1) * PARTITIONS + partition);
      }
    }
    return BASE + maxRow * 10;
  }

  private static List<String> lines(Path table) throws Exception {
    List<String> lines = new ArrayList<>();
    try (Stream<Path> files = Files.list(table)) {
      for (Path f : files.filter(p -> p.toString().endsWith(".jsonl")).toList()) {
        lines.addAll(Files.readAllLines(f));
      }
    }
    return lines;
  }
}
