package io.lakestream.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;

/**
 * The query's latest progress as Flink metrics of the job, registered by the in-job runner on its
 * JobManager metric group under {@code lakestream.query.<query name>} and exported by whatever
 * reporter the cluster runs (Prometheus: {@code
 * flink_jobmanager_job_operator_coordinator_enumerator_
 * lakestream_query_<metric>{query="<name>",...}}). Gauges, each the value of the latest reported
 * epoch: {@code batchId, batchDuration, numInputRows, inputRowsPerSecond, processedRowsPerSecond},
 * {@code durationMs_<phase>}, {@code eventTime_watermark} (epoch milliseconds), {@code
 * sink_numOutputRows}; per source ({@code source} label) {@code numInputRows}, the rates and its
 * numeric {@code metrics}; per stateful operator ({@code operator} label) its numeric fields; per
 * observation ({@code observation} label) each aggregate. A field the latest epoch left out reads
 * NaN. A gauge is registered when its field first appears.
 *
 * <p>Thread-safe: the runner updates it on one thread, reporters read it on theirs.
 */
final class QueryMetrics implements ProgressTracker.Sink {
  private static final String[] TOP = {
    "batchId", "batchDuration", "numInputRows", "inputRowsPerSecond", "processedRowsPerSecond"
  };
  private static final String[] PER_SOURCE = {
    "numInputRows", "inputRowsPerSecond", "processedRowsPerSecond"
  };

  private final MetricGroup query;
  private final Set<String> registered = new HashSet<>();
  private volatile JsonNode latest = MissingNode.getInstance();

  QueryMetrics(MetricGroup runner, String queryName) {
    this.query = runner.addGroup("lakestream").addGroup("query", queryName);
  }

  /**
   * Registers the gauges of a made-up report on a group no reporter sees, so every class a report
   * needs is loaded while the job runs (see {@link ProgressTracker}: the last reports may come
   * after Flink closed the job's class loader).
   */
  static void rehearse() {
    ObjectNode p = new ObjectMapper().createObjectNode();
    p.put("batchId", 1);
    p.putObject("durationMs").put("addBatch", 1);
    p.putObject("sink").put("numOutputRows", 1);
    p.putObject("eventTime").put("watermark", "2026-01-01T00:00:00Z");
    ObjectNode source = p.putArray("sources").addObject().put("description", "s");
    source.put("numInputRows", 1).putObject("metrics").put("m", 1);
    p.putArray("stateOperators").addObject().put("operatorName", "o").put("numRowsTotal", 1);
    p.putObject("observedMetrics").putObject("o").put("c", 1);
    QueryMetrics metrics = new QueryMetrics(new UnregisteredMetricsGroup(), "rehearsal");
    metrics.progress(new QueryProgress(p));
    metrics.idle();
    watermark(p);
    find(p.path("sources"), "description", "s");
  }

  @Override
  public void progress(QueryProgress progress) {
    JsonNode p = progress.json();
    latest = p;
    for (String field : TOP) {
      numeric(query, field, field, j -> j.path(field));
    }
    fields(p.path("durationMs"), "durationMs_", query, "durationMs", j -> j.path("durationMs"));
    numeric(query, "sink_numOutputRows", "sink", j -> j.path("sink").path("numOutputRows"));
    gauge(query, "eventTime_watermark", "watermark", QueryMetrics::watermark);
    for (JsonNode source : p.path("sources")) {
      String name = source.path("description").asText();
      MetricGroup group = query.addGroup("source", name);
      Function<JsonNode, JsonNode> find = j -> find(j.path("sources"), "description", name);
      for (String field : PER_SOURCE) {
        numeric(group, field, "source:" + name + ":" + field, j -> find.apply(j).path(field));
      }
      fields(
          source.path("metrics"), "", group, "source:" + name, j -> find.apply(j).path("metrics"));
    }
    for (JsonNode operator : p.path("stateOperators")) {
      String name = operator.path("operatorName").asText();
      MetricGroup group = query.addGroup("operator", name);
      fields(
          operator,
          "",
          group,
          "operator:" + name,
          j -> find(j.path("stateOperators"), "operatorName", name));
    }
    for (Iterator<String> it = p.path("observedMetrics").fieldNames(); it.hasNext(); ) {
      String name = it.next();
      MetricGroup group = query.addGroup("observation", name);
      fields(
          p.path("observedMetrics").path(name),
          "",
          group,
          "observation:" + name,
          j -> j.path("observedMetrics").path(name));
    }
  }

  @Override
  public void idle() {}

  /** A gauge per numeric field of {@code node}, read through {@code path} from the latest. */
  private void fields(
      JsonNode node,
      String prefix,
      MetricGroup group,
      String keyPrefix,
      Function<JsonNode, JsonNode> path) {
    for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> field = it.next();
      if (field.getValue().isNumber()) {
        String name = field.getKey();
        String key = keyPrefix + ":" + prefix + name;
        numeric(group, prefix + name, key, j -> path.apply(j).path(name));
      }
    }
  }

  private void numeric(
      MetricGroup group, String name, String key, Function<JsonNode, JsonNode> field) {
    gauge(
        group, name, key, j -> field.apply(j).isNumber() ? field.apply(j).asDouble() : Double.NaN);
  }

  private void gauge(MetricGroup group, String name, String key, Function<JsonNode, Double> value) {
    if (registered.add(key)) {
      group.gauge(name, (Gauge<Double>) () -> value.apply(latest));
    }
  }

  private static JsonNode find(JsonNode array, String field, String value) {
    for (JsonNode element : array) {
      if (element.path(field).asText().equals(value)) {
        return element;
      }
    }
    return MissingNode.getInstance();
  }

  private static double watermark(JsonNode progress) {
    JsonNode wm = progress.path("eventTime").path("watermark");
    return wm.isTextual() ? Instant.parse(wm.asText()).toEpochMilli() : Double.NaN;
  }
}
