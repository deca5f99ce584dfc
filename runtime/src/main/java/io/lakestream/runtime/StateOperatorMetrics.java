package io.lakestream.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakestream.operators.state.StateMetrics;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.SecurityOptions;

/**
 * Reads the {@link StateMetrics} of a running job's stateful operators, and the input watermark of
 * their tasks, from the JobManager's REST API: {@code GET /jobs/:jobid} for the vertices, {@code
 * GET /jobs/:jobid/vertices/:vertexid/subtasks/metrics} for the metric names (operator metrics are
 * named {@code <operator>.stateOperator.<uid>.<metric>}) and {@code ...?get=...&agg=sum} for their
 * sum over subtasks. This works the same for an embedded MiniCluster (which serves the REST API
 * too) and for a cluster the client submitted to ({@code flink run}), since both put the REST
 * address in the job's configuration.
 *
 * <p>Values are those of the JobManager's metric store, refreshed from the task managers at most
 * every {@code metrics.fetcher.update-interval} (default 10 s; the embedded run uses 1 s), so they
 * trail the job by up to that interval. Fails with {@link IOException} when the REST API cannot be
 * reached or answers with an error (e.g. once the job is gone).
 */
final class StateOperatorMetrics implements StateOperatorProgress.Reader {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final List<String> VALUES =
      List.of(
          StateMetrics.NUM_ROWS_TOTAL,
          StateMetrics.NUM_ROWS_UPDATED,
          StateMetrics.NUM_ROWS_DROPPED_BY_WATERMARK,
          StateMetrics.MEMORY_USED_BYTES);
  private static final Pattern STATE_METRIC =
      Pattern.compile(
          "(?:^|\\.)"
              + Pattern.quote(StateMetrics.GROUP)
              + "\\.(.+)\\.("
              + String.join("|", VALUES)
              + "|"
              + StateMetrics.EPOCH
              + "|"
              + String.join("|", VALUES.stream().map(StateMetrics::epochName).toList())
              + ")$");

  /**
   * RocksDB's native metrics (enabled by {@code StateBackendSettings} for the RocksDB backend),
   * named {@code <operator>.<state name>.rocksdb_<property>}, by their name in {@code
   * customMetrics}: summed over the operator's states and subtasks. Flink refreshes them every 5 s
   * (they read 0 before the first refresh).
   */
  static final Map<String, String> ROCKSDB_METRICS =
      Map.of(
          "rocksdb_estimate-num-keys", "rocksdbEstimatedNumKeys",
          "rocksdb_total-sst-files-size", "rocksdbSstFileSize",
          "rocksdb_cur-size-all-mem-tables", "rocksdbMemTableBytes",
          "rocksdb_num-running-flushes", "rocksdbRunningFlushes",
          "rocksdb_num-running-compactions", "rocksdbRunningCompactions");

  private static final String STATE_GROUP = "." + StateMetrics.GROUP + ".";
  private static final String INPUT_WATERMARK = "currentInputWatermark";
  private static final int REDISCOVER_EVERY = 10;

  /** One stateful operator's metrics, summed over its subtasks. */
  record OperatorState(
      String uid,
      long numRowsTotal,
      long numRowsUpdated,
      long numRowsDroppedByWatermark,
      long memoryUsedBytes) {}

  /** An operator's values at the end of an epoch, when all its subtasks had passed that epoch. */
  record EpochState(long epoch, OperatorState values) {}

  /**
   * What one read found: operators by uid (current values and, where consistent, those at the end
   * of the latest epoch), the lowest input watermark of their tasks, and per uid the current
   * RocksDB metrics of operators on the RocksDB backend ({@link #ROCKSDB_METRICS}).
   */
  record Snapshot(
      Map<String, OperatorState> operators,
      Map<String, EpochState> epochs,
      OptionalLong watermark,
      Map<String, Map<String, Long>> customMetrics) {
    static final Snapshot EMPTY = new Snapshot(Map.of(), Map.of(), OptionalLong.empty(), Map.of());

    Snapshot(
        Map<String, OperatorState> operators,
        Map<String, EpochState> epochs,
        OptionalLong watermark) {
      this(operators, epochs, watermark, Map.of());
    }
  }

  private final HttpClient http;
  private final URI base;
  private final JobID job;
  private final Duration timeout;

  /** Metric names of each vertex with state metrics; vertices without any are left out. */
  private Map<String, List<String>> metricNames;

  /** The uid of each stateful operator by its name's prefix in metric names. */
  private final Map<String, String> operatorUids = new HashMap<>();

  private long reads;

  StateOperatorMetrics(URI base, JobID job, Duration timeout) {
    this.base = base;
    this.job = job;
    this.timeout = timeout;
    this.http = HttpClient.newBuilder().connectTimeout(timeout).build();
  }

  /**
   * The REST base URI of the cluster a job was submitted with {@code conf} (its {@code
   * rest.address}, falling back to {@code jobmanager.rpc.address}, and {@code rest.port}); empty if
   * there is no address, the port is 0 (random, as YARN's entry point leaves it unless {@code
   * -Drest.port} is given) or the REST API uses SSL (not supported here).
   */
  static Optional<URI> restAddress(ReadableConfig conf) {
    if (conf.get(SecurityOptions.SSL_REST_ENABLED)) {
      return Optional.empty();
    }
    int port = conf.get(RestOptions.PORT);
    return conf.getOptional(RestOptions.ADDRESS)
        .filter(a -> !a.isBlank() && port > 0) // 0: a random port the job is not told (YARN)
        .map(a -> URI.create("http://" + a + ":" + port));
  }

  /** Reads the current values. */
  @Override
  public Snapshot read() throws IOException, InterruptedException {
    // Operators register their metrics as their tasks start: look again now and then.
    if (metricNames == null || metricNames.isEmpty() || reads++ % REDISCOVER_EVERY == 0) {
      metricNames = discover();
    }
    // per uid: 4 current sums, 4 epoch-end sums, min epoch, max epoch
    Map<String, long[]> byUid = new TreeMap<>();
    Map<String, Map<String, Long>> custom = new TreeMap<>();
    long watermark = Long.MAX_VALUE;
    boolean anyWatermark = false;
    for (Map.Entry<String, List<String>> vertex : metricNames.entrySet()) {
      JsonNode values =
          get(subtaskMetrics(vertex.getKey()) + "?agg=sum,min,max&get=" + join(vertex.getValue()));
      for (JsonNode value : values) {
        String id = value.path("id").asText();
        if (id.equals(INPUT_WATERMARK)) {
          long min = value.path("min").asLong(Long.MIN_VALUE);
          if (min > Long.MIN_VALUE) {
            watermark = Math.min(watermark, min);
            anyWatermark = true;
          }
          continue;
        }
        Optional<String[]> rocksdb = rocksdbMetric(id);
        if (rocksdb.isPresent()) {
          custom
              .computeIfAbsent(rocksdb.get()[0], u -> new TreeMap<>())
              .merge(rocksdb.get()[1], Math.round(value.path("sum").asDouble()), Long::sum);
          continue;
        }
        Matcher m = STATE_METRIC.matcher(id);
        if (!m.find()) {
          continue;
        }
        long[] v =
            byUid.computeIfAbsent(
                m.group(1), u -> new long[] {0, 0, 0, 0, 0, 0, 0, 0, Long.MAX_VALUE, -1});
        long sum = Math.round(value.path("sum").asDouble());
        String metric = m.group(2);
        if (metric.equals(StateMetrics.EPOCH)) {
          v[8] = Math.min(v[8], Math.round(value.path("min").asDouble()));
          v[9] = Math.max(v[9], Math.round(value.path("max").asDouble()));
        } else if (VALUES.contains(metric)) {
          v[VALUES.indexOf(metric)] += sum;
        } else {
          for (int i = 0; i < VALUES.size(); i++) {
            if (metric.equals(StateMetrics.epochName(VALUES.get(i)))) {
              v[4 + i] += sum;
            }
          }
        }
      }
    }
    Map<String, OperatorState> operators = new TreeMap<>();
    Map<String, EpochState> epochs = new TreeMap<>();
    byUid.forEach(
        (uid, v) -> {
          operators.put(uid, new OperatorState(uid, v[0], v[1], v[2], v[3]));
          if (v[8] == v[9] && v[8] >= 0) {
            epochs.put(uid, new EpochState(v[8], new OperatorState(uid, v[4], v[5], v[6], v[7])));
          }
        });
    return new Snapshot(
        operators,
        epochs,
        anyWatermark ? OptionalLong.of(watermark) : OptionalLong.empty(),
        custom);
  }

  /**
   * The uid and {@code customMetrics} name of a RocksDB metric of a stateful operator whose
   * operator name prefixes it, or empty.
   */
  private Optional<String[]> rocksdbMetric(String id) {
    int property = id.lastIndexOf(".rocksdb_");
    String name = property < 0 ? null : ROCKSDB_METRICS.get(id.substring(property + 1));
    if (name == null) {
      return Optional.empty();
    }
    for (Map.Entry<String, String> operator : operatorUids.entrySet()) {
      if (id.startsWith(operator.getKey() + ".")) {
        return Optional.of(new String[] {operator.getValue(), name});
      }
    }
    return Optional.empty();
  }

  /** Finds the vertices that have state metrics and the names to ask for. */
  private Map<String, List<String>> discover() throws IOException, InterruptedException {
    Map<String, List<String>> found = new HashMap<>();
    for (JsonNode vertex : get("/jobs/" + job).path("vertices")) {
      String id = vertex.path("id").asText();
      List<String> names = new ArrayList<>();
      List<String> rocksdb = new ArrayList<>();
      for (JsonNode metric : get(subtaskMetrics(id))) {
        String name = metric.path("id").asText();
        if (STATE_METRIC.matcher(name).find()) {
          names.add(name);
          int group = name.indexOf(STATE_GROUP);
          if (group > 0) {
            String uid = name.substring(group + STATE_GROUP.length(), name.lastIndexOf('.'));
            operatorUids.put(name.substring(0, group), uid);
          }
        } else if (name.contains(".rocksdb_")) {
          rocksdb.add(name);
        }
      }
      if (!names.isEmpty()) {
        rocksdb.stream().filter(n -> rocksdbMetric(n).isPresent()).forEach(names::add);
      }
      if (!names.isEmpty()) {
        names.add(INPUT_WATERMARK);
        found.put(id, names);
      }
    }
    return found;
  }

  private String subtaskMetrics(String vertex) {
    return "/jobs/" + job + "/vertices/" + vertex + "/subtasks/metrics";
  }

  private static String join(List<String> names) {
    List<String> encoded = new ArrayList<>();
    for (String n : names) {
      encoded.add(URLEncoder.encode(n, StandardCharsets.UTF_8));
    }
    return String.join(",", encoded);
  }

  private JsonNode get(String path) throws IOException, InterruptedException {
    HttpRequest request = HttpRequest.newBuilder(base.resolve(path)).timeout(timeout).GET().build();
    HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw new IOException(
          "GET " + path + " answered " + response.statusCode() + ": " + response.body());
    }
    return MAPPER.readTree(response.body());
  }
}
