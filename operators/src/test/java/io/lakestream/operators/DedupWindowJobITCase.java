package io.lakestream.operators;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.operators.dedup.DeduplicationBuilder;
import io.lakestream.operators.row.KeyColumns;
import io.lakestream.operators.state.StateMetrics;
import io.lakestream.operators.watermark.Watermarks;
import io.lakestream.operators.window.WindowAggregate;
import io.lakestream.operators.window.WindowAggregationBuilder;
import io.lakestream.operators.window.WindowSpec;
import io.lakestream.state.query.OutputMode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.lib.NumberSequenceSource;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The operators in a real Flink job on a MiniCluster, parallelism 2, with generic (Kryo) types
 * disabled: withWatermark -> dropDuplicatesWithinWatermark -> 5-second tumbling count per ad in
 * append mode. Every click is sent twice; the result must equal a batch computation over the unique
 * clicks, and the state metrics must be visible to a metric reporter under {@code
 * stateOperator.<uid>}.
 */
class DedupWindowJobITCase {
  private static final InMemoryReporter REPORTER = InMemoryReporter.createWithRetainedMetrics();

  @RegisterExtension
  static final MiniClusterExtension CLUSTER =
      new MiniClusterExtension(
          new MiniClusterResourceConfiguration.Builder()
              .setNumberTaskManagers(1)
              .setNumberSlotsPerTaskManager(2)
              .setConfiguration(REPORTER.addToConfiguration(new Configuration()))
              .build());

  private static final long EVENTS = 10_000;
  private static final int ADS = 5;

  /** Event n: click n/2 (so every click comes twice), ad n % ADS, event time n * 100 ms. */
  private static TestEvent click(long n) {
    return new TestEvent("click-" + n / 2, n * 100, (double) (n % ADS));
  }

  @Test
  void duplicatesAreDroppedAndAppendCountsEqualTheBatchResult() throws Exception {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(2);
    env.getConfig().disableGenericTypes();
    env.getConfig().setAutoWatermarkInterval(20);

    DataStream<TestEvent> clicks =
        env.fromSource(
                new NumberSequenceSource(0, EVENTS - 1), WatermarkStrategy.noWatermarks(), "clicks")
            .map(DedupWindowJobITCase::click)
            .returns(TestEvent.class);
    DataStream<TestEvent> marked =
        Watermarks.withWatermark(clicks, e -> e.ts, Duration.ofSeconds(10), "clicks-watermark");
    DataStream<TestEvent> unique =
        DeduplicationBuilder.dropDuplicatesWithinWatermark(
                marked, KeyColumns.of("click_id", (TestEvent e) -> e.key))
            .uid("dedup-clicks")
            .build();
    DataStream<WindowAggregate> counts =
        WindowAggregationBuilder.window(unique, WindowSpec.tumbling("5 seconds"))
            .groupBy(KeyColumns.of("ad_id", (TestEvent e) -> "ad-" + e.value.longValue()))
            .outputMode(OutputMode.APPEND)
            .uid("clicks-per-ad")
            .build();

    List<WindowAggregate> results = new ArrayList<>();
    JobID job;
    try (CloseableIterator<WindowAggregate> it = counts.collectAsync()) {
      JobClient client = env.executeAsync("dedup-window");
      job = client.getJobID();
      it.forEachRemaining(results::add);
      client.getJobExecutionResult().get();
    }

    Map<String, Long> expected = new TreeMap<>();
    for (long n = 0; n < EVENTS; n += 2) { // the first of each pair is the one that passes
      TestEvent e = click(n);
      expected.merge("ad-" + e.value.longValue() + "@" + e.ts / 5_000 * 5_000, 1L, Long::sum);
    }
    Map<String, Long> actual = new TreeMap<>();
    for (WindowAggregate a : results) {
      assertThat(a.windowEndMicros - a.windowStartMicros).isEqualTo(5_000_000);
      Long previous = actual.put(a.key.get(0) + "@" + a.windowStartMicros / 1_000, a.count);
      assertThat(previous).as("window emitted twice: %s", a).isNull();
    }
    assertThat(actual).isEqualTo(expected);

    assertThat(sum(job, "dedup-clicks", StateMetrics.NUM_ROWS_UPDATED)).isEqualTo(EVENTS / 2);
    assertThat(sum(job, "dedup-clicks", "numDuplicatesDropped")).isEqualTo(EVENTS / 2);
    assertThat(sum(job, "dedup-clicks", StateMetrics.NUM_ROWS_DROPPED_BY_WATERMARK)).isZero();
    assertThat(sum(job, "dedup-clicks", StateMetrics.NUM_ROWS_TOTAL)).isZero(); // all expired
    assertThat(sum(job, "clicks-per-ad", StateMetrics.NUM_ROWS_UPDATED)).isEqualTo(EVENTS / 2);
    assertThat(sum(job, "clicks-per-ad", StateMetrics.NUM_ROWS_TOTAL)).isZero();
    assertThat(sum(job, "clicks-per-ad", StateMetrics.MEMORY_USED_BYTES)).isZero();
  }

  /** Sums a metric of the operator with this uid over its subtasks. */
  private static long sum(JobID job, String uid, String name) {
    long total = 0;
    int found = 0;
    for (Map.Entry<MetricGroup, Map<String, Metric>> e : REPORTER.getMetricsByGroup().entrySet()) {
      Map<String, String> variables = e.getKey().getAllVariables();
      if (!job.toString().equals(variables.get("<job_id>"))
          || !uid.equals(variables.get("<" + StateMetrics.GROUP + ">"))) {
        continue;
      }
      Metric m = e.getValue().get(name);
      if (m != null) {
        found++;
        total +=
            m instanceof Counter
                ? ((Counter) m).getCount()
                : ((Number) ((Gauge<?>) m).getValue()).longValue();
      }
    }
    assertThat(found).as("subtasks of %s reporting %s", uid, name).isEqualTo(2);
    return total;
  }
}
