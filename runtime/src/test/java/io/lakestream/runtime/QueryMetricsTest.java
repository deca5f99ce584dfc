package io.lakestream.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.junit.jupiter.api.Test;

class QueryMetricsTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  /** Records gauges by their group path, e.g. {@code lakestream.query.orders.numInputRows}. */
  private static final class Recording extends UnregisteredMetricsGroup {
    private final String path;
    private final Map<String, Gauge<?>> gauges;

    Recording(String path, Map<String, Gauge<?>> gauges) {
      this.path = path;
      this.gauges = gauges;
    }

    @Override
    public MetricGroup addGroup(String name) {
      return new Recording(path.isEmpty() ? name : path + "." + name, gauges);
    }

    @Override
    public MetricGroup addGroup(String key, String value) {
      return addGroup(key).addGroup(value);
    }

    @Override
    public <T, G extends Gauge<T>> G gauge(String name, G gauge) {
      assertThat(gauges.put(path + "." + name, gauge)).as("registered once: " + name).isNull();
      return gauge;
    }
  }

  private static QueryProgress progress(String json) throws Exception {
    return new QueryProgress(MAPPER.readTree(json.replace('\'', '"')));
  }

  @Test
  void gaugesShowTheLatestEpochAndNaNForWhatItLeftOut() throws Exception {
    Map<String, Gauge<?>> gauges = new TreeMap<>();
    QueryMetrics metrics = new QueryMetrics(new Recording("", gauges), "orders");
    metrics.progress(
        progress(
            "{'batchId':4,'numInputRows':150,'inputRowsPerSecond':300.0,"
                + "'durationMs':{'addBatch':500,'triggerExecution':700},"
                + "'eventTime':{'watermark':'2026-01-01T00:00:02Z'},"
                + "'sources':[{'description':'kafka','numInputRows':150,"
                + "'metrics':{'maxOffsetsBehindLatest':12}}],"
                + "'stateOperators':[{'operatorName':'dedup','numRowsTotal':9}],"
                + "'observedMetrics':{'quality':{'rows':150,'bad':3}},"
                + "'sink':{'numOutputRows':149}}"));
    String q = "lakestream.query.orders.";
    assertThat(value(gauges, q + "batchId")).isEqualTo(4.0);
    assertThat(value(gauges, q + "numInputRows")).isEqualTo(150.0);
    assertThat(value(gauges, q + "inputRowsPerSecond")).isEqualTo(300.0);
    assertThat(value(gauges, q + "processedRowsPerSecond")).isNaN();
    assertThat(value(gauges, q + "durationMs_addBatch")).isEqualTo(500.0);
    assertThat(value(gauges, q + "sink_numOutputRows")).isEqualTo(149.0);
    assertThat(value(gauges, q + "eventTime_watermark"))
        .isEqualTo((double) Instant.parse("2026-01-01T00:00:02Z").toEpochMilli());
    assertThat(value(gauges, q + "source.kafka.numInputRows")).isEqualTo(150.0);
    assertThat(value(gauges, q + "source.kafka.maxOffsetsBehindLatest")).isEqualTo(12.0);
    assertThat(value(gauges, q + "operator.dedup.numRowsTotal")).isEqualTo(9.0);
    assertThat(value(gauges, q + "observation.quality.bad")).isEqualTo(3.0);

    // the next epoch: same gauges, new values; a field it lacks reads NaN
    metrics.progress(
        progress(
            "{'batchId':5,'numInputRows':0,'durationMs':{'addBatch':400},"
                + "'sources':[{'description':'kafka','numInputRows':0}],'sink':{}}"));
    assertThat(value(gauges, q + "batchId")).isEqualTo(5.0);
    assertThat(value(gauges, q + "durationMs_triggerExecution")).isNaN();
    assertThat(value(gauges, q + "source.kafka.maxOffsetsBehindLatest")).isNaN();
    assertThat(value(gauges, q + "observation.quality.bad")).isNaN();
    assertThat(value(gauges, q + "eventTime_watermark")).isNaN();
  }

  private static double value(Map<String, Gauge<?>> gauges, String name) {
    assertThat(gauges).containsKey(name);
    return ((Number) gauges.get(name).getValue()).doubleValue();
  }
}
