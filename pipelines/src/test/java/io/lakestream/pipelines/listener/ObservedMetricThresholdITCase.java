package io.lakestream.pipelines.listener;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.connectors.files.JsonLinesFileSink;
import io.lakestream.connectors.rate.source.RateSourceBuilder;
import io.lakestream.connectors.sink.CommitRecordListener;
import io.lakestream.operators.observe.Observe;
import io.lakestream.operators.observe.ObservedAggregate;
import io.lakestream.runtime.Dataflow;
import io.lakestream.runtime.StreamingQuery;
import io.lakestream.runtime.StreamingQueryBuilder;
import io.lakestream.runtime.StreamingQueryException;
import io.lakestream.runtime.Trigger;
import io.lakestream.state.checkpoint.CheckpointLocation;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A query whose rows turn bad from row 600 on (every tenth row "malformed" before, every second one
 * after), observed per epoch, with a listener failing it above a 20% malformed ratio: the query
 * stops with a savepoint at the first epoch past the threshold and ends failed, naming the metric,
 * the epoch and the value; epochs before it pass.
 */
class ObservedMetricThresholdITCase {
  @TempDir Path dir;

  private static boolean malformed(long row) {
    return row < 600 ? row % 10 == 0 : row % 2 == 0;
  }

  private Dataflow dataflow() {
    String out = dir.resolve("rows").toUri().toString();
    return (env, query) -> {
      var rows =
          env.fromSource(
                  RateSourceBuilder.rate("numbers", row -> row, Types.LONG)
                      .rows(100_000)
                      .numPartitions(1)
                      .maxRowsPerTrigger(200)
                      .query(query)
                      .build(),
                  WatermarkStrategy.noWatermarks(),
                  "numbers")
              .uid("numbers");
      Observe.observe(
              rows,
              query,
              "quality",
              ObservedAggregate.count("rows"),
              ObservedAggregate.countIf("malformed", ObservedMetricThresholdITCase::malformed),
              ObservedAggregate.ratio("malformedRatio", "malformed", "rows"))
          .map(String::valueOf)
          .returns(Types.STRING)
          .uid("format")
          .sinkTo(
              JsonLinesFileSink.create(
                  out, line -> line, new CommitRecordListener(query, "rows", "rows " + out)))
          .uid("rows");
    };
  }

  @Test
  void aMalformedRatioAboveTheThresholdStopsTheQueryAsFailedWithASavepoint() throws Exception {
    Path checkpoint = dir.resolve("checkpoint");
    StreamingQuery query =
        StreamingQueryBuilder.of(dataflow())
            .queryName("quality")
            .checkpointLocation(checkpoint.toString())
            .trigger(Trigger.processingTime(Duration.ofMillis(300)))
            .parallelism(1)
            .listener(ObservedMetricThreshold.parse("quality.malformedRatio>0.2"))
            .start();
    assertThatThrownBy(() -> query.awaitTermination(Duration.ofMinutes(2)))
        .isInstanceOf(StreamingQueryException.class)
        .hasMessageContaining("was stopped as failed")
        .hasMessageContaining("observedMetrics.quality.malformedRatio was 0.")
        .hasMessageContaining("above the threshold 0.2");
    assertThat(query.recentProgress())
        .filteredOn(p -> p.numInputRows() > 0)
        .anySatisfy(
            p ->
                assertThat(
                        p.json()
                            .path("observedMetrics")
                            .path("quality")
                            .path("malformedRatio")
                            .asDouble())
                    .isEqualTo(0.1));
    assertThat(new CheckpointLocation(checkpoint.toUri()).newestSnapshot())
        .as("stopped with a savepoint, so a fixed run resumes there")
        .isPresent();
  }

  @Test
  void theSpecIsParsedOrRefusedSayingItsShape() {
    assertThat(ObservedMetricThreshold.parse(" silver_quality.malformedRatio > 0.05 "))
        .hasToString("silver_quality.malformedRatio>0.05");
    assertThatThrownBy(() -> ObservedMetricThreshold.parse("malformedRatio>0.05"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("<observation>.<metric>><number>");
  }
}
