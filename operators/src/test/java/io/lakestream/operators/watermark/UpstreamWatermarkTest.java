package io.lakestream.operators.watermark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.lib.NumberSequenceSource;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.junit.jupiter.api.Test;

class UpstreamWatermarkTest {
  private final StreamExecutionEnvironment env =
      StreamExecutionEnvironment.getExecutionEnvironment();

  /** A source without watermarks (env.fromData uses a monotonous-timestamps strategy). */
  private DataStream<Long> plainSource() {
    return env.fromSource(
        new NumberSequenceSource(1, 10), WatermarkStrategy.noWatermarks(), "numbers");
  }

  @Test
  void aStreamWithoutAssignerHasNoWatermarkAndTheErrorSaysWhatToAdd() {
    DataStream<Long> plain = plainSource().map(x -> x + 1);
    assertThat(UpstreamWatermark.of(plain).present()).isFalse();
    assertThatThrownBy(() -> UpstreamWatermark.of(plain).require("dropDuplicatesWithinWatermark"))
        .isInstanceOf(MissingWatermarkException.class)
        .hasMessageStartingWith(
            "[MISSING_WATERMARK] dropDuplicatesWithinWatermark is not supported on streams without a watermark")
        .hasMessageContaining("Watermarks.withWatermark(stream, eventTime, delay, uid)");
  }

  @Test
  void withWatermarkRunsInTheTaskOfTheOperatorBeforeIt() {
    Watermarks.withWatermark(
            plainSource().map(x -> x + 1).uid("parse"), x -> x, Duration.ofSeconds(1), "wm")
        .sinkTo(new DiscardingSink<>())
        .disableChaining();
    var vertices = env.getStreamGraph().getJobGraph().getVerticesSortedTopologicallyFromSources();
    assertThat(vertices).hasSize(2);
    assertThat(vertices.get(0).getName()).contains("numbers").contains("withWatermark");
  }

  @Test
  void withWatermarkIsFoundThroughLaterOperatorsWithItsDelay() {
    DataStream<Long> marked =
        Watermarks.withWatermark(env.fromData(1L, 2L), x -> x, Duration.ofSeconds(10), "wm")
            .map(x -> x * 2)
            .filter(x -> x > 0);
    UpstreamWatermark upstream = UpstreamWatermark.of(marked);
    assertThat(upstream.present()).isTrue();
    assertThat(upstream.delayMillis()).contains(10_000L);
  }

  @Test
  void flinkWatermarkStrategiesCountButHaveNoKnownDelay() {
    DataStream<Long> marked =
        env.fromData(1L, 2L)
            .assignTimestampsAndWatermarks(
                WatermarkStrategy.<Long>forBoundedOutOfOrderness(Duration.ofSeconds(1))
                    .withTimestampAssigner((x, ts) -> x));
    assertThat(UpstreamWatermark.of(marked).present()).isTrue();
    assertThat(UpstreamWatermark.of(marked).delayMillis()).isEmpty();
  }

  @Test
  void aUnionNeedsAWatermarkOnEveryInputUnderMinButOneSufficesUnderMax() {
    DataStream<Long> marked =
        Watermarks.withWatermark(env.fromData(1L), x -> x, Duration.ofSeconds(1), "wm-a");
    DataStream<Long> plain = plainSource();
    assertThat(UpstreamWatermark.of(marked.union(plain)).present()).isFalse();
    assertThat(
            UpstreamWatermark.of(Watermarks.union(marked, plain, MultipleWatermarkPolicy.MIN, "u1"))
                .present())
        .isFalse();
    assertThat(
            UpstreamWatermark.of(Watermarks.union(marked, plain, MultipleWatermarkPolicy.MAX, "u2"))
                .present())
        .isTrue();
    DataStream<Long> other =
        Watermarks.withWatermark(env.fromData(3L), x -> x, Duration.ofSeconds(5), "wm-b");
    UpstreamWatermark both = UpstreamWatermark.of(marked.union(other));
    assertThat(both.present()).isTrue();
    assertThat(both.delaysMillis()).containsExactlyInAnyOrder(1_000L, 5_000L);
    assertThat(both.delayMillis()).isEmpty();
  }
}
