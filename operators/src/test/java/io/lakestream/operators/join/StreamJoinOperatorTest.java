package io.lakestream.operators.join;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.operators.TestEvent;
import io.lakestream.operators.row.KeyColumns;
import io.lakestream.operators.row.Values;
import io.lakestream.operators.row.ValuesTypeInfo;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedTwoInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

/**
 * The join on Flink's keyed two-input harness. Range: leftTime BETWEEN rightTime - 5 s AND
 * rightTime + 2 s, so a left row expires once the watermark is above tL + 5 s and a right row once
 * it is above tR + 2 s.
 */
class StreamJoinOperatorTest {
  static final EventTimeRange RANGE =
      EventTimeRange.leftTimeBetween(Duration.ofSeconds(5), Duration.ofSeconds(2));
  static final KeyColumns<TestEvent> KEYS = KeyColumns.of("key", (TestEvent e) -> e.key);
  static final TypeInformation<TestEvent> TYPE = TypeInformation.of(TestEvent.class);

  static StreamJoinOperator<TestEvent, TestEvent> operator(JoinType type, EventTimeRange range) {
    return new StreamJoinOperator<>(type, range, TYPE, TYPE, "join");
  }

  static KeyedTwoInputStreamOperatorTestHarness<
          Values, TestEvent, TestEvent, JoinedRow<TestEvent, TestEvent>>
      harness(StreamJoinOperator<TestEvent, TestEvent> op, OperatorSubtaskState restore)
          throws Exception {
    KeyedTwoInputStreamOperatorTestHarness<
            Values, TestEvent, TestEvent, JoinedRow<TestEvent, TestEvent>>
        h = new KeyedTwoInputStreamOperatorTestHarness<>(op, KEYS, KEYS, ValuesTypeInfo.INSTANCE);
    if (restore != null) {
      h.initializeState(restore);
    }
    h.open();
    return h;
  }

  static void left(
      KeyedTwoInputStreamOperatorTestHarness<Values, TestEvent, TestEvent, ?> h, String k, long ts)
      throws Exception {
    h.processElement1(new StreamRecord<>(TestEvent.of(k, ts, 1.0), ts));
  }

  static void right(
      KeyedTwoInputStreamOperatorTestHarness<Values, TestEvent, TestEvent, ?> h, String k, long ts)
      throws Exception {
    h.processElement2(new StreamRecord<>(TestEvent.of(k, ts, 2.0), ts));
  }

  static JoinedRow<TestEvent, TestEvent> pair(String k, long tl, long tr) {
    return new JoinedRow<>(
        tl < 0 ? null : TestEvent.of(k, tl, 1.0), tr < 0 ? null : TestEvent.of(k, tr, 2.0));
  }

  @SuppressWarnings("unchecked")
  static List<JoinedRow<TestEvent, TestEvent>> out(
      KeyedTwoInputStreamOperatorTestHarness<Values, TestEvent, TestEvent, ?> h) {
    return h.extractOutputValues().stream()
        .map(o -> (JoinedRow<TestEvent, TestEvent>) o)
        .collect(Collectors.toList());
  }

  @Test
  void innerJoinEmitsPairsWithinTheRangeInEitherArrivalOrderAndNotOutside() throws Exception {
    StreamJoinOperator<TestEvent, TestEvent> op = operator(JoinType.INNER, RANGE);
    try (var h = harness(op, null)) {
      left(h, "a", 10_000);
      right(h, "a", 15_000); // tL = tR - 5 s: lower end, matches
      right(h, "a", 8_000); // tL = tR + 2 s: upper end, matches
      right(h, "a", 15_001); // tL < tR - 5 s: no
      right(h, "a", 7_999); // tL > tR + 2 s: no
      right(h, "b", 10_000); // other key
      left(h, "a", 9_000); // out of order: matches 8_000 (tR+1 s) and 7_999? 9_000 <= 9_999 yes
      assertThat(out(h))
          .containsExactly(
              pair("a", 10_000, 15_000),
              pair("a", 10_000, 8_000),
              pair("a", 9_000, 8_000),
              pair("a", 9_000, 7_999));
      assertThat(h.getOutput())
          .extracting(o -> ((StreamRecord<?>) o).getTimestamp())
          .containsExactly(15_000L, 10_000L, 9_000L, 9_000L);
      assertThat(op.metrics().numRowsTotal()).isEqualTo(7);
      assertThat(op.metrics().numRowsUpdated()).isEqualTo(7);
      assertThat(op.metrics().memoryUsedBytes()).isPositive();
    }
  }

  @Test
  void lateRowsAreCountedAndDroppedAndStateIsEvictedWhenTheWatermarkPassesTheRange()
      throws Exception {
    StreamJoinOperator<TestEvent, TestEvent> op = operator(JoinType.INNER, RANGE);
    try (var h = harness(op, null)) {
      left(h, "a", 10_000); // expires above 15_000
      right(h, "a", 11_000); // expires above 13_000
      h.processBothWatermarks(new Watermark(13_000));
      assertThat(op.metrics().numRowsTotal()).isEqualTo(2);
      h.processBothWatermarks(new Watermark(13_001));
      assertThat(op.metrics().numRowsTotal()).isEqualTo(1); // the right row left
      right(h, "a", 12_999); // late: behind the watermark
      right(h, "a", 13_001); // not late, matches the left row (10_000 >= 8_001)
      assertThat(op.metrics().numRowsDroppedByWatermark()).isEqualTo(1);
      h.processBothWatermarks(new Watermark(15_001));
      assertThat(op.metrics().numRowsTotal()).isEqualTo(1); // 13_001 + 2 s is not below 15_001
      h.processBothWatermarks(new Watermark(15_002));
      assertThat(op.metrics().numRowsTotal()).isZero();
      assertThat(h.numKeyedStateEntries()).isZero();
      left(h, "a", 15_002); // nothing left to match
      assertThat(out(h)).containsExactly(pair("a", 10_000, 11_000), pair("a", 10_000, 13_001));
    }
  }

  @Test
  void leftOuterEmitsUnmatchedLeftRowsExactlyWhenTheWatermarkPassesTheirRange() throws Exception {
    StreamJoinOperator<TestEvent, TestEvent> op = operator(JoinType.LEFT_OUTER, RANGE);
    try (var h = harness(op, null)) {
      left(h, "a", 10_000); // will match
      left(h, "b", 10_000); // never matches: emitted with null once wm > 15_000
      left(h, "c", 12_000); // emitted once wm > 17_000
      right(h, "a", 14_000);
      right(h, "z", 14_000); // unmatched right rows are not emitted in a left outer join
      h.processBothWatermarks(new Watermark(15_000));
      assertThat(out(h)).containsExactly(pair("a", 10_000, 14_000));
      h.processBothWatermarks(new Watermark(15_001));
      assertThat(out(h)).containsExactly(pair("a", 10_000, 14_000), pair("b", 10_000, -1));
      assertThat(h.getOutput())
          .filteredOn(o -> o instanceof StreamRecord)
          .extracting(o -> ((StreamRecord<?>) o).getTimestamp())
          .containsExactly(14_000L, 10_000L);
      right(h, "c", 17_000); // in range of c@12_000 (12_000 >= 12_000): matched, no null row
      h.processBothWatermarks(new Watermark(30_000));
      assertThat(out(h))
          .containsExactly(
              pair("a", 10_000, 14_000), pair("b", 10_000, -1), pair("c", 12_000, 17_000));
      assertThat(op.metrics().numRowsTotal()).isZero();
    }
  }

  @Test
  void rightAndFullOuterEmitTheirUnmatchedSides() throws Exception {
    try (var h = harness(operator(JoinType.RIGHT_OUTER, RANGE), null)) {
      left(h, "a", 10_000);
      right(h, "b", 10_000); // right expiry 12_000
      h.processBothWatermarks(new Watermark(12_001));
      assertThat(out(h)).containsExactly(pair("b", -1, 10_000));
      h.processBothWatermarks(new Watermark(20_000));
      assertThat(out(h)).containsExactly(pair("b", -1, 10_000));
    }
    try (var h = harness(operator(JoinType.FULL_OUTER, RANGE), null)) {
      left(h, "a", 10_000);
      right(h, "b", 10_000);
      left(h, "c", 10_000);
      right(h, "c", 11_000);
      h.processBothWatermarks(new Watermark(20_000));
      assertThat(out(h))
          .as("in expiry order: b's right row at 12_001, a's left row at 15_001")
          .containsExactly(pair("c", 10_000, 11_000), pair("b", -1, 10_000), pair("a", 10_000, -1));
    }
  }

  @Test
  void theWatermarkIsTheMinimumOfBothInputs() throws Exception {
    try (var h = harness(operator(JoinType.LEFT_OUTER, RANGE), null)) {
      left(h, "a", 10_000);
      h.processWatermark1(new Watermark(50_000));
      assertThat(out(h)).isEmpty(); // the right input is still behind
      right(h, "a", 14_999); // not late for the right input: still matches
      h.processWatermark2(new Watermark(50_000));
      assertThat(out(h)).containsExactly(pair("a", 10_000, 14_999));
    }
  }

  @Test
  void restoreFromASnapshotMidStreamKeepsBufferedRowsMatchedFlagsAndTimers() throws Exception {
    OperatorSubtaskState snapshot;
    try (var h = harness(operator(JoinType.FULL_OUTER, RANGE), null)) {
      left(h, "a", 10_000);
      left(h, "b", 10_000);
      right(h, "b", 12_000); // b matched before the snapshot
      h.processBothWatermarks(new Watermark(9_000));
      snapshot = h.snapshot(1, 1);
    }
    StreamJoinOperator<TestEvent, TestEvent> op = operator(JoinType.FULL_OUTER, RANGE);
    try (var h = harness(op, snapshot)) {
      assertThat(op.metrics().numRowsTotal()).isEqualTo(3);
      h.processBothWatermarks(new Watermark(9_000));
      right(h, "a", 8_500); // late after restore too
      right(h, "a", 11_000); // matches the restored left row
      h.processBothWatermarks(new Watermark(15_001)); // restored timers fire
      assertThat(out(h)).containsExactly(pair("a", 10_000, 11_000));
      assertThat(op.metrics().numRowsTotal()).isZero();
      assertThat(op.metrics().numRowsDroppedByWatermark()).isEqualTo(1);
    }
  }

  @Test
  void aNegativeBoundExpiresARowAtOnceAndItsOuterRowIsEmittedOnArrival() throws Exception {
    // left between 10 s and 1 s before right: a left row expires above tL - 1 s
    EventTimeRange before =
        EventTimeRange.leftTimeBetween(Duration.ofSeconds(-1), Duration.ofSeconds(10));
    try (var h = harness(operator(JoinType.RIGHT_OUTER, before), null)) {
      h.processBothWatermarks(new Watermark(5_000));
      left(h, "a", 1_000); // late
      right(h, "a", 5_500); // matches lefts in [5_500 + 1 s, 5_500 + 10 s]... none yet
      left(h, "a", 7_000); // 7_000 in [6_500, 15_500]: match
      assertThat(out(h)).containsExactly(pair("a", 7_000, 5_500));
    }
    assertThatThrownBy(
            () -> EventTimeRange.leftTimeBetween(Duration.ofSeconds(2), Duration.ofSeconds(-3)))
        .hasMessageContaining("is empty")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("INVALID_STREAM_JOIN");
  }

  @Test
  void aRowWithoutEventTimeFailsWithWhatToAdd() throws Exception {
    try (var h = harness(operator(JoinType.INNER, RANGE), null)) {
      assertThatThrownBy(() -> h.processElement1(new StreamRecord<>(TestEvent.of("a", 1))))
          .isInstanceOf(LakestreamException.class)
          .hasMessageContaining("join")
          .hasMessageContaining("Watermarks.withWatermark")
          .extracting(e -> ((LakestreamException) e).errorClass())
          .isEqualTo("EVENT_TIME_MISSING");
    }
  }

  @Test
  void withoutARangeAnInnerJoinKeepsEveryRow() throws Exception {
    StreamJoinOperator<TestEvent, TestEvent> op = operator(JoinType.INNER, null);
    try (var h = harness(op, null)) {
      left(h, "a", 1);
      h.processBothWatermarks(new Watermark(Long.MAX_VALUE - 1));
      right(h, "a", 2); // nothing is late without a range
      assertThat(out(h)).containsExactly(pair("a", 1, 2));
      assertThat(op.metrics().numRowsTotal()).isEqualTo(2);
    }
  }
}
