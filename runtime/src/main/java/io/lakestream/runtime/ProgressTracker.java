package io.lakestream.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lakestream.state.checkpoint.EpochLog;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
 * {@link StateOperatorProgress} its supplier gives at each report; the watermark from the sinks'
 * commit records, else from the stateful operators' input watermark. Construction rehearses a
 * report, so every class a report needs is loaded while the job runs: the runner's last reports may
 * come after Flink closed the finished job's class loader.
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

  private static final String REHEARSAL_COMMIT =
      "{\"sink\":\"sink\",\"description\":\"rehearsal\",\"numOutputRows\":1,"
          + "\"watermark\":\"2026-01-01T00:00:00Z\",\"committedAt\":\"2026-01-01T00:00:01Z\"}";
  private static final String REHEARSAL_OFFSETS =
      "{\"source\":\"SOURCE\",\"totalOffset\":1,\"offsets\":{\"p\":1},"
          + "\"endOffsets\":{\"p\":1},\"metrics\":{\"avgOffsetsBehindLatest\":0.5}}";

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
  private final Map<String, Long> lastTotals = new HashMap<>();
  private final Map<Long, Instant> firstSeen = new HashMap<>();
  private long lastEpoch;
  private Instant lastCommitAt;
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
    this.out = out;
    List<Long> reported = log.progressEpochs();
    // Epochs up to the restored snapshot belong to earlier runs, reported or not.
    lastEpoch = Math.max(restoredEpoch, reported.isEmpty() ? 0 : reported.get(reported.size() - 1));
    for (JsonNode source : log.readOffsets(lastEpoch).values()) {
      lastTotals.put(source.path("source").asText(), source.path("totalOffset").asLong());
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
      boolean complete = commits.size() >= sinkCount && offsets.size() >= sourceCount;
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
      if (log.readCommits(epoch).size() >= sinkCount
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
    ObjectNode p = render(epoch, commits, offsets, lastTotals, lastCommitAt, operators);
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
    Instant committedAt = newestCommit(commits);
    lastCommitAt = committedAt == null ? lastCommitAt : committedAt;
    if (progress.numInputRows() > 0 || progress.numOutputRows() > 0) {
      lastProgressAt = Instant.now();
      idleReported = false;
    }
    out.progress(progress);
  }

  /**
   * The report of {@code epoch}: input counted from each source's previous total in {@code totals}
   * (which it updates), duration from {@code previousCommitAt}.
   */
  private ObjectNode render(
      long epoch,
      Map<String, JsonNode> commits,
      Map<String, JsonNode> offsets,
      Map<String, Long> totals,
      Instant previousCommitAt,
      StateOperatorProgress operators) {
    ObjectNode p = MAPPER.createObjectNode();
    p.put("id", queryId);
    p.put("runId", runId);
    p.put("name", name);
    p.put("timestamp", Instant.now().toString());
    p.put("batchId", epoch);

    Instant committedAt = newestCommit(commits);
    String watermark = null;
    long outputRows = 0;
    ArrayNode sinks = MAPPER.createArrayNode();
    List<String> descriptions = new ArrayList<>();
    for (JsonNode commit : commits.values()) {
      outputRows += commit.path("numOutputRows").asLong();
      descriptions.add(commit.path("description").asText());
      sinks.add(commit);
      String wm = commit.path("watermark").isTextual() ? commit.path("watermark").asText() : null;
      if (wm != null && (watermark == null || wm.compareTo(watermark) < 0)) {
        watermark = wm;
      }
    }
    long durationMs =
        previousCommitAt == null || committedAt == null
            ? 0
            : Math.max(0, Duration.between(previousCommitAt, committedAt).toMillis());

    long inputRows = 0;
    ArrayNode sources = MAPPER.createArrayNode();
    for (JsonNode offset : offsets.values()) {
      String source = offset.path("source").asText();
      long total = offset.path("totalOffset").asLong();
      Long previous = totals.put(source, total);
      long rows = previous == null ? total : Math.max(0, total - previous);
      inputRows += rows;
      ObjectNode s = sources.addObject();
      s.put("description", source);
      s.put("startOffset", previous);
      s.set("endOffset", offset.path("offsets"));
      if (offset.has("endOffsets")) {
        s.set("latestOffset", offset.path("endOffsets"));
      }
      if (offset.has("metrics")) {
        s.set("metrics", offset.path("metrics")); // e.g. Kafka's avg/max/minOffsetsBehindLatest
      }
      s.put("numInputRows", rows);
      s.put("inputRowsPerSecond", rate(rows, durationMs));
      s.put("processedRowsPerSecond", rate(rows, durationMs));
    }
    p.put("numInputRows", inputRows);
    p.put("inputRowsPerSecond", rate(inputRows, durationMs));
    p.put("processedRowsPerSecond", rate(inputRows, durationMs));
    ObjectNode duration = p.putObject("durationMs");
    duration.put("triggerExecution", durationMs);
    if (watermark == null && operators.watermark().isPresent()) {
      watermark = Instant.ofEpochMilli(operators.watermark().getAsLong()).toString();
    }
    ObjectNode eventTime = p.putObject("eventTime");
    if (watermark != null) {
      eventTime.put("watermark", watermark);
    }
    p.set("stateOperators", operators.report(MAPPER, epoch));
    p.set("sources", sources);
    ObjectNode sink = p.putObject("sink");
    sink.put("description", String.join(", ", descriptions));
    sink.put("numOutputRows", outputRows);
    sink.set("sinks", sinks);
    return p;
  }

  /** The newest {@code committedAt} of the commit records, or null if there are none. */
  private static Instant newestCommit(Map<String, JsonNode> commits) {
    Instant newest = null;
    for (JsonNode commit : commits.values()) {
      Instant at = Instant.parse(commit.path("committedAt").asText());
      newest = newest == null || at.isAfter(newest) ? at : newest;
    }
    return newest;
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
    ObjectNode p = render(1, commits, offsets, totals, Instant.EPOCH, StateOperatorProgress.none());
    new QueryProgress(p).summary();
    p.toString();
    MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(p);
  }

  private static double rate(long rows, long millis) {
    return millis == 0 ? 0.0 : rows * 1000.0 / millis;
  }
}
