package io.lakestream.operators.dedup;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.operators.TestEvent;
import io.lakestream.operators.row.Values;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

/**
 * For random out-of-order streams with random watermark advances (and a snapshot/restore in the
 * middle of every other case), the operator's output equals the rule stated directly: a row passes
 * iff it is not late (event time >= watermark) and no earlier passed row with the same key has a
 * bound (event time + delay) above the watermark at this row's arrival.
 */
class WatermarkDeduplicatorPropertyTest {
  private static final int CASES = 200;

  @Test
  void outputEqualsTheReferenceModelOfTheRule() throws Exception {
    for (int c = 0; c < CASES; c++) {
      long seed = 1_000L + c;
      Random random = new Random(seed);
      long delay = 1 + random.nextInt(5_000);
      int keys = 1 + random.nextInt(20);
      int rows = 1 + random.nextInt(400);
      List<Object> stream = new ArrayList<>(); // TestEvent or Watermark
      long maxTs = 0;
      long watermark = Long.MIN_VALUE;
      for (int i = 0; i < rows; i++) {
        long ts = Math.max(0, maxTs + random.nextInt(1_000) - random.nextInt(1_500));
        maxTs = Math.max(maxTs, ts);
        stream.add(TestEvent.of("k" + random.nextInt(keys), ts));
        if (random.nextInt(10) == 0 && maxTs - delay > watermark) {
          watermark = maxTs - delay;
          stream.add(new Watermark(watermark));
        }
      }
      int restoreAt = c % 2 == 0 ? random.nextInt(stream.size()) : -1;

      List<TestEvent> expected = reference(stream, delay);
      List<TestEvent> actual = run(stream, delay, restoreAt);
      assertThat(actual).as("seed %d, restore at %d", seed, restoreAt).isEqualTo(expected);
    }
  }

  private static List<TestEvent> reference(List<Object> stream, long delay) {
    List<TestEvent> passed = new ArrayList<>();
    long watermark = Long.MIN_VALUE;
    for (Object o : stream) {
      if (o instanceof Watermark) {
        watermark = ((Watermark) o).getTimestamp();
        continue;
      }
      TestEvent row = (TestEvent) o;
      if (row.ts < watermark) {
        continue;
      }
      final long w = watermark;
      boolean duplicate = passed.stream().anyMatch(p -> p.key.equals(row.key) && p.ts + delay > w);
      if (!duplicate) {
        passed.add(row);
      }
    }
    return passed;
  }

  private static List<TestEvent> run(List<Object> stream, long delay, int restoreAt)
      throws Exception {
    List<TestEvent> out = new ArrayList<>();
    KeyedOneInputStreamOperatorTestHarness<Values, TestEvent, TestEvent> h = open(delay, null);
    Watermark last = null;
    int watermarks = 0;
    for (int i = 0; i < stream.size(); i++) {
      if (i == restoreAt) {
        OperatorSubtaskState snapshot = h.snapshot(1, 1);
        collect(h, out);
        h.close();
        h = open(delay, snapshot);
        if (last != null) {
          // withWatermark re-announces its restored watermark before any row
          h.processWatermark(last);
        }
      }
      Object o = stream.get(i);
      if (o instanceof Watermark) {
        last = (Watermark) o;
        h.processWatermark(last);
        if (++watermarks % 2 == 1) {
          continue; // expired keys stay until an epoch ends: rows must still pass for them
        }
        h.prepareSnapshotPreBarrier(watermarks);
        // state holds exactly the keys whose latest passed row's bound is above the watermark
        List<TestEvent> passedSoFar = new ArrayList<>(out);
        passedSoFar.addAll(WatermarkDeduplicatorTest.passed(h));
        java.util.Map<String, Long> bounds = new java.util.HashMap<>();
        passedSoFar.forEach(p -> bounds.put(p.key, p.ts + delay));
        long w = last.getTimestamp();
        long live = bounds.values().stream().filter(b -> b > w).count();
        assertThat(h.numKeyedStateEntries()).as("state after %s", last).isEqualTo((int) live);
        assertThat(((WatermarkDeduplicator<?>) h.getOneInputOperator()).metrics().numRowsTotal())
            .isEqualTo(live);
      } else {
        TestEvent row = (TestEvent) o;
        h.processElement(new StreamRecord<>(row, row.ts));
      }
    }
    collect(h, out);
    h.close();
    return out;
  }

  private static KeyedOneInputStreamOperatorTestHarness<Values, TestEvent, TestEvent> open(
      long delay, OperatorSubtaskState snapshot) throws Exception {
    KeyedOneInputStreamOperatorTestHarness<Values, TestEvent, TestEvent> h =
        WatermarkDeduplicatorTest.harness(new WatermarkDeduplicator<>(delay, "dedup", null));
    if (snapshot != null) {
      h.initializeState(snapshot);
    }
    h.open();
    return h;
  }

  private static void collect(
      KeyedOneInputStreamOperatorTestHarness<Values, TestEvent, TestEvent> h, List<TestEvent> out) {
    out.addAll(WatermarkDeduplicatorTest.passed(h));
  }
}
