package io.lakestream.operators.watermark;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Collectors;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.AbstractStreamOperatorTestHarness;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

class PersistentWatermarkOperatorTest {
  private static final long DELAY = 1_000;

  private static OneInputStreamOperatorTestHarness<Long, Long> harness(int parallelism, int subtask)
      throws Exception {
    OneInputStreamOperatorTestHarness<Long, Long> h =
        new OneInputStreamOperatorTestHarness<>(
            new PersistentWatermarkOperator<Long>(row -> row, DELAY), 128, parallelism, subtask);
    h.getExecutionConfig().setAutoWatermarkInterval(200);
    return h;
  }

  private static List<Long> watermarks(OneInputStreamOperatorTestHarness<Long, Long> h) {
    return h.getOutput().stream()
        .filter(o -> o instanceof Watermark)
        .map(o -> ((Watermark) o).getTimestamp())
        .collect(Collectors.toList());
  }

  @Test
  void assignsEventTimeAndEmitsMaxMinusDelayEveryInterval() throws Exception {
    try (OneInputStreamOperatorTestHarness<Long, Long> h = harness(1, 0)) {
      h.open();
      h.processElement(new StreamRecord<>(5_000L));
      h.processElement(new StreamRecord<>(3_000L));
      h.setProcessingTime(0);
      h.processElement(new StreamRecord<>(9_000L));
      h.setProcessingTime(200);

      assertThat(
              h.getOutput().stream()
                  .filter(o -> o instanceof StreamRecord)
                  .map(o -> ((StreamRecord<?>) o).getTimestamp())
                  .toList())
          .containsExactly(5_000L, 3_000L, 9_000L);
      assertThat(watermarks(h)).containsExactly(4_000L, 8_000L);
    }
  }

  @Test
  void theWatermarkSurvivesASnapshotAndIsAnnouncedAtOnceOnRestore() throws Exception {
    OperatorSubtaskState snapshot;
    try (OneInputStreamOperatorTestHarness<Long, Long> h = harness(1, 0)) {
      h.open();
      h.processElement(new StreamRecord<>(60_000L));
      h.setProcessingTime(0);
      snapshot = h.snapshot(1, 1);
    }
    try (OneInputStreamOperatorTestHarness<Long, Long> restored = harness(1, 0)) {
      restored.initializeState(snapshot);
      restored.open();
      restored.setProcessingTime(0);
      assertThat(watermarks(restored)).containsExactly(59_000L);
      // late rows do not move it back; newer rows move it on
      restored.processElement(new StreamRecord<>(10_000L));
      restored.processElement(new StreamRecord<>(70_000L));
      restored.setProcessingTime(200);
      assertThat(watermarks(restored)).containsExactly(59_000L, 69_000L);
    }
  }

  @Test
  void afterAParallelismChangeEverySubtaskResumesAtTheMinimumOfTheStoredWatermarks()
      throws Exception {
    OperatorSubtaskState first;
    OperatorSubtaskState second;
    try (OneInputStreamOperatorTestHarness<Long, Long> h = harness(2, 0)) {
      h.open();
      h.processElement(new StreamRecord<>(20_000L));
      h.setProcessingTime(0);
      first = h.snapshot(1, 1);
    }
    try (OneInputStreamOperatorTestHarness<Long, Long> h = harness(2, 1)) {
      h.open();
      h.processElement(new StreamRecord<>(50_000L));
      h.setProcessingTime(0);
      second = h.snapshot(1, 1);
    }
    OperatorSubtaskState merged = AbstractStreamOperatorTestHarness.repackageState(first, second);
    try (OneInputStreamOperatorTestHarness<Long, Long> restored = harness(1, 0)) {
      restored.initializeState(
          AbstractStreamOperatorTestHarness.repartitionOperatorState(merged, 128, 2, 1, 0));
      restored.open();
      restored.setProcessingTime(0);
      assertThat(watermarks(restored)).containsExactly(19_000L);
    }
  }

  @Test
  void endOfInputPassesThroughButUpstreamWatermarksAreIgnored() throws Exception {
    try (OneInputStreamOperatorTestHarness<Long, Long> h = harness(1, 0)) {
      h.open();
      h.processWatermark(new Watermark(123));
      h.processWatermark(new Watermark(Long.MAX_VALUE));
      assertThat(watermarks(h)).containsExactly(Long.MAX_VALUE);
    }
  }

  @Test
  void aRestoredWatermarkGoesOutBeforeTheFirstRowEvenBeforeTheTimerFires() throws Exception {
    OperatorSubtaskState snapshot;
    try (OneInputStreamOperatorTestHarness<Long, Long> h = harness(1, 0)) {
      h.open();
      h.processElement(new StreamRecord<>(60_000L));
      h.setProcessingTime(0);
      snapshot = h.snapshot(1, 1);
    }
    try (OneInputStreamOperatorTestHarness<Long, Long> restored = harness(1, 0)) {
      restored.initializeState(snapshot);
      restored.setProcessingTime(100);
      restored.open(); // its timer is due but has not fired yet
      restored.processElement(new StreamRecord<>(61_000L));
      assertThat(restored.getOutput().peek()).isInstanceOf(Watermark.class);
      assertThat(watermarks(restored)).containsExactly(59_000L);
    }
  }
}
