package io.lakestream.operators.watermark;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Collectors;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.runtime.watermarkstatus.WatermarkStatus;
import org.apache.flink.streaming.util.AbstractStreamOperatorTestHarness;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

class WatermarkIdlenessTest {
  private static final long DELAY = 1_000;
  private static final long IDLE = 1_000;

  private static OneInputStreamOperatorTestHarness<Long, Long> harness(
      int parallelism, int subtask, long idleTimeout) throws Exception {
    OneInputStreamOperatorTestHarness<Long, Long> h =
        new OneInputStreamOperatorTestHarness<>(
            new PersistentWatermarkOperator<Long>(row -> row, DELAY, idleTimeout),
            128,
            parallelism,
            subtask);
    h.getExecutionConfig().setAutoWatermarkInterval(200);
    return h;
  }

  /** The output as readable events: W(ts), IDLE, ACTIVE, R(value). */
  private static List<String> events(OneInputStreamOperatorTestHarness<Long, Long> h) {
    return h.getOutput().stream()
        .map(
            o -> {
              if (o instanceof Watermark) {
                return "W" + ((Watermark) o).getTimestamp();
              }
              if (o instanceof WatermarkStatus) {
                return ((WatermarkStatus) o).isIdle() ? "IDLE" : "ACTIVE";
              }
              return "R" + ((StreamRecord<?>) o).getValue();
            })
        .collect(Collectors.toList());
  }

  @Test
  void aSubtaskWithoutRowsForTheTimeoutDeclaresItselfIdleAndTheNextRowReactivatesIt()
      throws Exception {
    try (OneInputStreamOperatorTestHarness<Long, Long> h = harness(1, 0, IDLE)) {
      h.setProcessingTime(0);
      h.open();
      h.processElement(new StreamRecord<>(5_000L)); // at processing time 0
      h.setProcessingTime(200); // watermark 4000
      h.setProcessingTime(800); // 800 ms without rows: still active
      assertThat(events(h)).containsExactly("R5000", "W4000");
      h.setProcessingTime(1_000); // 1000 ms without rows
      assertThat(events(h)).containsExactly("R5000", "W4000", "IDLE");
      h.setProcessingTime(5_000); // idle is announced once
      h.processElement(new StreamRecord<>(9_000L));
      h.setProcessingTime(5_200);
      assertThat(events(h)).containsExactly("R5000", "W4000", "IDLE", "ACTIVE", "R9000", "W8000");
    }
  }

  @Test
  void aSubtaskThatNeverSeesARowGoesIdleInsteadOfHoldingTheWatermarkAtMinusInfinity()
      throws Exception {
    try (OneInputStreamOperatorTestHarness<Long, Long> h = harness(1, 0, IDLE)) {
      h.setProcessingTime(0);
      h.open();
      h.setProcessingTime(800);
      assertThat(events(h)).isEmpty();
      h.setProcessingTime(1_000);
      assertThat(events(h)).containsExactly("IDLE");
    }
  }

  @Test
  void aSubtaskWithoutARowAtTheEndOfTheFirstEpochIsIdleWhateverTheTimeout() throws Exception {
    // more subtasks than partitions: a short availableNow run must not wait out a whole minute
    try (OneInputStreamOperatorTestHarness<Long, Long> never = harness(2, 1, 60_000);
        OneInputStreamOperatorTestHarness<Long, Long> active = harness(2, 0, 60_000)) {
      never.setProcessingTime(0);
      never.open();
      never.setProcessingTime(1_000);
      assertThat(events(never)).isEmpty();
      never.prepareSnapshotPreBarrier(1);
      assertThat(events(never)).containsExactly("IDLE");
      never.prepareSnapshotPreBarrier(2); // announced once
      assertThat(events(never)).containsExactly("IDLE");

      active.setProcessingTime(0);
      active.open();
      active.processElement(new StreamRecord<>(5_000L));
      active.setProcessingTime(1_000);
      active.prepareSnapshotPreBarrier(1); // a subtask that had rows keeps the full timeout
      active.setProcessingTime(59_800);
      assertThat(events(active)).containsExactly("R5000", "W4000");
      active.setProcessingTime(60_000);
      assertThat(events(active)).containsExactly("R5000", "W4000", "IDLE");
    }
  }

  @Test
  void idlenessCanBeDisabledAndUpstreamStatusesAreIgnored() throws Exception {
    try (OneInputStreamOperatorTestHarness<Long, Long> h = harness(1, 0, 0)) {
      h.setProcessingTime(0);
      h.open();
      h.processWatermarkStatus(WatermarkStatus.IDLE);
      h.setProcessingTime(600_000);
      assertThat(events(h)).isEmpty();
    }
  }

  @Test
  void restoreResumesAtTheMinimumOfTheActiveSubtasksNotOfAnIdleOne() throws Exception {
    OperatorSubtaskState active;
    OperatorSubtaskState idle;
    try (OneInputStreamOperatorTestHarness<Long, Long> h = harness(2, 0, IDLE)) {
      h.setProcessingTime(0);
      h.open();
      h.processElement(new StreamRecord<>(20_000L));
      h.setProcessingTime(200);
      active = h.snapshot(1, 1);
    }
    try (OneInputStreamOperatorTestHarness<Long, Long> h = harness(2, 1, IDLE)) {
      h.setProcessingTime(0);
      h.open();
      h.setProcessingTime(2_000);
      assertThat(events(h)).containsExactly("IDLE");
      idle = h.snapshot(1, 1);
    }
    OperatorSubtaskState merged = AbstractStreamOperatorTestHarness.repackageState(active, idle);
    for (int subtask = 0; subtask < 2; subtask++) {
      try (OneInputStreamOperatorTestHarness<Long, Long> restored = harness(2, subtask, IDLE)) {
        restored.initializeState(
            AbstractStreamOperatorTestHarness.repartitionOperatorState(merged, 128, 2, 2, subtask));
        restored.setProcessingTime(0);
        restored.open();
        restored.setProcessingTime(0);
        assertThat(events(restored)).containsExactly("W19000");
      }
    }
  }
}
