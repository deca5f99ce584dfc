package io.lakestream.operators.dedup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.operators.TestEvent;
import io.lakestream.operators.row.KeyColumns;
import io.lakestream.operators.row.Values;
import io.lakestream.operators.row.ValuesTypeInfo;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.util.OutputTag;
import org.junit.jupiter.api.Test;

class WatermarkDeduplicatorTest {
  static final long DELAY = 10_000;
  static final KeyColumns<TestEvent> KEYS = KeyColumns.of("key", (TestEvent e) -> e.key);
  static final OutputTag<TestEvent> LATE =
      new OutputTag<>("late", TypeInformation.of(TestEvent.class));

  /** A harness of a job with checkpointing (epochs), as every lakestream query has. */
  static KeyedOneInputStreamOperatorTestHarness<Values, TestEvent, TestEvent> harness(
      WatermarkDeduplicator<TestEvent> operator) throws Exception {
    KeyedOneInputStreamOperatorTestHarness<Values, TestEvent, TestEvent> h =
        new KeyedOneInputStreamOperatorTestHarness<>(operator, KEYS, ValuesTypeInfo.INSTANCE);
    h.getStreamConfig().setCheckpointingEnabled(true);
    return h;
  }

  @Test
  void withoutCheckpointingATimerPerKeyFreesItsStateWhenTheWatermarkPasses() throws Exception {
    WatermarkDeduplicator<TestEvent> op = new WatermarkDeduplicator<>(DELAY, "dedup", null);
    try (KeyedOneInputStreamOperatorTestHarness<Values, TestEvent, TestEvent> h =
        new KeyedOneInputStreamOperatorTestHarness<>(op, KEYS, ValuesTypeInfo.INSTANCE)) {
      h.getStreamConfig().setCheckpointingEnabled(false);
      h.open();
      row(h, "a", 1_000); // bound 11_000
      row(h, "b", 5_000); // bound 15_000
      assertThat(h.numEventTimeTimers()).isEqualTo(2);
      h.processWatermark(new Watermark(11_000)); // no epoch end ever comes: the timer frees a
      assertThat(h.numKeyedStateEntries()).isEqualTo(1);
      assertThat(op.metrics().numRowsTotal()).isEqualTo(1);
      row(h, "a", 11_500); // passes again
      assertThat(passed(h)).hasSize(3);
    }
  }

  static void row(KeyedOneInputStreamOperatorTestHarness<Values, TestEvent, ?> h, String k, long ts)
      throws Exception {
    h.processElement(new StreamRecord<>(TestEvent.of(k, ts), ts));
  }

  static List<TestEvent> passed(KeyedOneInputStreamOperatorTestHarness<Values, TestEvent, ?> h) {
    return h.extractOutputValues().stream().map(o -> (TestEvent) o).collect(Collectors.toList());
  }

  @Test
  void firstRowPassesDuplicatesAreDroppedUntilTheWatermarkReachesTheBoundThenStateIsFreed()
      throws Exception {
    WatermarkDeduplicator<TestEvent> op = new WatermarkDeduplicator<>(DELAY, "dedup", LATE);
    try (KeyedOneInputStreamOperatorTestHarness<Values, TestEvent, TestEvent> h = harness(op)) {
      h.open();
      row(h, "a", 1_000); // bound 11_000
      row(h, "a", 500); // duplicate, even earlier event time
      row(h, "b", 2_000); // bound 12_000
      row(h, "a", 9_000);
      assertThat(passed(h)).containsExactly(TestEvent.of("a", 1_000), TestEvent.of("b", 2_000));
      assertThat(h.numKeyedStateEntries()).isEqualTo(2);
      assertThat(op.metrics().numRowsTotal()).isEqualTo(2);

      h.processWatermark(new Watermark(10_999)); // bound of a still above the watermark
      row(h, "a", 11_000);
      assertThat(passed(h)).hasSize(2);
      assertThat(h.numEventTimeTimers()).isZero(); // no timer per key

      h.processWatermark(new Watermark(11_000)); // reaches a's bound
      assertThat(h.numKeyedStateEntries()).isEqualTo(2); // freed at the end of the epoch
      h.prepareSnapshotPreBarrier(1); // a is freed, b kept
      assertThat(h.numKeyedStateEntries()).isEqualTo(1);
      assertThat(op.metrics().numRowsTotal()).isEqualTo(1);
      row(h, "a", 11_500); // passes again, new bound 21_500
      row(h, "b", 11_500); // b's bound 12_000 > 11_000: dropped
      assertThat(passed(h))
          .containsExactly(
              TestEvent.of("a", 1_000), TestEvent.of("b", 2_000), TestEvent.of("a", 11_500));
      assertThat(op.metrics().numRowsUpdated()).isEqualTo(3);
      assertThat(op.metrics().numRowsDroppedByWatermark()).isZero();
      assertThat(op.metrics().memoryUsedBytes()).isPositive();
    }
  }

  @Test
  void lateRowsGoToTheSideOutputAndAreCounted() throws Exception {
    WatermarkDeduplicator<TestEvent> op = new WatermarkDeduplicator<>(DELAY, "dedup", LATE);
    try (KeyedOneInputStreamOperatorTestHarness<Values, TestEvent, TestEvent> h = harness(op)) {
      h.open();
      h.processWatermark(new Watermark(50_000));
      row(h, "c", 49_999); // late
      row(h, "c", 50_000); // exactly at the watermark: not late
      assertThat(passed(h)).containsExactly(TestEvent.of("c", 50_000));
      assertThat(h.getSideOutput(LATE))
          .extracting(StreamRecord::getValue)
          .containsExactly(TestEvent.of("c", 49_999));
      assertThat(op.metrics().numRowsDroppedByWatermark()).isEqualTo(1);
    }
  }

  @Test
  void anExpiredKeyPassesAgainBeforeTheEndOfTheEpochFreesIt() throws Exception {
    WatermarkDeduplicator<TestEvent> op = new WatermarkDeduplicator<>(DELAY, "dedup", null);
    try (KeyedOneInputStreamOperatorTestHarness<Values, TestEvent, TestEvent> h = harness(op)) {
      h.open();
      row(h, "a", 1_000); // bound 11_000
      h.processWatermark(new Watermark(11_000));
      row(h, "a", 11_000); // a's bound was reached: passes, new bound 21_000
      row(h, "a", 12_000); // duplicate of the new one
      h.prepareSnapshotPreBarrier(1);
      assertThat(passed(h)).containsExactly(TestEvent.of("a", 1_000), TestEvent.of("a", 11_000));
      assertThat(h.numKeyedStateEntries()).isEqualTo(1);
      assertThat(op.metrics().numRowsTotal()).isEqualTo(1);
      h.processWatermark(new Watermark(21_000));
      h.prepareSnapshotPreBarrier(2);
      assertThat(h.numKeyedStateEntries()).isZero();
      assertThat(op.metrics().numRowsTotal()).isZero();
    }
  }

  /**
   * The key filter never hides a key the state holds: past its first capacity (grown by layers),
   * after a sweep freed keys, and after a restore, every duplicate is still dropped.
   */
  @Test
  void theKeyFilterNeverLetsADuplicateThroughWhenFullSweptOrRestored() throws Exception {
    int keys = 5_000; // the filter starts sized for 1,024
    OperatorSubtaskState snapshot;
    WatermarkDeduplicator<TestEvent> op = new WatermarkDeduplicator<>(DELAY, "dedup", null, 1024);
    try (KeyedOneInputStreamOperatorTestHarness<Values, TestEvent, TestEvent> h = harness(op)) {
      h.open();
      for (int i = 0; i < keys; i++) {
        row(h, "k" + i, 1_000);
        row(h, "k" + (i / 2), 1_000); // a duplicate of a key admitted before
      }
      assertThat(passed(h)).hasSize(keys);
      h.prepareSnapshotPreBarrier(1); // an epoch end without expired keys: no sweep
      for (int i = 0; i < keys; i++) {
        row(h, "k" + i, 2_000);
      }
      assertThat(passed(h)).hasSize(keys);
      row(h, "late-key", 20_000); // bound 30_000
      h.processWatermark(new Watermark(11_000)); // reaches every k's bound 11_000
      h.prepareSnapshotPreBarrier(2); // frees them all; the filter keeps only late-key
      assertThat(op.metrics().numRowsTotal()).isEqualTo(1);
      row(h, "k1", 12_000); // freed: passes again
      assertThat(passed(h)).hasSize(keys + 2);
      snapshot = h.snapshot(3, 3);
    }
    WatermarkDeduplicator<TestEvent> restored =
        new WatermarkDeduplicator<>(DELAY, "dedup", null, 1024);
    try (KeyedOneInputStreamOperatorTestHarness<Values, TestEvent, TestEvent> h =
        harness(restored)) {
      h.initializeState(snapshot);
      h.open();
      row(h, "late-key", 21_000); // restored keys are in the new filter: dropped
      row(h, "k1", 13_000);
      row(h, "k2", 13_000); // not held: passes
      assertThat(passed(h)).containsExactly(TestEvent.of("k2", 13_000));
    }
  }

  @Test
  void restoreFromASnapshotKeepsKeysAndBounds() throws Exception {
    OperatorSubtaskState snapshot;
    try (KeyedOneInputStreamOperatorTestHarness<Values, TestEvent, TestEvent> h =
        harness(new WatermarkDeduplicator<>(DELAY, "dedup", null))) {
      h.open();
      row(h, "a", 1_000);
      row(h, "b", 5_000);
      h.processWatermark(new Watermark(2_000));
      snapshot = h.snapshot(1, 1);
    }
    WatermarkDeduplicator<TestEvent> op = new WatermarkDeduplicator<>(DELAY, "dedup", null);
    try (KeyedOneInputStreamOperatorTestHarness<Values, TestEvent, TestEvent> h = harness(op)) {
      h.initializeState(snapshot);
      h.open();
      assertThat(op.metrics().numRowsTotal()).isEqualTo(2);
      row(h, "a", 3_000); // still a duplicate after restore
      h.processWatermark(new Watermark(11_000));
      h.prepareSnapshotPreBarrier(2); // frees a, whose restored bound the watermark reached
      assertThat(op.metrics().numRowsTotal()).isEqualTo(1);
      row(h, "a", 12_000);
      row(h, "b", 12_000); // b's bound 15_000 still above
      assertThat(passed(h)).containsExactly(TestEvent.of("a", 12_000));
    }
  }

  @Test
  void aRowWithoutEventTimeFailsWithWhatToAdd() throws Exception {
    try (KeyedOneInputStreamOperatorTestHarness<Values, TestEvent, TestEvent> h =
        harness(new WatermarkDeduplicator<>(DELAY, "dedup-x", null))) {
      h.open();
      assertThatThrownBy(() -> h.processElement(new StreamRecord<>(TestEvent.of("a", 1))))
          .isInstanceOf(LakestreamException.class)
          .hasMessageContaining("dedup-x")
          .hasMessageContaining("Watermarks.withWatermark")
          .extracting(e -> ((LakestreamException) e).errorClass())
          .isEqualTo("EVENT_TIME_MISSING");
    }
  }

  @Test
  void unboundedDropDuplicatesKeepsEveryKeyForever() throws Exception {
    UnboundedDeduplicator<TestEvent> op = new UnboundedDeduplicator<>("forever");
    try (KeyedOneInputStreamOperatorTestHarness<Values, TestEvent, TestEvent> h =
        new KeyedOneInputStreamOperatorTestHarness<>(op, KEYS, ValuesTypeInfo.INSTANCE)) {
      h.open();
      row(h, "a", 1_000);
      row(h, "a", 2_000);
      h.processWatermark(new Watermark(Long.MAX_VALUE - 1));
      row(h, "a", 3_000);
      row(h, "b", 1);
      assertThat(passed(h)).containsExactly(TestEvent.of("a", 1_000), TestEvent.of("b", 1));
      assertThat(op.metrics().numRowsTotal()).isEqualTo(2);
      OperatorSubtaskState snapshot = h.snapshot(1, 1);
      UnboundedDeduplicator<TestEvent> restoredOp = new UnboundedDeduplicator<>("forever");
      try (KeyedOneInputStreamOperatorTestHarness<Values, TestEvent, TestEvent> r =
          new KeyedOneInputStreamOperatorTestHarness<>(restoredOp, KEYS, ValuesTypeInfo.INSTANCE)) {
        r.initializeState(snapshot);
        r.open();
        row(r, "b", 5);
        assertThat(passed(r)).isEmpty();
        assertThat(restoredOp.metrics().numRowsTotal()).isEqualTo(2);
      }
    }
  }
}
