package io.lakestream.operators.window;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.operators.TestEvent;
import io.lakestream.operators.row.KeyColumns;
import io.lakestream.operators.row.Values;
import io.lakestream.operators.row.ValuesTypeInfo;
import io.lakestream.state.query.OutputMode;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.util.OutputTag;
import org.junit.jupiter.api.Test;

class WindowAggregationOperatorTest {
  static final KeyColumns<TestEvent> KEYS = KeyColumns.of("key", (TestEvent e) -> e.key);
  static final OutputTag<TestEvent> LATE =
      new OutputTag<>("late", TypeInformation.of(TestEvent.class));
  static final long S = 1_000_000; // one second in microseconds

  static WindowAggregationOperator<TestEvent> operator(WindowSpec spec, OutputMode mode) {
    return new WindowAggregationOperator<>(spec, e -> e.value, null, mode, "agg", LATE);
  }

  static KeyedOneInputStreamOperatorTestHarness<Values, TestEvent, WindowAggregate> harness(
      WindowAggregationOperator<TestEvent> op) throws Exception {
    return new KeyedOneInputStreamOperatorTestHarness<>(op, KEYS, ValuesTypeInfo.INSTANCE);
  }

  static void row(
      KeyedOneInputStreamOperatorTestHarness<Values, TestEvent, WindowAggregate> h,
      String key,
      long ts,
      Double value)
      throws Exception {
    h.processElement(new StreamRecord<>(new TestEvent(key, ts, value), ts));
  }

  /** Output rows as "key[startSec,endSec)=count/sum". */
  static List<String> out(
      KeyedOneInputStreamOperatorTestHarness<Values, TestEvent, WindowAggregate> h) {
    return h.extractOutputValues().stream()
        .map(
            a ->
                a.key.get(0)
                    + "["
                    + a.windowStartMicros / S
                    + ","
                    + a.windowEndMicros / S
                    + ")="
                    + a.count
                    + "/"
                    + a.sum)
        .collect(Collectors.toList());
  }

  @Test
  void appendEmitsEachWindowOnceExactlyWhenTheWatermarkReachesItsEnd() throws Exception {
    WindowAggregationOperator<TestEvent> op =
        operator(WindowSpec.tumbling("10 seconds"), OutputMode.APPEND);
    try (KeyedOneInputStreamOperatorTestHarness<Values, TestEvent, WindowAggregate> h =
        harness(op)) {
      h.open();
      row(h, "a", 1_000, 1.0);
      row(h, "a", 12_000, 10.0);
      row(h, "a", 3_000, 2.0); // out of order, same window as 1 s
      row(h, "b", 9_999, null);
      row(h, "a", 9_000, 4.0);
      assertThat(op.metrics().numRowsTotal()).isEqualTo(3);
      h.processWatermark(new Watermark(9_999));
      assertThat(out(h)).isEmpty();
      h.processWatermark(new Watermark(10_000));
      assertThat(out(h)).containsExactlyInAnyOrder("a[0,10)=3/7.0", "b[0,10)=1/null");
      WindowAggregate a0 =
          h.extractOutputValues().stream()
              .filter(x -> x.key.equals(Values.of("a")))
              .findFirst()
              .get();
      assertThat(a0.min).isEqualTo(1.0);
      assertThat(a0.max).isEqualTo(4.0);
      assertThat(a0.avg).isEqualTo(7.0 / 3);
      assertThat(a0.valueCount).isEqualTo(3);
      assertThat(a0.windowStart()).hasToString("1970-01-01T00:00:00Z");
      assertThat(a0.windowEnd()).hasToString("1970-01-01T00:00:10Z");
      assertThat(op.metrics().numRowsTotal()).isEqualTo(1);

      // a row for the closed window [0,10) is late; one for [10,20) is not, though behind
      row(h, "a", 5_000, 100.0);
      row(h, "a", 10_000, 5.0);
      assertThat(h.getSideOutput(LATE))
          .extracting(StreamRecord::getValue)
          .containsExactly(new TestEvent("a", 5_000, 100.0));
      assertThat(op.metrics().numRowsDroppedByWatermark()).isEqualTo(1);

      h.processWatermark(new Watermark(Long.MAX_VALUE));
      assertThat(out(h))
          .containsExactlyInAnyOrder("a[0,10)=3/7.0", "b[0,10)=1/null", "a[10,20)=2/15.0");
      assertThat(op.metrics().numRowsTotal()).isZero();
      assertThat(h.numKeyedStateEntries()).isZero();
    }
  }

  @Test
  void slidingWindowsCountARowInEveryOpenWindowAndOnlyThoseThatAreOpen() throws Exception {
    WindowAggregationOperator<TestEvent> op =
        operator(WindowSpec.sliding("10 seconds", "5 seconds"), OutputMode.APPEND);
    try (KeyedOneInputStreamOperatorTestHarness<Values, TestEvent, WindowAggregate> h =
        harness(op)) {
      h.open();
      row(h, "a", 7_000, 1.0); // [0,10) and [5,15)
      h.processWatermark(new Watermark(10_000));
      assertThat(out(h)).containsExactly("a[0,10)=1/1.0");
      row(h, "a", 8_000, 2.0); // [0,10) closed, [5,15) open: not late
      assertThat(op.metrics().numRowsDroppedByWatermark()).isZero();
      row(h, "a", 4_000, 9.0); // [-5,5) and [0,10) both closed: late
      assertThat(op.metrics().numRowsDroppedByWatermark()).isEqualTo(1);
      h.processWatermark(new Watermark(15_000));
      assertThat(out(h)).containsExactly("a[0,10)=1/1.0", "a[5,15)=2/3.0");
    }
  }

  @Test
  void updateEmitsChangedWindowsAtEachEpochEndAndDropsClosedOnes() throws Exception {
    WindowAggregationOperator<TestEvent> op =
        operator(WindowSpec.tumbling("10 seconds"), OutputMode.UPDATE);
    try (KeyedOneInputStreamOperatorTestHarness<Values, TestEvent, WindowAggregate> h =
        harness(op)) {
      h.open();
      row(h, "a", 1_000, 1.0);
      row(h, "b", 2_000, 2.0);
      row(h, "a", 11_000, 3.0);
      assertThat(out(h)).isEmpty(); // nothing before the epoch ends
      h.prepareSnapshotPreBarrier(1);
      assertThat(out(h))
          .containsExactlyInAnyOrder("a[0,10)=1/1.0", "b[0,10)=1/2.0", "a[10,20)=1/3.0");
      h.getOutput().clear();

      h.prepareSnapshotPreBarrier(2); // no change, no output
      assertThat(out(h)).isEmpty();

      row(h, "a", 2_000, 5.0);
      h.prepareSnapshotPreBarrier(3);
      assertThat(out(h)).containsExactly("a[0,10)=2/6.0"); // only the changed window, as an upsert
      h.getOutput().clear();

      // a window changed and closed within one epoch is emitted as it closes, then dropped
      row(h, "b", 3_000, 1.0);
      h.processWatermark(new Watermark(10_000));
      assertThat(out(h)).containsExactly("b[0,10)=2/3.0");
      assertThat(op.metrics().numRowsTotal()).isEqualTo(1);
      h.getOutput().clear();
      h.prepareSnapshotPreBarrier(4);
      assertThat(out(h)).isEmpty();

      row(h, "a", 9_000, 1.0); // its window closed: late
      assertThat(op.metrics().numRowsDroppedByWatermark()).isEqualTo(1);
    }
  }

  @Test
  void completeEmitsTheWholeResultEveryEpochAndNeverDropsAnything() throws Exception {
    WindowAggregationOperator<TestEvent> op =
        new WindowAggregationOperator<>(
            WindowSpec.tumbling("10 seconds"),
            e -> e.value,
            null,
            OutputMode.COMPLETE,
            "agg",
            null);
    try (KeyedOneInputStreamOperatorTestHarness<Values, TestEvent, WindowAggregate> h =
        harness(op)) {
      h.open();
      row(h, "a", 1_000, 1.0);
      row(h, "b", 21_000, 2.0);
      h.prepareSnapshotPreBarrier(1);
      assertThat(out(h)).containsExactlyInAnyOrder("a[0,10)=1/1.0", "b[20,30)=1/2.0");
      h.getOutput().clear();
      h.processWatermark(new Watermark(100_000));
      row(h, "a", 2_000, 1.0); // far behind the watermark: still counted
      h.prepareSnapshotPreBarrier(2);
      assertThat(out(h)).containsExactlyInAnyOrder("a[0,10)=2/2.0", "b[20,30)=1/2.0");
      assertThat(op.metrics().numRowsDroppedByWatermark()).isZero();
      assertThat(h.numEventTimeTimers()).isZero();
    }
  }

  @Test
  void restoreFromASnapshotMidWindowKeepsPartialAggregatesAndTimers() throws Exception {
    OperatorSubtaskState snapshot;
    try (KeyedOneInputStreamOperatorTestHarness<Values, TestEvent, WindowAggregate> h =
        harness(operator(WindowSpec.tumbling("10 seconds"), OutputMode.APPEND))) {
      h.open();
      row(h, "a", 1_000, 1.0);
      row(h, "a", 2_000, 2.0);
      row(h, "b", 15_000, 7.0);
      h.processWatermark(new Watermark(5_000));
      snapshot = h.snapshot(1, 1);
    }
    WindowAggregationOperator<TestEvent> op =
        operator(WindowSpec.tumbling("10 seconds"), OutputMode.APPEND);
    try (KeyedOneInputStreamOperatorTestHarness<Values, TestEvent, WindowAggregate> h =
        harness(op)) {
      h.initializeState(snapshot);
      h.open();
      assertThat(op.metrics().numRowsTotal()).isEqualTo(2);
      h.processWatermark(new Watermark(5_000)); // re-announced by withWatermark
      row(h, "a", 6_000, 3.0);
      h.processWatermark(new Watermark(10_000)); // restored timer fires
      assertThat(out(h)).containsExactly("a[0,10)=3/6.0");
      h.processWatermark(new Watermark(20_000));
      assertThat(out(h)).containsExactly("a[0,10)=3/6.0", "b[10,20)=1/7.0");
    }
  }

  @Test
  void updateModeSurvivesRestoreBecauseEveryBarrierEmptiesThePendingChanges() throws Exception {
    OperatorSubtaskState snapshot;
    try (KeyedOneInputStreamOperatorTestHarness<Values, TestEvent, WindowAggregate> h =
        harness(operator(WindowSpec.tumbling("10 seconds"), OutputMode.UPDATE))) {
      h.open();
      row(h, "a", 1_000, 1.0);
      h.prepareSnapshotPreBarrier(1);
      snapshot = h.snapshot(1, 1);
      assertThat(out(h)).containsExactly("a[0,10)=1/1.0");
    }
    try (KeyedOneInputStreamOperatorTestHarness<Values, TestEvent, WindowAggregate> h =
        harness(operator(WindowSpec.tumbling("10 seconds"), OutputMode.UPDATE))) {
      h.initializeState(snapshot);
      h.open();
      row(h, "a", 2_000, 1.0);
      h.prepareSnapshotPreBarrier(2);
      assertThat(out(h)).containsExactly("a[0,10)=2/2.0");
    }
  }

  @Test
  void subMillisecondWindowsUseTheMicrosecondEventTime() throws Exception {
    WindowAggregationOperator<TestEvent> op =
        new WindowAggregationOperator<>(
            WindowSpec.tumbling("250 microseconds"),
            null,
            e -> e.ts, // ts holds microseconds here
            OutputMode.APPEND,
            "micro",
            null);
    try (KeyedOneInputStreamOperatorTestHarness<Values, TestEvent, WindowAggregate> h =
        harness(op)) {
      h.open();
      for (long us : new long[] {100, 200, 300, 600, 999, 1_100}) {
        h.processElement(new StreamRecord<>(TestEvent.of("a", us), us / 1_000));
      }
      h.processWatermark(new Watermark(1)); // 1000 us: closes [0,250) .. [750,1000)
      assertThat(h.extractOutputValues())
          .extracting(a -> a.windowStartMicros + ":" + a.count)
          .containsExactly("0:2", "250:1", "500:1", "750:1");
    }
  }

  @Test
  void aRowWithoutEventTimeFailsWithWhatToAdd() throws Exception {
    try (KeyedOneInputStreamOperatorTestHarness<Values, TestEvent, WindowAggregate> h =
        harness(operator(WindowSpec.tumbling("1 second"), OutputMode.APPEND))) {
      h.open();
      assertThatThrownBy(() -> h.processElement(new StreamRecord<>(TestEvent.of("a", 1))))
          .isInstanceOf(LakestreamException.class)
          .hasMessageContaining("Watermarks.withWatermark")
          .extracting(e -> ((LakestreamException) e).errorClass())
          .isEqualTo("EVENT_TIME_MISSING");
    }
  }

  @Test
  void atEndOfInputUpdateEmitsWhatIsPendingOnce() throws Exception {
    KeyedOneInputStreamOperatorTestHarness<Values, TestEvent, WindowAggregate> h =
        harness(operator(WindowSpec.tumbling("10 seconds"), OutputMode.UPDATE));
    h.open();
    row(h, "a", 1_000, 1.0);
    row(h, "a", 2_000, 1.0);
    h.endInput();
    h.close(); // finish(): the last epoch
    assertThat(out(h)).containsExactly("a[0,10)=2/2.0");
  }
}
