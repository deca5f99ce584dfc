package io.lakestream.pipelines.gold;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.contrib.streaming.state.EmbeddedRocksDBStateBackend;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

/**
 * The gold aggregate on RocksDB: nothing is emitted mid-epoch, each changed day is emitted once
 * just before the barrier with its absolute totals, and a restore from the snapshot replays the
 * next epoch to the same totals.
 */
class OrdersGoldAggregateTest {

  private static KeyedOneInputStreamOperatorTestHarness<Long, OrderChange, DailyTotals> harness()
      throws Exception {
    KeyedOneInputStreamOperatorTestHarness<Long, OrderChange, DailyTotals> h =
        new KeyedOneInputStreamOperatorTestHarness<>(
            new DailyTotalsOperator(), change -> change.epochDay, Types.LONG);
    h.setStateBackend(new EmbeddedRocksDBStateBackend());
    return h;
  }

  private static StreamRecord<OrderChange> change(long day, int sign, String amount, long v) {
    return new StreamRecord<>(new OrderChange(day, sign, new BigDecimal(amount), v));
  }

  private static List<DailyTotals> drain(
      KeyedOneInputStreamOperatorTestHarness<Long, OrderChange, DailyTotals> h) {
    List<DailyTotals> out = new ArrayList<>(h.extractOutputValues());
    h.getOutput().clear();
    return out;
  }

  @Test
  void emitsEachChangedDayOnceBeforeTheBarrierAndReplaysTheSameAfterRestore() throws Exception {
    OperatorSubtaskState snapshot;
    List<DailyTotals> secondEpoch;
    try (var h = harness()) {
      h.open();
      h.processElement(change(10, 1, "5.00", 1));
      h.processElement(change(11, 1, "7.50", 1));
      h.processElement(change(10, 1, "2.25", 2));
      assertThat(h.extractOutputValues()).as("nothing mid-epoch").isEmpty();

      h.prepareSnapshotPreBarrier(1);
      assertThat(drain(h))
          .containsExactly(
              new DailyTotals(10, 2, new BigDecimal("7.25"), 2, 2),
              new DailyTotals(11, 1, new BigDecimal("7.50"), 1, 1));
      snapshot = h.snapshot(1, 0);

      // epoch 2: an order moves from day 10 to day 12, and day 11's only order is deleted
      h.processElement(change(10, -1, "-5.00", 3));
      h.processElement(change(12, 1, "5.00", 3));
      h.processElement(change(11, -1, "-7.50", 4));
      h.prepareSnapshotPreBarrier(2);
      secondEpoch = drain(h);
      assertThat(secondEpoch)
          .containsExactly(
              new DailyTotals(10, 1, new BigDecimal("2.25"), 3, 3),
              new DailyTotals(11, 0, new BigDecimal("0.00"), 4, 2),
              new DailyTotals(12, 1, new BigDecimal("5.00"), 3, 1));
      h.prepareSnapshotPreBarrier(3);
      assertThat(drain(h)).as("an epoch without changes emits nothing").isEmpty();
    }

    try (var restored = harness()) {
      restored.initializeState(snapshot);
      restored.open();
      // the replay of epoch 2, in another order
      restored.processElement(change(11, -1, "-7.50", 4));
      restored.processElement(change(12, 1, "5.00", 3));
      restored.processElement(change(10, -1, "-5.00", 3));
      restored.prepareSnapshotPreBarrier(2);
      assertThat(drain(restored)).isEqualTo(secondEpoch);
    }
  }
}
