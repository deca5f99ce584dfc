package io.lakestream.operators.window;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.operators.TestEvent;
import io.lakestream.operators.row.KeyColumns;
import io.lakestream.operators.watermark.MissingWatermarkException;
import io.lakestream.operators.watermark.Watermarks;
import io.lakestream.state.query.OutputMode;
import java.time.Duration;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.lib.NumberSequenceSource;
import org.apache.flink.api.java.typeutils.PojoTypeInfo;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;

class WindowAggregationBuilderTest {
  private static final KeyColumns<TestEvent> KEYS = KeyColumns.of("key", (TestEvent e) -> e.key);
  private final StreamExecutionEnvironment env =
      StreamExecutionEnvironment.getExecutionEnvironment();

  private DataStream<TestEvent> events() {
    return env.fromSource(new NumberSequenceSource(1, 10), WatermarkStrategy.noWatermarks(), "n")
        .map(n -> TestEvent.of("k" + n % 3, n))
        .returns(TestEvent.class);
  }

  @Test
  void appendAndUpdateWithoutAWatermarkAreRefusedCompleteIsAllowed() {
    for (OutputMode mode : new OutputMode[] {OutputMode.APPEND, OutputMode.UPDATE}) {
      assertThatThrownBy(
              () ->
                  WindowAggregationBuilder.window(events(), WindowSpec.tumbling("1 minute"))
                      .groupBy(KEYS)
                      .outputMode(mode)
                      .uid("agg")
                      .build())
          .isInstanceOf(MissingWatermarkException.class)
          .hasMessageStartingWith(
              "[MISSING_WATERMARK] window aggregation in "
                  + mode.name().toLowerCase()
                  + " mode is not supported on streams without a watermark");
    }
    assertThat(
            WindowAggregationBuilder.window(events(), WindowSpec.tumbling("1 minute"))
                .groupBy(KEYS)
                .outputMode(OutputMode.COMPLETE)
                .uid("agg")
                .build())
        .isNotNull();
  }

  @Test
  void buildsAKeyedOperatorWithThePojoOutputTypeAndTheUid() {
    SingleOutputStreamOperator<WindowAggregate> out =
        WindowAggregationBuilder.window(
                Watermarks.withWatermark(events(), e -> e.ts, Duration.ofSeconds(10), "wm"),
                WindowSpec.tumbling("5 minutes"))
            .groupBy(KEYS)
            .aggregate("value", e -> e.value)
            .uid("per-key")
            .build();
    assertThat(out.getTransformation().getUid()).isEqualTo("per-key");
    assertThat(out.getType()).isInstanceOf(PojoTypeInfo.class);
  }

  @Test
  void missingSettingsAreNamed() {
    assertThatThrownBy(
            () ->
                WindowAggregationBuilder.window(events(), WindowSpec.tumbling("1 minute")).build())
        .hasMessageContaining("needs an explicit uid")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("OPERATOR_UID_MISSING");
    assertThatThrownBy(
            () ->
                WindowAggregationBuilder.window(events(), WindowSpec.tumbling("1 minute"))
                    .uid("agg")
                    .build())
        .hasMessageContaining("groupBy(KeyColumns.of(...))")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("INVALID_WINDOW_AGGREGATION");
  }
}
