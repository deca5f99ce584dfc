package io.lakestream.operators.join;

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
import org.apache.flink.api.java.typeutils.PojoTypeInfo;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.operators.SimpleOperatorFactory;
import org.apache.flink.streaming.api.transformations.TwoInputTransformation;
import org.apache.flink.testutils.logging.LoggerAuditingExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.event.Level;

class StreamJoinBuilderTest {
  private static final KeyColumns<TestEvent> KEYS = KeyColumns.of("key", (TestEvent e) -> e.key);

  @RegisterExtension
  final LoggerAuditingExtension log =
      new LoggerAuditingExtension(StreamJoinBuilder.class, Level.WARN);

  private final StreamExecutionEnvironment env =
      StreamExecutionEnvironment.getExecutionEnvironment();

  private DataStream<TestEvent> events() {
    return env.fromSource(new NumberSequenceSource(1, 10), WatermarkStrategy.noWatermarks(), "n")
        .map(n -> TestEvent.of("k" + n % 3, n))
        .returns(TestEvent.class);
  }

  private DataStream<TestEvent> marked(String uid) {
    return Watermarks.withWatermark(events(), e -> e.ts, Duration.ofSeconds(10), uid);
  }

  @Test
  void outerJoinsWithoutAWatermarkOnBothInputsAreRefusedBeforeTheJobRuns() {
    for (JoinType type :
        new JoinType[] {JoinType.LEFT_OUTER, JoinType.RIGHT_OUTER, JoinType.FULL_OUTER}) {
      assertThatThrownBy(
              () ->
                  StreamJoinBuilder.join(marked("wm-" + type), events())
                      .on(KEYS, KEYS)
                      .leftTimeBetween(Duration.ofMinutes(1), Duration.ZERO)
                      .joinType(type)
                      .uid("j")
                      .build())
          .isInstanceOf(MissingWatermarkException.class)
          .hasMessageStartingWith(
              "[MISSING_WATERMARK] Stream-stream "
                  + type.sparkName()
                  + " join (j) between two"
                  + " streaming inputs is not supported without a watermark on both inputs")
          .hasMessageContaining("Watermarks.withWatermark(");
    }
  }

  @Test
  void outerJoinsWithoutARangeAreRefused() {
    assertThatThrownBy(
            () ->
                StreamJoinBuilder.join(marked("a"), marked("b"))
                    .on(KEYS, KEYS)
                    .joinType(JoinType.LEFT_OUTER)
                    .uid("j")
                    .build())
        .isInstanceOf(LakestreamException.class)
        .hasMessageContaining("LeftOuter join (j)")
        .hasMessageContaining("without an event-time range condition")
        .hasMessageContaining("leftTimeBetween(lower, upper)")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("STREAM_JOIN_WITHOUT_TIME_RANGE");
  }

  @Test
  void anOuterJoinWithWatermarksAndARangeIsBuiltWithItsUidAndPojoOutput() {
    SingleOutputStreamOperator<JoinedRow<TestEvent, TestEvent>> joined =
        StreamJoinBuilder.join(marked("a"), marked("b"))
            .on(KEYS, KEYS)
            .leftTimeBetween(Duration.ofMinutes(1), Duration.ZERO)
            .joinType(JoinType.FULL_OUTER)
            .uid("j")
            .build();
    TwoInputTransformation<?, ?, ?> t =
        (TwoInputTransformation<?, ?, ?>) joined.getTransformation();
    assertThat(t.getUid()).isEqualTo("j");
    assertThat(((SimpleOperatorFactory<?>) t.getOperatorFactory()).getOperator())
        .isInstanceOf(StreamJoinOperator.class);
    assertThat(joined.getType()).isInstanceOf(PojoTypeInfo.class);
    assertThat(log.getMessages()).isEmpty();
  }

  @Test
  void anInnerJoinWithoutWatermarkOrRangeIsBuiltWithOneWarning() {
    StreamJoinBuilder.join(events(), events()).on(KEYS, KEYS).uid("forever").build();
    assertThat(log.getMessages())
        .singleElement()
        .asString()
        .contains("inner join (forever) has no watermark on both inputs")
        .contains("growing without limit");
    StreamJoinBuilder.join(marked("a"), marked("b")).on(KEYS, KEYS).uid("norange").build();
    assertThat(log.getMessages()).hasSize(2).last().asString().contains("has no event-time range");
  }

  @Test
  void settingsAreChecked() {
    assertThatThrownBy(() -> StreamJoinBuilder.join(events(), events()).on(KEYS, KEYS).build())
        .hasMessageContaining("needs an explicit uid")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("OPERATOR_UID_MISSING");
    assertThatThrownBy(() -> StreamJoinBuilder.join(events(), events()).uid("j").build())
        .hasMessageContaining("set the join keys with on(leftKeys, rightKeys)")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("INVALID_STREAM_JOIN");
    assertThatThrownBy(
            () ->
                StreamJoinBuilder.join(events(), events())
                    .on(KEYS, KEYS.and("ts", e -> e.ts))
                    .uid("j")
                    .build())
        .hasMessageContaining("same number of columns")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("INVALID_STREAM_JOIN");
    DataStream<Object> generic =
        env.fromSource(new NumberSequenceSource(1, 2), WatermarkStrategy.noWatermarks(), "g")
            .map(n -> (Object) new StringBuilder("x"))
            .returns(Object.class);
    assertThatThrownBy(
            () ->
                StreamJoinBuilder.join(events(), generic)
                    .on(KEYS, KeyColumns.of("key", Object::toString))
                    .uid("j")
                    .build())
        .hasMessageContaining("right row type java.lang.Object")
        .hasMessageContaining("Kryo")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("KRYO_STATE_TYPE");
  }
}
