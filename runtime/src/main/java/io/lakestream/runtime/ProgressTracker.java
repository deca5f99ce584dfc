package io.lakestream.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lakestream.state.checkpoint.EpochLog;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds one progress report per committed epoch from the checkpoint location's epoch log (the
 * sinks' commit records and the sources' offsets), writes it to {@code progress/N}, logs it as one
 * JSON line (logger {@code io.lakestream.progress.json}) and as a one-line summary (logger {@code
 * io.lakestream.progress}), and hands it to the {@link Sink}. Run by the in-job {@link QueryRunner}
 * (clients read the files back: {@link ProgressFeed}). The {@code stateOperators} come from the
 * {@link StateOperatorProgress} its supplier gives at each report; the {@code observedMetrics} from
 * the observing operators' records ({@link ObservedMetrics}); {@code durationMs} and the rates from
 * the epoch's times ({@link EpochClock}) and the sinks' and sources' records ({@link
 * EpochDurations}); the watermark from the sinks' commit records, else from the stateful operators'
 * input watermark. Construction rehearses a report, so every class a report needs is loaded while
 * the job runs: the runner's last reports may come after Flink closed the finished job's class
 * loader.
 *
 * <p>Not thread-safe: driven by one scheduler thread.
 */
final class ProgressTracker {
  private static final Logger SUMMARY = LoggerFactory.getLogger("io.lakestream.progress");
  private static final Logger PROGRESS_JSON =
      LoggerFactory.getLogger("io.lakestream.progress.json");
  private static final Logger LOG = LoggerFactory.getLogger(ProgressTracker.class);
  private static final ObjectMapper MAPPER = new ObjectMapper();

  /** How long an epoch waits for a slow sink's record before it is reported without it. */
  private static final Duration WAIT_FOR_RECORDS = Duration.ofSeconds(30);

  private static final int RETAIN_EPOCHS = 100;

  /**
   * How many epochs up to a restored snapshot a new run reports if an earlier run committed them
   * without a report: a run that dies loses at most the reports of the epochs it committed last.
   */
  static final int REPORTED_LATE = 10;

  private static final String REHEARSAL_COMMIT =
      "{\"sink\":\"sink\",\"description\":\"rehearsal\",\"numOutputRows\":1,"
          + "\"watermark\":\"2026-01-01T00:00:00Z\",\"committedAt\":\"2026-01-01T00:00:01Z\","
          + "\"commitDurationMs\":1}";
  private static final String REHEARSAL_OFFSETS =
      "{\"source\":\"SOURCE\",\"totalOffset\":1,\"offsets\":{\"p\":1},"
          + "\"endOffsets\":{\"p\":1},\"latestOffsets\":{\"p\":1},\"latestOffsetMs\":1,"
          + "\"metrics\":{\"avgOffsetsBehindLatest\":0.5}}";

  private static final String REHEARSAL_OBSERVED =
      "{\"observation\":\"o\",\"runId\":\"run\",\"subtask\":0,\"parallelism\":1,"
          + "\"attempt\":0,\"aggregates\":{\"c\":{\"kind\":\"COUNT\",\"count\":1,\"sum\":0},"
          + "\"m\":{\"kind\":\"MIN\",\"count\":1,\"sum\":1,\"min\":1,\"max\":1},"
          + "\"a\":{\"kind\":\"AVG\",\"count\":0,\"sum\":0},"
          + "\"r\":{\"kind\":\"RATIO\",\"count\":0,\"sum\":0,\"numerator\":\"c\","
          + "\"denominator\":\"m\"}}}";

  /** Who hears of each report besides the files and the log. */
  interface Sink {
    /** Hears nothing: the in-job runner only writes the files and the log. */
    Sink NONE =
        new Sink() {
          @Override
          public void progress(QueryProgress progress) {}

          @Override
          public void idle() {}
        };

    void progress(QueryProgress progress);

    void idle();
  }

  private final EpochLog log;
  private final String queryId;
  private final String runId;
  private final String name;
  private final int sinkCount;
  private final int sourceCount;
  private final Duration idleAfter;
  private final Sink out;

  private final Supplier<StateOperatorProgress> stateOperators;
  private final EpochClock clock;
  private final Map<String, Long> lastTotals = new HashMap<>();
  private final Map<String, JsonNode> lastOffsets = new HashMap<>();
  private final Map<Long, Instant> firstSeen = new HashMap<>();
  private long lastEpoch;
  private Instant lastProgressAt = Instant.now();
  private boolean idleReported;

  ProgressTracker(
      EpochLog log,
      String queryId,
      String runId,
      String name,
      long restoredEpoch,
      int sinkCount,
      int sourceCount,
      Duration idleAfter,
      Supplier<StateOperatorProgress> stateOperators,
      EpochClock clock,
      Sink out)
      throws IOException {
    this.log = log;
    this.queryId = queryId;
    this.runId = runId;
    this.name = name;
    this.sinkCount = sinkCount;
    this.sourceCount = sourceCount;
    this.idleAfter = idleAfter;
    this.stateOperators = stateOperators;
    this.clock = clock;
    this.out = out;
    List<Long> reported = log.progressEpochs();
    long lastReported = reported.isEmpty() ? 0 : reported.get(reported.size() - 1);
    // Epochs up to the restored snapshot belong to earlier runs. Those committed without a report
    // (the run died between a commit and its report, or this run's restore completed the commit)
    // are reported now, back to at most REPORTED_LATE epochs before the snapshot.
    lastEpoch = Math.max(lastReported, Math.max(0, restoredEpoch - REPORTED_LATE));
    for (JsonNode source : log.readOffsets(lastEpoch).values()) {
      lastTotals.put(source.path("source").asText(), source.path("totalOffset").asLong());
      lastOffsets.put(source.path("source").asText(), source.path("offsets"));
    }
    rehearse();
  }

  /** Reports every epoch whose records are complete. */
  synchronized void poll(boolean final_) throws IOException {
    List<Long> epochs = log.committedEpochs();
    for (int i = 0; i < epochs.size(); i++) {
      long epoch = epochs.get(i);
      if (epoch <= lastEpoch) {
        continue;
      }
      boolean later = laterEpochComplete(epochs, i);
      Instant seen = firstSeen.computeIfAbsent(epoch, e -> Instant.now());
      boolean waited = Duration.between(seen, Instant.now()).compareTo(WAIT_FOR_RECORDS) > 0;
      Map<String, JsonNode> commits = log.readCommits(epoch);
      Map<String, JsonNode> offsets = log.readOffsets(epoch);
      boolean complete = sinks(commits) >= sinkCount && offsets.size() >= sourceCount;
      if (!complete && !later && !waited && !final_) {
        return;
      }
      report(epoch, commits, offsets);
      firstSeen.remove(epoch);
    }
    if (!idleReported && Duration.between(lastProgressAt, Instant.now()).compareTo(idleAfter) > 0) {
      idleReported = true;
      out.idle();
    }
  }

  /**
   * Whether an epoch after {@code epochs[i]} has records from every sink and source: sinks commit
   * in order, so a record still missing for epoch i will not come.
   */
  private boolean laterEpochComplete(List<Long> epochs, int i) throws IOException {
    for (int j = epochs.size() - 1; j > i; j--) {
      long epoch = epochs.get(j);
      if (sinks(log.readCommits(epoch)) >= sinkCount
          && log.readOffsets(epoch).size() >= sourceCount) {
        return true;
      }
    }
    return false;
  }

  private void report(long epoch, Map<String, JsonNode> commits, Map<String, JsonNode> offsets)
      throws IOException {
    StateOperatorProgress operators = stateOperators.get();
    operators.refresh();
    ObjectNode observed = ObservedMetrics.read(log, runId, lastEpoch, epoch, MAPPER);
    Map<String, Long> counted = ObservedMetrics.takeInputRows(observed);
    ObjectNode p =
        render(
            epoch, commits, offsets, counted, lastTotals, lastOffsets, clock.of(epoch), operators);
    ObservedMetrics.moveEventTimes(observed, (ObjectNode) p.get("eventTime"));
    if (!observed.isEmpty()) {
      p.set("observedMetrics", observed);
    }
    QueryProgress progress = new QueryProgress(p);
    try {
      log.writeProgress(epoch, p);
      if (epoch % 20 == 0) {
        log.prune(RETAIN_EPOCHS);
      }
    } catch (IOException e) {
      LOG.warn("Could not write progress of epoch {}", epoch, e);
    }
    PROGRESS_JSON.info("{}", p);
    SUMMARY.info("{}", progress.summary());
    lastEpoch = epoch;
    if (progress.numInputRows() > 0 || progress.numOutputRows() > 0) {
      lastProgressAt = Instant.now();
      idleReported = false;
    }
    out.progress(progress);
  }

  /**
   * The report of {@code epoch}: input rows as the sources' readers {@code counted} them, else from
   * each source's previous total in {@code totals}; its previous positions in {@code starts} (it
   * updates both), durations from the epoch's {@code times} (null when unknown: durations and rates
   * measured from them are left out).
   */
  private ObjectNode render(
      long epoch,
      Map<String, JsonNode> commits,
      Map<String, JsonNode> offsets,
      Map<String, Long> counted,
      Map<String, Long> totals,
      Map<String, JsonNode> starts,
      EpochClock.EpochTimes times,
      StateOperatorProgress operators) {
    ObjectNode p = MAPPER.createObjectNode();
    p.put("id", queryId);
    p.put("runId", runId);
    p.put("name", name);
    p.put("timestamp", (times == null ? Instant.now() : times.start()).toString());
    p.put("batchId", epoch);
    EpochDurations durations = EpochDurations.of(times, commits, offsets);
    durations.batchDuration().ifPresent(ms -> p.put("batchDuration", ms));

    long inputRows = 0;
    ArrayNode sources = MAPPER.createArrayNode();
    for (JsonNode offset : offsets.values()) {
      String source = offset.path("source").asText();
      long total = offset.path("totalOffset").asLong();
      Long previous = totals.put(source, total);
      JsonNode start = starts.put(source, offset.path("offsets"));
      long rows =
          counted.containsKey(source)
              ? counted.get(source)
              : previous == null ? total : Math.max(0, total - previous);
      inputRows += rows;
      ObjectNode s = sources.addObject();
      s.put("description", source);
      s.set("startOffset", start == null ? NullNode.getInstance() : start);
      s.set("endOffset", offset.path("offsets"));
      if (offset.has("latestOffsets")) {
        s.set("latestOffset", offset.path("latestOffsets"));
      } else if (offset.has("endOffsets")) {
        s.set("latestOffset", offset.path("endOffsets"));
      }
      s.put("numInputRows", rows);
      durations.rates(s, rows);
      if (offset.has("metrics")) {
        s.set("metrics", offset.path("metrics")); // e.g. Kafka's avg/max/minOffsetsBehindLatest
      }
    }
    p.put("numInputRows", inputRows);
    durations.rates(p, inputRows);
    durations.write(p.putObject("durationMs"));
    p.set("eventTime", eventTime(commits, operators));
    p.set("stateOperators", operators.report(MAPPER, epoch));
    p.set("sources", sources);
    p.set("sink", sink(commits));
    return p;
  }

  /**
   * {@code eventTime.watermark}: the lowest of the sinks' watermarks at the epoch's end, else the
   * stateful operators' input watermark. Spark's {@code min}, {@code max} and {@code avg} of the
   * epoch's event times come from the watermarks' observations ({@link
   * ObservedMetrics#moveEventTimes}).
   */
  private static ObjectNode eventTime(
      Map<String, JsonNode> commits, StateOperatorProgress operators) {
    String watermark = null;
    for (JsonNode commit : commits.values()) {
      String wm = commit.path("watermark").isTextual() ? commit.path("watermark").asText() : null;
      if (wm != null && (watermark == null || wm.compareTo(watermark) < 0)) {
        watermark = wm;
      }
    }
    if (watermark == null && operators.watermark().isPresent()) {
      watermark = Instant.ofEpochMilli(operators.watermark().getAsLong()).toString();
    }
    ObjectNode eventTime = MAPPER.createObjectNode();
    if (watermark != null) {
      eventTime.put("watermark", watermark);
    }
    return eventTime;
  }

  /**
   * How many sinks recorded the epoch: records naming the same {@code sink} (the subtasks of a sink
   * that commits in parallel, as the Lakebase sink) count once.
   */
  private static int sinks(Map<String, JsonNode> commits) {
    Set<String> sinks = new HashSet<>();
    commits.forEach((file, commit) -> sinks.add(commit.path("sink").asText(file)));
    return sinks.size();
  }

  /**
   * {@code sink}: the sinks' descriptions (once per sink) and output rows, and each commit record.
   */
  private static ObjectNode sink(Map<String, JsonNode> commits) {
    long outputRows = 0;
    ArrayNode sinks = MAPPER.createArrayNode();
    Map<String, String> descriptionsBySink = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> record : commits.entrySet()) {
      JsonNode commit = record.getValue();
      outputRows += commit.path("numOutputRows").asLong();
      descriptionsBySink.putIfAbsent(
          commit.path("sink").asText(record.getKey()), commit.path("description").asText());
      sinks.add(commit);
    }
    List<String> descriptions = new ArrayList<>(descriptionsBySink.values());
    ObjectNode sink = MAPPER.createObjectNode();
    sink.put("description", String.join(", ", descriptions));
    sink.put("numOutputRows", outputRows);
    sink.set("sinks", sinks);
    return sink;
  }

  /**
   * Reads, renders, prints and serializes the report of made-up records, and drops it. Flink closes
   * a finished job's coordinators asynchronously and may close the job's class loader meanwhile;
   * the reports the runner makes in its close() (for a short availableNow run, all of them) cannot
   * load a class then. This loads every class a report needs while the job runs.
   */
  private void rehearse() throws IOException {
    Map<String, JsonNode> commits =
        Map.of("sink", MAPPER.readTree(REHEARSAL_COMMIT.getBytes(StandardCharsets.UTF_8)));
    Map<String, JsonNode> offsets = new TreeMap<>();
    for (String source : List.of("first", "later")) {
      String json = REHEARSAL_OFFSETS.replace("SOURCE", source);
      offsets.put(source, MAPPER.readTree(json.getBytes(StandardCharsets.UTF_8)));
    }
    Map<String, Long> totals = new HashMap<>(Map.of("later", 0L)); // one new source, one known
    Map<String, JsonNode> starts = new HashMap<>(Map.of("later", MAPPER.createObjectNode()));
    EpochClock.EpochTimes times =
        new EpochClock.EpochTimes(Instant.EPOCH, Instant.EPOCH.plusMillis(1), Instant.EPOCH);
    for (EpochClock.EpochTimes t : new EpochClock.EpochTimes[] {times, null}) {
      ObjectNode p =
          render(1, commits, offsets, Map.of(), totals, starts, t, StateOperatorProgress.none());
      new QueryProgress(p).summary();
      p.toString();
      MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(p);
    }
    new EpochClock(Instant.EPOCH).of(1);
    JsonNode share = MAPPER.readTree(REHEARSAL_OBSERVED.getBytes(StandardCharsets.UTF_8));
    ObservedMetrics.merge(Map.of(1L, List.of(share)), "run", 1, MAPPER).toString();
  }
}
