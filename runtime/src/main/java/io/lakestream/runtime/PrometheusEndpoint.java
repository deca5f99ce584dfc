package io.lakestream.runtime;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.flink.metrics.CharacterFilter;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.LogicalScopeProvider;
import org.apache.flink.metrics.Meter;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricConfig;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.reporter.MetricReporter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded run's {@code /metrics} in Prometheus' text format, served on 127.0.0.1 (port {@code
 * metrics.reporter.lakestream.port}, default any free one; the URL is logged by {@code
 * io.lakestream.progress.urls} when the reporter opens). It exports every metric of the run, the
 * query's progress ({@link QueryMetrics}) and Flink's own, as Flink's Prometheus reporter names
 * them: {@code flink_<logical scope>_<name>} with the scope's variables as labels. Gauges with a
 * number or boolean value, counters and meters (their rate) are exported, all as gauges; histograms
 * are not. On clusters, use Flink's {@code PrometheusReporter} instead, which exports the same
 * metrics with the same names.
 *
 * <p>Thread-safe: Flink adds and removes metrics from its threads, the HTTP server reads them from
 * its own.
 */
final class PrometheusEndpoint implements MetricReporter {
  private static final Logger LOG = LoggerFactory.getLogger("io.lakestream.progress.urls");
  private static final CharacterFilter NAME = s -> s.replaceAll("[^a-zA-Z0-9_:]", "_");

  /** The URLs of the endpoints open in this JVM (embedded runs), oldest first. */
  static final List<String> OPEN = new CopyOnWriteArrayList<>();

  private final Map<Metric, Exported> metrics = new ConcurrentHashMap<>();
  private HttpServer server;
  private ExecutorService executor;

  /** A metric's Prometheus name and label text ({@code {k="v",...}}). */
  private record Exported(String name, String labels) {}

  @Override
  public void open(MetricConfig config) {
    int port = config.getInteger("port", 0);
    try {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
    } catch (IOException e) {
      throw new IllegalStateException(
          "Cannot serve Prometheus metrics on 127.0.0.1:"
              + port
              + " ("
              + e.getMessage()
              + "): set metrics.reporter.lakestream.port to a free port, or 0 for any",
          e);
    }
    executor =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, "lakestream-prometheus");
              t.setDaemon(true);
              return t;
            });
    server.setExecutor(executor);
    server.createContext("/metrics", this::serve);
    server.start();
    OPEN.add(url());
    LOG.info("Prometheus metrics of this run: {}", url());
  }

  /** Where the metrics are served: {@code http://127.0.0.1:<port>/metrics}. */
  String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/metrics";
  }

  @Override
  public void close() {
    if (server != null) {
      OPEN.remove(url());
      server.stop(0);
      executor.shutdownNow();
    }
  }

  @Override
  public void notifyOfAddedMetric(Metric metric, String metricName, MetricGroup group) {
    String scope = LogicalScopeProvider.castFrom(group).getLogicalScope(NAME, '_');
    StringBuilder labels = new StringBuilder();
    for (Map.Entry<String, String> v : new TreeMap<>(group.getAllVariables()).entrySet()) {
      labels.append(labels.length() == 0 ? "{" : ",");
      labels.append(NAME.filterCharacters(v.getKey().replaceAll("[<>]", "")));
      labels.append("=\"").append(escape(v.getValue())).append('"');
    }
    labels.append(labels.length() == 0 ? "" : "}");
    String name = "flink_" + scope + "_" + NAME.filterCharacters(metricName);
    metrics.put(metric, new Exported(name, labels.toString()));
  }

  @Override
  public void notifyOfRemovedMetric(Metric metric, String metricName, MetricGroup group) {
    metrics.remove(metric);
  }

  private void serve(HttpExchange exchange) throws IOException {
    byte[] body = render().getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
    exchange.sendResponseHeaders(200, body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }

  /** The text format: per name one {@code # TYPE} line, then its series. */
  String render() {
    Map<String, StringBuilder> byName = new TreeMap<>();
    metrics.forEach(
        (metric, exported) -> {
          Double value = value(metric);
          if (value != null) {
            byName
                .computeIfAbsent(exported.name(), n -> new StringBuilder())
                .append(exported.name())
                .append(exported.labels())
                .append(' ')
                .append(format(value))
                .append('\n');
          }
        });
    StringBuilder out = new StringBuilder();
    byName.forEach(
        (name, series) -> out.append("# TYPE ").append(name).append(" gauge\n").append(series));
    return out.toString();
  }

  /** A metric's current value, or null if it is not exported (a histogram, a text gauge). */
  private static Double value(Metric metric) {
    if (metric instanceof Gauge<?> gauge) {
      Object v;
      try {
        v = gauge.getValue();
      } catch (RuntimeException e) {
        return null; // a gauge of a closing component
      }
      if (v instanceof Number n) {
        return n.doubleValue();
      }
      if (v instanceof Boolean b) {
        return b ? 1.0 : 0.0;
      }
      return null;
    }
    if (metric instanceof Counter counter) {
      return (double) counter.getCount();
    }
    if (metric instanceof Meter meter) {
      return meter.getRate();
    }
    return null;
  }

  private static String format(double value) {
    if (Double.isNaN(value)) {
      return "NaN";
    }
    if (Double.isInfinite(value)) {
      return value > 0 ? "+Inf" : "-Inf";
    }
    return value == Math.rint(value) && Math.abs(value) < 1e15
        ? String.valueOf((long) value)
        : String.valueOf(value);
  }

  private static String escape(String value) {
    return value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
  }
}
