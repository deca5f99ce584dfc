package io.lakestream.bench.dedup;

import io.lakestream.operators.state.StateMetrics;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricConfig;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.reporter.MetricReporter;
import org.apache.flink.metrics.reporter.MetricReporterFactory;

/**
 * A Flink metric reporter that keeps references to the metrics the dedup-state bench samples, so
 * the bench reads the live values of a job on an embedded MiniCluster (same JVM) without the REST
 * API's refresh delay: the {@link StateMetrics} of every stateful operator subtask, the operator
 * {@code numRecordsIn} counters, RocksDB's native size gauges, and Auto Loader's ledger gauges
 * (read by the autoloader-discovery bench). Configure it with {@code
 * metrics.reporter.<name>.factory.class} = {@link Factory}; the values are summed over subtasks by
 * {@link #sum(String)}. One MiniCluster at a time: {@link #reset()} before each.
 */
public final class CapturingReporter implements MetricReporter {
  /** RocksDB native metric names (as Flink registers them), enabled by the bench's config. */
  public static final String ROCKSDB_LIVE = "rocksdb.estimate-live-data-size";

  public static final String ROCKSDB_MEMTABLES = "rocksdb.size-all-mem-tables";
  public static final String ROCKSDB_KEYS = "rocksdb.estimate-num-keys";

  /** The operator-level {@code numRecordsIn} of the stateful operator (dedup or window). */
  public static final String STATEFUL_RECORDS_IN = "statefulOperator.numRecordsIn";

  /** Auto Loader's file ledger: its entries and the entries evicted (cloudFiles.maxFileAge). */
  public static final String LEDGER_ENTRIES = "numLedgerEntries";

  public static final String LEDGER_EVICTED = "numLedgerEntriesEvicted";

  /** The input watermark of the stateful operator's subtasks (take the minimum). */
  public static final String STATEFUL_WATERMARK = "statefulOperator.currentInputWatermark";

  private static final String STATE_OPERATOR = "<" + StateMetrics.GROUP + ">";
  private static final Map<String, Map<String, Metric>> METRICS = new ConcurrentHashMap<>();

  /** Forgets the metrics of an earlier cluster. */
  public static void reset() {
    METRICS.clear();
  }

  /**
   * Sum over all captured metrics named {@code name} (gauges of numbers and counters); 0 if none is
   * registered (yet).
   */
  public static long sum(String name) {
    long total = 0;
    for (Metric m : METRICS.getOrDefault(name, Map.of()).values()) {
      if (m instanceof Counter c) {
        total += c.getCount();
      } else if (m instanceof Gauge<?> g && g.getValue() instanceof Number n) {
        total += n.longValue();
      }
    }
    return total;
  }

  /** How many subtasks registered {@code name}. */
  public static int count(String name) {
    return METRICS.getOrDefault(name, Map.of()).size();
  }

  @Override
  public void open(MetricConfig config) {}

  @Override
  public void close() {}

  @Override
  public void notifyOfAddedMetric(Metric metric, String name, MetricGroup group) {
    String key = null;
    Map<String, String> vars = group.getAllVariables();
    if (vars.containsKey(STATE_OPERATOR)) {
      key = name; // numRowsTotal, memoryUsedBytes, numDuplicatesDropped, ...
    } else if (name.startsWith("rocksdb.")
        || name.equals(LEDGER_ENTRIES)
        || name.equals(LEDGER_EVICTED)) {
      key = name;
    } else if (name.equals("numRecordsIn") && vars.containsKey("<operator_id>")) {
      String operator = vars.getOrDefault("<operator_name>", "");
      if (isStateful(operator)) {
        key = STATEFUL_RECORDS_IN;
      }
    } else if (name.equals("currentInputWatermark") && vars.containsKey("<operator_id>")) {
      if (isStateful(vars.getOrDefault("<operator_name>", ""))) {
        key = STATEFUL_WATERMARK;
      }
    }
    if (key != null) {
      METRICS
          .computeIfAbsent(key, k -> new ConcurrentHashMap<>())
          .put(group.getMetricIdentifier(name), metric);
    }
  }

  private static boolean isStateful(String operatorName) {
    return operatorName.startsWith("dropDuplicates") || operatorName.startsWith("window(");
  }

  /** The lowest value of the gauges named {@code name}, or empty if none is registered (yet). */
  public static java.util.OptionalLong min(String name) {
    return extreme(name, Math::min);
  }

  /** The highest value of the gauges named {@code name}, or empty if none is registered (yet). */
  public static java.util.OptionalLong max(String name) {
    return extreme(name, Math::max);
  }

  private static java.util.OptionalLong extreme(
      String name, java.util.function.LongBinaryOperator pick) {
    java.util.OptionalLong found = java.util.OptionalLong.empty();
    for (Metric m : METRICS.getOrDefault(name, Map.of()).values()) {
      if (m instanceof Gauge<?> g && g.getValue() instanceof Number n) {
        long v = n.longValue();
        found =
            java.util.OptionalLong.of(
                found.isPresent() ? pick.applyAsLong(found.getAsLong(), v) : v);
      }
    }
    return found;
  }

  @Override
  public void notifyOfRemovedMetric(Metric metric, String name, MetricGroup group) {}

  /** Creates the reporter; found by Flink through {@code META-INF/services}. */
  public static final class Factory implements MetricReporterFactory {
    @Override
    public MetricReporter createMetricReporter(Properties properties) {
      return new CapturingReporter();
    }
  }
}
