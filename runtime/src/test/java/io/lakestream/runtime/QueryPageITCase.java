package io.lakestream.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import io.lakestream.connectors.files.JsonLinesFileSink;
import io.lakestream.connectors.rate.source.RateSourceBuilder;
import io.lakestream.connectors.sink.CommitRecordListener;
import io.lakestream.operators.dedup.DeduplicationBuilder;
import io.lakestream.operators.row.KeyColumns;
import io.lakestream.operators.watermark.Watermarks;
import io.lakestream.runtime.StateOperatorsProgressITCase.Click;
import io.lakestream.runtime.ui.QueryPage;
import io.lakestream.state.StateBackendSettings;
import io.lakestream.state.checkpoint.CheckpointLocation;
import io.lakestream.state.checkpoint.EpochLog;
import io.lakestream.testkit.browser.HeadlessChromium;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The query page in a real browser (headless chromium): an embedded query rate -> withWatermark ->
 * dropDuplicatesWithinWatermark -> JSON lines is loaded from the page its run serves while it runs,
 * then, once stopped, from a page started for the directory holding its checkpoint location (what
 * {@code lakestream ui --checkpoints DIR} serves). Each chart must be drawn with exactly the values
 * of {@code progress/N} for the epochs shown, the sink's description (markup and a password in it)
 * shown as escaped text without the password, and no request may leave loopback. Screenshots are
 * saved under {@code target/query-page/}.
 */
class QueryPageITCase {
  private static final String DESCRIPTION =
      "unique <img src=x onerror=alert(1)> postgresql://app:hunter2@127.0.0.1/db";
  private static final List<String> CHARTS =
      List.of(
          "inputRate",
          "inputRows",
          "batchDuration",
          "operationDuration",
          "stateRows",
          "stateMemory",
          "watermark",
          "backlog");
  private static final Pattern SVG =
      Pattern.compile("<svg [^>]*data-chart=\"(\\w+)\"[^>]*>(.*?)</svg>", Pattern.DOTALL);
  private static final Pattern POINT =
      Pattern.compile("<(?:circle|rect) ([^>]*class=\"pt\"[^>]*)>");
  private static final Pattern ATTRIBUTE = Pattern.compile("([\\w-]+)=\"([^\"]*)\"");
  private static final Path SCREENSHOTS = Path.of("target", "query-page");

  @TempDir Path dir;

  /** One drawn value: chart, series, batch and value. */
  record Point(String chart, String series, long batch, double value) {}

  private Dataflow dataflow(Path table) {
    String out = table.toUri().toString();
    return (env, query) -> {
      DataStream<Click> clicks =
          env.fromSource(
                  RateSourceBuilder.rate("clicks", Click::of, TypeInformation.of(Click.class))
                      .rows(20_000)
                      .numPartitions(2)
                      .rowsPerSecond(1_000)
                      .query(query)
                      .build(),
                  WatermarkStrategy.noWatermarks(),
                  "clicks")
              .uid("clicks");
      DataStream<Click> marked =
          Watermarks.withWatermark(clicks, c -> c.ts, Duration.ofSeconds(1), "clicks-watermark");
      DeduplicationBuilder.dropDuplicatesWithinWatermark(
              marked, KeyColumns.of("id", (Click c) -> c.id))
          .uid("dedup")
          .build()
          .map(c -> c.id + "," + c.ts)
          .returns(Types.STRING)
          .uid("format")
          .sinkTo(
              JsonLinesFileSink.create(
                  out, line -> line, new CommitRecordListener(query, "unique", DESCRIPTION)))
          .uid("unique");
    };
  }

  @Test
  void pageShowsTheProgressOfARunningAndAFinishedQueryInARealBrowser() throws Exception {
    Path checkpoint = dir.resolve("queries").resolve("page-dedup");
    try (HeadlessChromium chromium = HeadlessChromium.installed()) {
      StreamingQuery query =
          StreamingQueryBuilder.of(dataflow(dir.resolve("unique")))
              .queryName("page-dedup")
              .checkpointLocation(checkpoint.toString())
              .trigger(Trigger.processingTime(Duration.ofMillis(500)))
              .parallelism(2)
              .stateBackend(StateBackendSettings.defaults())
              .start();
      EpochLog log = new CheckpointLocation(checkpoint.toUri()).epochs();
      String key = QueryPage.key(checkpoint.toUri());
      try {
        awaitEpochsWithState(query, 3);
        String running = EmbeddedQueryPage.open().url();
        assertThat(running).startsWith("http://127.0.0.1:");
        String dom =
            save(
                "running",
                chromium.dumpDomAndScreenshot(
                    running + "#q=" + key,
                    Duration.ofSeconds(2),
                    SCREENSHOTS.resolve("running.png"),
                    1280,
                    2000));
        assertThat(attribute(dom, "body", "data-active")).isEqualTo("true");
        assertThat(Integer.parseInt(attribute(dom, "body", "data-loads")))
            .as("loads of the running query's JSON in 2 s: it refreshes itself")
            .isGreaterThanOrEqualTo(2);
        assertThat(dom).contains("processingTime=500ms");
        List<Long> shown = chartsMatchTheProgressFiles(dom, log);
        assertThat(shown).as("epochs shown while running").hasSizeGreaterThanOrEqualTo(3);
        textIsEscapedAndSecretsHidden(dom);
        String list = chromium.dumpDom(running, Duration.ofSeconds(2));
        assertThat(list).contains("#q=" + key).contains(">running<");
      } finally {
        query.stop();
      }

      try (QueryPage finished = QueryPage.start(0, List.of(dir.resolve("queries").toUri()))) {
        String list = chromium.dumpDom(finished.url(), Duration.ofSeconds(2));
        assertThat(attribute(list, "body", "data-state")).isEqualTo("loaded");
        assertThat(list).contains("page-dedup").contains(">finished<").contains("#q=" + key);
        String dom =
            save(
                "finished",
                chromium.dumpDomAndScreenshot(
                    finished.url() + "#q=" + key,
                    Duration.ofSeconds(2),
                    SCREENSHOTS.resolve("finished.png"),
                    1280,
                    2000));
        assertThat(attribute(dom, "body", "data-active")).isEqualTo("false");
        assertThat(attribute(dom, "body", "data-loads"))
            .as("a finished query polls slowly")
            .isEqualTo("1");
        List<Long> shown = chartsMatchTheProgressFiles(dom, log);
        assertThat(shown).as("every retained report").isEqualTo(log.progressEpochs());
        textIsEscapedAndSecretsHidden(dom);
      }
      assertThat(chromium.outboundRequests()).as("requests that left loopback").isEmpty();
    }
  }

  /** Keeps {@code dom} as a test artifact beside the screenshots. */
  private static String save(String name, String dom) throws IOException {
    Files.createDirectories(SCREENSHOTS);
    Files.writeString(SCREENSHOTS.resolve(name + ".html"), dom);
    return dom;
  }

  /** Waits until {@code n} epochs with input reported the dedup operator's state. */
  private static void awaitEpochsWithState(StreamingQuery query, int n) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (query.recentProgress().stream()
            .filter(p -> p.numInputRows() > 0 && p.json().path("stateOperators").size() > 0)
            .count()
        < n) {
      assertThat(System.nanoTime()).as("%d epochs with state", n).isLessThan(deadline);
      Thread.sleep(200);
    }
  }

  /**
   * Every chart is drawn, and every drawn value is the one of its epoch's {@code progress/N}; every
   * value the reports have is drawn. Returns the epochs the page shows.
   */
  private static List<Long> chartsMatchTheProgressFiles(String dom, EpochLog log) throws Exception {
    assertThat(attribute(dom, "body", "data-state")).as("page state").isEqualTo("loaded");
    List<Long> batches = new ArrayList<>();
    for (String b : attribute(dom, "section id=\"detail\"", "data-batches").split(",")) {
      batches.add(Long.parseLong(b));
    }
    Map<Long, JsonNode> reports = new HashMap<>();
    for (long batch : batches) {
      reports.put(batch, log.readProgress(batch).orElseThrow());
    }
    Map<String, List<Point>> charts = points(dom);
    assertThat(charts.keySet()).containsExactlyInAnyOrderElementsOf(CHARTS);
    for (String chart : CHARTS) {
      assertThat(charts.get(chart)).as("values drawn in %s", chart).isNotEmpty();
      TreeSet<String> series = new TreeSet<>();
      for (Point p : charts.get(chart)) {
        Double expected = expected(chart, p.series(), reports.get(p.batch()));
        assertThat(expected).as("%s in progress/%d", p, p.batch()).isNotNull();
        assertThat(p.value()).as("%s", p).isCloseTo(expected, within(1e-6));
        series.add(p.series());
      }
      for (String s : series) {
        long present =
            batches.stream().filter(b -> expected(chart, s, reports.get(b)) != null).count();
        long drawn = charts.get(chart).stream().filter(p -> p.series().equals(s)).count();
        assertThat(drawn).as("values of %s / %s drawn", chart, s).isEqualTo(present);
      }
    }
    assertThat(series(charts, "operationDuration")).contains("addBatch", "commitOffsets");
    assertThat(series(charts, "stateRows")).containsExactly("dedup");
    assertThat(series(charts, "backlog")).containsExactly("clicks offsetsBehindLatest");
    JsonNode latest = reports.get(batches.get(batches.size() - 1));
    assertThat(dom)
        .as("the latest report, as text")
        .contains("\"batchId\": " + latest.path("batchId").asLong());
    return batches;
  }

  /** The value the page should draw for {@code series} of {@code chart} from report {@code p}. */
  private static Double expected(String chart, String series, JsonNode p) {
    JsonNode v =
        switch (chart) {
          case "inputRate", "inputRows", "batchDuration" -> p.path(series);
          case "operationDuration" -> p.path("durationMs").path(series);
          case "stateRows", "stateMemory" ->
              operator(p, series)
                  .path(chart.equals("stateRows") ? "numRowsTotal" : "memoryUsedBytes");
          case "watermark" -> gap(p, series.equals("watermarkGap") ? "watermark" : "max");
          case "backlog" -> backlog(p, series);
          default -> throw new AssertionError(chart);
        };
    return v.isNumber() ? v.asDouble() : null;
  }

  private static JsonNode operator(JsonNode p, String name) {
    for (JsonNode o : p.path("stateOperators")) {
      if (o.path("operatorName").asText().equals(name)) {
        return o;
      }
    }
    return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
  }

  private static JsonNode gap(JsonNode p, String field) {
    JsonNode at = p.path("eventTime").path(field);
    if (!at.isTextual()) {
      return at;
    }
    long start = Instant.parse(p.path("timestamp").asText()).toEpochMilli();
    return com.fasterxml.jackson.databind.node.LongNode.valueOf(
        start - Instant.parse(at.asText()).toEpochMilli());
  }

  /** The rate source reports no backlog metrics: its offsets behind latest, latest - end. */
  private static JsonNode backlog(JsonNode p, String series) {
    JsonNode source = p.path("sources").get(0);
    assertThat(series).isEqualTo(source.path("description").asText() + " offsetsBehindLatest");
    if (!source.path("latestOffset").isObject()) {
      return source.path("latestOffset");
    }
    long behind = sum(source.path("latestOffset")) - sum(source.path("endOffset"));
    return com.fasterxml.jackson.databind.node.LongNode.valueOf(Math.max(0, behind));
  }

  private static long sum(JsonNode offsets) {
    long total = 0;
    for (JsonNode v : offsets) {
      total += v.asLong();
    }
    return total;
  }

  private static TreeSet<String> series(Map<String, List<Point>> charts, String chart) {
    TreeSet<String> names = new TreeSet<>();
    charts.get(chart).forEach(p -> names.add(p.series()));
    return names;
  }

  /** The drawn values per chart, from the serialized DOM. */
  private static Map<String, List<Point>> points(String dom) {
    Map<String, List<Point>> charts = new HashMap<>();
    Matcher svg = SVG.matcher(dom);
    while (svg.find()) {
      List<Point> points = charts.computeIfAbsent(svg.group(1), c -> new ArrayList<>());
      Matcher point = POINT.matcher(svg.group(2));
      while (point.find()) {
        Map<String, String> a = attributes(point.group(1));
        points.add(
            new Point(
                svg.group(1),
                a.get("data-series"),
                Long.parseLong(a.get("data-batch")),
                Double.parseDouble(a.get("data-value"))));
      }
    }
    return charts;
  }

  private static Map<String, String> attributes(String text) {
    Map<String, String> out = new HashMap<>();
    Matcher m = ATTRIBUTE.matcher(text);
    while (m.find()) {
      out.put(
          m.group(1),
          m.group(2)
              .replace("&quot;", "\"")
              .replace("&lt;", "<")
              .replace("&gt;", ">")
              .replace("&amp;", "&"));
    }
    return out;
  }

  /** The value of {@code name} on the first element whose start tag begins with {@code tag}. */
  private static String attribute(String dom, String tag, String name) {
    int at = dom.indexOf("<" + tag);
    assertThat(at).as("<%s in %s", tag, dom).isNotNegative();
    return attributes(dom.substring(at, dom.indexOf('>', at))).get(name);
  }

  /** The sink's description is shown as text (its markup escaped), without its password. */
  private static void textIsEscapedAndSecretsHidden(String dom) {
    assertThat(dom).contains("unique &lt;img src=x onerror=alert(1)&gt;");
    assertThat(dom).doesNotContain("<img").doesNotContain("hunter2");
    assertThat(dom).contains("postgresql://app:&lt;redacted&gt;@127.0.0.1/db");
  }
}
