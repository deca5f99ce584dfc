package io.lakestream.operators.dedup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.operators.TestEvent;
import io.lakestream.operators.row.KeyColumns;
import io.lakestream.operators.watermark.MissingWatermarkException;
import io.lakestream.operators.watermark.Watermarks;
import java.time.Duration;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.lib.NumberSequenceSource;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.operators.SimpleOperatorFactory;
import org.apache.flink.streaming.api.transformations.OneInputTransformation;
import org.junit.jupiter.api.Test;

class DeduplicationBuilderTest {
  private static final KeyColumns<TestEvent> KEYS = KeyColumns.of("key", (TestEvent e) -> e.key);
  private final StreamExecutionEnvironment env =
      StreamExecutionEnvironment.getExecutionEnvironment();

  private DataStream<TestEvent> events() {
    return env.fromSource(new NumberSequenceSource(1, 10), WatermarkStrategy.noWatermarks(), "n")
        .map(n -> TestEvent.of("k" + n % 3, n))
        .returns(TestEvent.class);
  }

  @Test
  void withinWatermarkWithoutAWatermarkIsRefusedBeforeTheJobRuns() {
    assertThatThrownBy(
            () ->
                DeduplicationBuilder.dropDuplicatesWithinWatermark(events(), KEYS)
                    .uid("dedup")
                    .build())
        .isInstanceOf(MissingWatermarkException.class)
        .hasMessageStartingWith(
            "[MISSING_WATERMARK] dropDuplicatesWithinWatermark is not supported on streams without a watermark")
        .hasMessageContaining("Add Watermarks.withWatermark(");
  }

  @Test
  void theDelayComesFromTheUpstreamWithWatermarkAndTheUidIsSet() {
    DataStream<TestEvent> marked =
        Watermarks.withWatermark(events(), e -> e.ts, Duration.ofMinutes(10), "wm");
    DataStream<TestEvent> unique =
        DeduplicationBuilder.dropDuplicatesWithinWatermark(marked, KEYS).uid("dedup").build();
    OneInputTransformation<?, ?> t = (OneInputTransformation<?, ?>) unique.getTransformation();
    assertThat(t.getUid()).isEqualTo("dedup");
    assertThat(((SimpleOperatorFactory<?>) t.getOperatorFactory()).getOperator())
        .isInstanceOf(WatermarkDeduplicator.class)
        .hasFieldOrPropertyWithValue("delayMillis", 600_000L);
  }

  @Test
  void differentUpstreamDelaysNeedAnExplicitDelay() {
    DataStream<TestEvent> a =
        Watermarks.withWatermark(events(), e -> e.ts, Duration.ofSeconds(1), "a");
    DataStream<TestEvent> b =
        Watermarks.withWatermark(events(), e -> e.ts, Duration.ofSeconds(2), "b");
    assertThatThrownBy(
            () ->
                DeduplicationBuilder.dropDuplicatesWithinWatermark(a.union(b), KEYS)
                    .uid("dedup")
                    .build())
        .hasMessageContaining("cannot tell the watermark delay")
        .hasMessageContaining("DeduplicationBuilder.delay(Duration)")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("INVALID_DEDUPLICATION");
    assertThat(
            DeduplicationBuilder.dropDuplicatesWithinWatermark(a.union(b), KEYS)
                .delay(Duration.ofSeconds(2))
                .uid("dedup")
                .build())
        .isNotNull();
  }

  @Test
  void aUidIsRequiredAndPlainDropDuplicatesNeedsNoWatermark() {
    assertThatThrownBy(() -> DeduplicationBuilder.dropDuplicates(events(), KEYS).build())
        .hasMessageContaining("needs an explicit uid")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("OPERATOR_UID_MISSING");
    assertThat(DeduplicationBuilder.dropDuplicates(events(), KEYS).uid("forever").build())
        .isNotNull();
    assertThatThrownBy(
            () ->
                DeduplicationBuilder.dropDuplicates(events(), KEYS)
                    .delay(Duration.ofSeconds(1))
                    .uid("x")
                    .build())
        .hasMessageContaining("use dropDuplicatesWithinWatermark")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("INVALID_DEDUPLICATION");
  }
}
