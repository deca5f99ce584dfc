package io.lakestream.operators.window;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.operators.TestEvent;
import io.lakestream.operators.row.Values;
import io.lakestream.state.query.OutputMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

/**
 * For random out-of-order streams, random watermarks, tumbling and sliding windows (and a
 * snapshot/restore in the middle of every other case), append mode's output equals a batch
 * computation (count and sum per key and window) over the rows, per window, that were not late:
 * those that arrived while their window was still open (window end &gt; watermark). It also checks
 * the emission points: right after each watermark, exactly the windows whose end it reached have
 * been emitted, each once.
 */
class WindowAggregationPropertyTest {
  private static final int CASES = 150;

  @Test
  void appendModeEqualsABatchComputationOverTheRowsThatWereNotLate() throws Exception {
    for (int c = 0; c < CASES; c++) {
      long seed = 5_000L + c;
      Random random = new Random(seed);
      long slideMs = 1 + random.nextInt(3_000);
      long sizeMs = random.nextBoolean() ? slideMs : slideMs * (1 + random.nextInt(4));
      WindowSpec spec = WindowSpec.sliding(sizeMs + " milliseconds", slideMs + " milliseconds");
      long delay = random.nextInt(4_000);
      int keys = 1 + random.nextInt(8);
      int rows = 1 + random.nextInt(300);
      List<Object> stream = new ArrayList<>();
      long maxTs = 0;
      long watermark = Long.MIN_VALUE;
      for (int i = 0; i < rows; i++) {
        long ts = Math.max(0, maxTs + random.nextInt(800) - random.nextInt(2_000));
        if (random.nextInt(4) == 0) {
          ts -= ts % slideMs; // on a window boundary
        }
        maxTs = Math.max(maxTs, ts);
        stream.add(TestEvent.of("k" + random.nextInt(keys), ts, random.nextInt(100)));
        long candidate = maxTs - delay;
        if (random.nextBoolean()) {
          candidate -= Math.floorMod(candidate, slideMs); // exactly at a window end
        }
        if (random.nextInt(8) == 0 && candidate > watermark) {
          watermark = candidate;
          stream.add(new Watermark(watermark));
        }
      }
      stream.add(new Watermark(Long.MAX_VALUE));
      int restoreAt = c % 2 == 0 ? random.nextInt(stream.size()) : -1;
      check(spec, stream, restoreAt, "seed " + seed + ", " + spec + ", restore at " + restoreAt);
    }
  }

  /** key|start -> "count/sum" for the (row, window) pairs that were not late. */
  private static Map<String, String> batch(
      WindowSpec spec, List<Object> stream, int upTo, long untilEndMicros) {
    Map<String, long[]> groups = new TreeMap<>();
    long watermark = Long.MIN_VALUE;
    for (Object o : stream.subList(0, upTo)) {
      if (o instanceof Watermark) {
        watermark = ((Watermark) o).getTimestamp();
        continue;
      }
      TestEvent row = (TestEvent) o;
      long tsMicros = row.ts * 1_000;
      long first =
          Math.floorDiv(tsMicros - spec.sizeMicros(), spec.slideMicros()) * spec.slideMicros();
      for (long start = first; start <= tsMicros; start += spec.slideMicros()) {
        // brute force over all aligned starts: the window contains the row and was open
        long end = start + spec.sizeMicros();
        boolean contains = start <= tsMicros && tsMicros < end;
        boolean open = watermark == Long.MIN_VALUE || end > watermark * 1_000;
        if (contains && open && end <= untilEndMicros) {
          long[] g = groups.computeIfAbsent(row.key + "|" + start, k -> new long[2]);
          g[0]++;
          g[1] += row.value.longValue();
        }
      }
    }
    Map<String, String> result = new TreeMap<>();
    groups.forEach((k, g) -> result.put(k, g[0] + "/" + (double) g[1]));
    return result;
  }

  private static void check(WindowSpec spec, List<Object> stream, int restoreAt, String what)
      throws Exception {
    Map<String, String> emitted = new TreeMap<>();
    KeyedOneInputStreamOperatorTestHarness<Values, TestEvent, WindowAggregate> h = open(spec, null);
    Watermark last = null;
    for (int i = 0; i < stream.size(); i++) {
      if (i == restoreAt) {
        OperatorSubtaskState snapshot = h.snapshot(1, 1);
        drain(h, emitted, what);
        h.close();
        h = open(spec, snapshot);
        if (last != null) {
          h.processWatermark(last);
        }
      }
      Object o = stream.get(i);
      if (o instanceof Watermark) {
        last = (Watermark) o;
        h.processWatermark(last);
        drain(h, emitted, what);
        long reached = WindowAggregationOperator.toMicros(last.getTimestamp());
        assertThat(emitted).as(what + " after " + last).isEqualTo(batch(spec, stream, i, reached));
      } else {
        TestEvent row = (TestEvent) o;
        h.processElement(new StreamRecord<>(row, row.ts));
      }
    }
    drain(h, emitted, what);
    h.close();
    assertThat(emitted).as(what).isEqualTo(batch(spec, stream, stream.size(), Long.MAX_VALUE));
  }

  private static void drain(
      KeyedOneInputStreamOperatorTestHarness<Values, TestEvent, WindowAggregate> h,
      Map<String, String> emitted,
      String what) {
    for (WindowAggregate a : h.extractOutputValues()) {
      String previous =
          emitted.put(a.key.get(0) + "|" + a.windowStartMicros, a.count + "/" + a.sum);
      assertThat(previous).as(what + ": window emitted twice: " + a).isNull();
    }
    h.getOutput().clear();
  }

  private static KeyedOneInputStreamOperatorTestHarness<Values, TestEvent, WindowAggregate> open(
      WindowSpec spec, OperatorSubtaskState snapshot) throws Exception {
    KeyedOneInputStreamOperatorTestHarness<Values, TestEvent, WindowAggregate> h =
        WindowAggregationOperatorTest.harness(
            new WindowAggregationOperator<>(
                spec, e -> e.value, null, OutputMode.APPEND, "agg", null));
    if (snapshot != null) {
      h.initializeState(snapshot);
    }
    h.open();
    return h;
  }
}
