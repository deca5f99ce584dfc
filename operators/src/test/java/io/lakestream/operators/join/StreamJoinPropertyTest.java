package io.lakestream.operators.join;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.operators.TestEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.junit.jupiter.api.Test;

/**
 * For random out-of-order two-sided streams with random watermark advances, random time ranges
 * (negative bounds included) and a snapshot/restore in the middle of every other case, the inner
 * and left outer join's output equals a reference model over the rows that were not late (event
 * time >= watermark on arrival): all same-key pairs in range, plus for left outer every left row
 * without such a pair, with nulls, emitted by the first watermark above its expiry (tL + lower) and
 * not before. State is empty once the watermark passes everything.
 */
class StreamJoinPropertyTest {
  private static final int CASES = 150;

  /** One input event: a left or right row, or a watermark. */
  private record Event(boolean left, TestEvent row, Watermark watermark) {}

  @Test
  void innerAndLeftOuterOutputEqualsTheReferenceModel() throws Exception {
    for (int c = 0; c < CASES; c++) {
      long seed = 7_000L + c;
      Random random = new Random(seed);
      long lower = random.nextInt(4_000) - 1_000;
      long upper = Math.max(-lower, random.nextInt(4_000) - 1_000);
      EventTimeRange range =
          EventTimeRange.leftTimeBetween(Duration.ofMillis(lower), Duration.ofMillis(upper));
      long delay = random.nextInt(3_000);
      int keys = 1 + random.nextInt(8);
      int rows = 1 + random.nextInt(300);
      List<Event> stream = new ArrayList<>();
      long maxTs = 0;
      long watermark = Long.MIN_VALUE;
      for (int i = 0; i < rows; i++) {
        long ts = Math.max(0, maxTs + random.nextInt(800) - random.nextInt(1_200));
        maxTs = Math.max(maxTs, ts);
        stream.add(
            new Event(random.nextBoolean(), TestEvent.of("k" + random.nextInt(keys), ts, i), null));
        if (random.nextInt(8) == 0 && maxTs - delay > watermark) {
          watermark = maxTs - delay;
          stream.add(new Event(false, null, new Watermark(watermark)));
        }
      }
      stream.add(new Event(false, null, new Watermark(Long.MAX_VALUE)));
      int restoreAt = c % 2 == 0 ? random.nextInt(stream.size()) : -1;
      for (JoinType type : new JoinType[] {JoinType.INNER, JoinType.LEFT_OUTER}) {
        String what = "seed " + seed + ", " + type + ", " + range + ", restore at " + restoreAt;
        check(stream, type, range, restoreAt, what);
      }
    }
  }

  private static void check(
      List<Event> stream, JoinType type, EventTimeRange range, int restoreAt, String what)
      throws Exception {
    // the reference model: non-late rows, their pairs, unmatched left rows
    List<TestEvent> lefts = new ArrayList<>();
    List<TestEvent> rights = new ArrayList<>();
    long wm = Long.MIN_VALUE;
    for (Event e : stream) {
      if (e.watermark != null) {
        wm = e.watermark.getTimestamp();
      } else if (e.row.ts >= wm) {
        (e.left ? lefts : rights).add(e.row);
      }
    }
    List<JoinedRow<TestEvent, TestEvent>> pairs = new ArrayList<>();
    List<TestEvent> unmatched = new ArrayList<>();
    for (TestEvent l : lefts) {
      boolean matched = false;
      for (TestEvent r : rights) {
        if (l.key.equals(r.key) && range.matches(l.ts, r.ts)) {
          pairs.add(new JoinedRow<>(l, r));
          matched = true;
        }
      }
      if (!matched) {
        unmatched.add(l);
      }
    }

    List<JoinedRow<TestEvent, TestEvent>> out = new ArrayList<>();
    StreamJoinOperator<TestEvent, TestEvent> op = StreamJoinOperatorTest.operator(type, range);
    var h = StreamJoinOperatorTest.harness(op, null);
    Watermark last = null;
    java.util.Set<TestEvent> arrived = new java.util.HashSet<>();
    for (int i = 0; i < stream.size(); i++) {
      if (i == restoreAt) {
        OperatorSubtaskState snapshot = h.snapshot(1, 1);
        out.addAll(StreamJoinOperatorTest.out(h));
        h.close();
        op = StreamJoinOperatorTest.operator(type, range);
        h = StreamJoinOperatorTest.harness(op, snapshot);
        if (last != null) {
          h.processBothWatermarks(last); // withWatermark re-announces its restored watermark
        }
      }
      Event e = stream.get(i);
      if (e.watermark != null) {
        last = e.watermark;
        h.processBothWatermarks(last);
        if (type == JoinType.LEFT_OUTER) {
          long w = last.getTimestamp();
          List<JoinedRow<TestEvent, TestEvent>> soFar = new ArrayList<>(out);
          soFar.addAll(StreamJoinOperatorTest.out(h));
          List<TestEvent> emittedNulls =
              soFar.stream().filter(p -> p.right == null).map(p -> p.left).toList();
          List<TestEvent> due =
              unmatched.stream()
                  .filter(l -> arrived.contains(l) && range.leftExpiry(l.ts) < w)
                  .toList();
          assertThat(emittedNulls)
              .as("%s: null rows by watermark %d", what, w)
              .containsExactlyInAnyOrderElementsOf(due);
        }
      } else if (e.left) {
        arrived.add(e.row);
        h.processElement1(new StreamRecord<>(e.row, e.row.ts));
      } else {
        h.processElement2(new StreamRecord<>(e.row, e.row.ts));
      }
    }
    out.addAll(StreamJoinOperatorTest.out(h));
    assertThat(op.metrics().numRowsTotal()).as("%s: rows left in state", what).isZero();
    assertThat(h.numKeyedStateEntries()).as(what).isZero();
    h.close();

    List<JoinedRow<TestEvent, TestEvent>> expected = new ArrayList<>(pairs);
    if (type == JoinType.LEFT_OUTER) {
      unmatched.forEach(l -> expected.add(new JoinedRow<>(l, null)));
    }
    assertThat(out).as(what).containsExactlyInAnyOrderElementsOf(expected);
  }
}
