package io.lakestream.operators.join;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.operators.TestEvent;
import io.lakestream.operators.row.KeyColumns;
import io.lakestream.operators.state.StateMetrics;
import io.lakestream.operators.watermark.Watermarks;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
 * A left outer join of impressions with clicks in a real Flink job on a MiniCluster, parallelism 2,
 * generic (Kryo) types disabled: impressionTime BETWEEN clickTime - 20 s AND clickTime. Every third
 * impression gets a click 0-30 s after it (so some clicks are too late to match); the output must
 * equal the batch result (pairs, and every other impression once with a null click), and the join's
 * state metrics must show every row buffered once and none left at the end.
 */
class StreamJoinJobITCase {
  private static final InMemoryReporter REPORTER = InMemoryReporter.createWithRetainedMetrics();

  @RegisterExtension
  static final MiniClusterExtension CLUSTER =
      new MiniClusterExtension(
          new MiniClusterResourceConfiguration.Builder()
              .setNumberTaskManagers(1)
              .setNumberSlotsPerTaskManager(2)
              .setConfiguration(REPORTER.addToConfiguration(new Configuration()))
              .build());

  private static final long IMPRESSIONS = 6_000;

  private static TestEvent impression(long n) {
    return new TestEvent("imp-" + n, n * 100, (double) n);
  }

  /** The click of impression n (n % 3 == 0), (n % 7) * 5 s after it. */
  private static TestEvent click(long n) {
    return new TestEvent("imp-" + n, n * 100 + (n % 7) * 5_000, (double) n);
  }

  @Test
  void leftOuterJoinEqualsTheBatchResultAndLeavesNoState() throws Exception {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(2);
    env.getConfig().disableGenericTypes();
    env.getConfig().setAutoWatermarkInterval(20);

    DataStream<TestEvent> impressions =
        Watermarks.withWatermark(
            env.fromSource(
                    new NumberSequenceSource(0, IMPRESSIONS - 1),
                    WatermarkStrategy.noWatermarks(),
                    "impressions")
                .map(StreamJoinJobITCase::impression)
                .returns(TestEvent.class),
            e -> e.ts,
            Duration.ofMinutes(1),
            "impressions-watermark");
    DataStream<TestEvent> clicks =
        Watermarks.withWatermark(
            env.fromSource(
                    new NumberSequenceSource(0, IMPRESSIONS - 1),
                    WatermarkStrategy.noWatermarks(),
                    "clicks")
                .filter(n -> n % 3 == 0)
                .map(StreamJoinJobITCase::click)
                .returns(TestEvent.class),
            e -> e.ts,
            Duration.ofMinutes(1),
            "clicks-watermark");
    KeyColumns<TestEvent> id = KeyColumns.of("impression_id", (TestEvent e) -> e.key);
    DataStream<JoinedRow<TestEvent, TestEvent>> joined =
        StreamJoinBuilder.join(impressions, clicks)
            .on(id, id)
            .leftTimeBetween(Duration.ofSeconds(20), Duration.ZERO)
            .joinType(JoinType.LEFT_OUTER)
            .uid("impressions-clicks")
            .build();

    List<JoinedRow<TestEvent, TestEvent>> results = new ArrayList<>();
    JobID job;
    try (CloseableIterator<JoinedRow<TestEvent, TestEvent>> it = joined.collectAsync()) {
      JobClient client = env.executeAsync("join");
      job = client.getJobID();
      it.forEachRemaining(results::add);
      client.getJobExecutionResult().get();
    }

    List<JoinedRow<TestEvent, TestEvent>> expected = new ArrayList<>();
    for (long n = 0; n < IMPRESSIONS; n++) {
      boolean matches = n % 3 == 0 && (n % 7) * 5_000 <= 20_000;
      expected.add(new JoinedRow<>(impression(n), matches ? click(n) : null));
    }
    assertThat(results).containsExactlyInAnyOrderElementsOf(expected);

    long clickCount = (IMPRESSIONS + 2) / 3;
    assertThat(sum(job, StateMetrics.NUM_ROWS_UPDATED)).isEqualTo(IMPRESSIONS + clickCount);
    assertThat(sum(job, StateMetrics.NUM_ROWS_DROPPED_BY_WATERMARK)).isZero();
    assertThat(sum(job, StateMetrics.NUM_ROWS_TOTAL)).isZero();
    assertThat(sum(job, StateMetrics.MEMORY_USED_BYTES)).isZero();
  }

  /** Sums a metric of the join over its subtasks. */
  private static long sum(JobID job, String name) {
    long total = 0;
    int found = 0;
    for (Map.Entry<MetricGroup, Map<String, Metric>> e : REPORTER.getMetricsByGroup().entrySet()) {
      Map<String, String> variables = e.getKey().getAllVariables();
      if (!job.toString().equals(variables.get("<job_id>"))
          || !"impressions-clicks".equals(variables.get("<" + StateMetrics.GROUP + ">"))) {
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
    assertThat(found).as("subtasks reporting %s", name).isEqualTo(2);
    return total;
  }
}
