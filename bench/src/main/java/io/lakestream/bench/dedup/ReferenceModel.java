package io.lakestream.bench.dedup;

import java.util.Arrays;
import java.util.BitSet;

/**
 * The rules the bench's jobs implement, computed directly on the {@link DedupWorkload} stream (in
 * event index order, with the ideal watermark max event time - delay after every row), so a run can
 * be checked against them:
 *
 * <ul>
 *   <li>{@code dropDuplicatesWithinWatermark(id)}: rows that pass, and the keys held in state
 *       (bound above the watermark) at fractions of the stream;
 *   <li>{@code dropDuplicates(id)}: rows that pass = distinct ids;
 *   <li>5-minute tumbling counts by {@code adId} in append mode: the windows a run has emitted once
 *       every row is in, given the watermark then (the minimum over the source subtasks of their
 *       largest event time, minus the delay), and the rows they count.
 * </ul>
 *
 * <p>Also the measured "ids per delay": distinct ids with an event in the delay-long window of
 * event time starting in the middle of the stream.
 */
public final class ReferenceModel {
  /** State samples at k / SAMPLES of the stream, k = 1..SAMPLES. */
  public static final int SAMPLES = 20;

  public static final long WINDOW_MILLIS = 5 * 60_000L;

  private final long passesWithinWatermark;
  private final long lateWithinWatermark;
  private final long distinctIds;
  private final long idsPerDelay;
  private final long[] heldKeys = new long[SAMPLES];
  private final long emittedWindows;
  private final long emittedWindowRows;
  private final long finalWatermark;

  private ReferenceModel(DedupWorkload w, int sourceSubtasks) {
    long delay = DedupWorkload.DELAY.toMillis();
    long[] bound = new long[(int) w.ids()];
    Arrays.fill(bound, Long.MIN_VALUE);
    BitSet seen = new BitSet((int) w.ids());
    BitSet inDelay = new BitSet((int) w.ids());
    long midStart = DedupWorkload.ORIGIN_MILLIS + DedupWorkload.SPAN.toMillis() / 2;
    long firstWindow =
        Math.floorDiv(DedupWorkload.ORIGIN_MILLIS - DedupWorkload.JITTER.toMillis(), WINDOW_MILLIS);
    int windows = (int) (DedupWorkload.SPAN.toMillis() / WINDOW_MILLIS + 2);
    long[] windowCounts = new long[windows * DedupWorkload.ADS];
    long[] subtaskMax = new long[sourceSubtasks];
    Arrays.fill(subtaskMax, Long.MIN_VALUE);
    long maxTime = Long.MIN_VALUE;
    long passes = 0;
    long late = 0;
    int nextSample = 0;
    for (long i = 0; i < w.events(); i++) {
      long ts = w.eventTime(i);
      int id = (int) w.id(i);
      maxTime = Math.max(maxTime, ts);
      int subtask = (int) (i % sourceSubtasks);
      subtaskMax[subtask] = Math.max(subtaskMax[subtask], ts);
      long watermark = maxTime - delay;
      seen.set(id);
      if (ts >= midStart && ts < midStart + delay) {
        inDelay.set(id);
      }
      windowCounts[
          (int) (Math.floorDiv(ts, WINDOW_MILLIS) - firstWindow) * DedupWorkload.ADS
              + id % DedupWorkload.ADS]++;
      if (ts < watermark) {
        late++;
      } else if (bound[id] <= watermark) {
        bound[id] = ts + delay;
        passes++;
      }
      while (nextSample < SAMPLES && (i + 1) * SAMPLES >= (nextSample + 1) * w.events()) {
        long held = 0;
        for (long b : bound) {
          if (b > watermark) {
            held++;
          }
        }
        heldKeys[nextSample++] = held;
      }
    }
    this.passesWithinWatermark = passes;
    this.lateWithinWatermark = late;
    this.distinctIds = seen.cardinality();
    this.idsPerDelay = inDelay.cardinality();
    long lowest = Long.MAX_VALUE;
    for (long m : subtaskMax) {
      lowest = Math.min(lowest, m);
    }
    this.finalWatermark = lowest - delay;
    long rows = 0;
    long sum = 0;
    for (int k = 0; k < windowCounts.length; k++) {
      long end = (firstWindow + k / DedupWorkload.ADS + 1) * WINDOW_MILLIS;
      if (windowCounts[k] > 0 && end <= finalWatermark) {
        rows++;
        sum += windowCounts[k];
      }
    }
    this.emittedWindows = rows;
    this.emittedWindowRows = sum;
  }

  /**
   * Runs the model over the whole stream (seconds for 20M events).
   *
   * @param sourceSubtasks how many source subtasks share the events round-robin (event {@code i}
   *     goes to {@code i % sourceSubtasks}), for the final watermark
   */
  public static ReferenceModel of(DedupWorkload workload, int sourceSubtasks) {
    return new ReferenceModel(workload, sourceSubtasks);
  }

  /** Rows {@code dropDuplicatesWithinWatermark(id)} emits. */
  public long passesWithinWatermark() {
    return passesWithinWatermark;
  }

  /** Rows behind the ideal watermark (0 for this workload: the jitter is far below the delay). */
  public long lateWithinWatermark() {
    return lateWithinWatermark;
  }

  /** Rows {@code dropDuplicates(id)} emits. */
  public long distinctIds() {
    return distinctIds;
  }

  /** Distinct ids with an event in the delay-long window starting mid-stream. */
  public long idsPerDelay() {
    return idsPerDelay;
  }

  /** Keys the within-watermark dedup holds after k / {@link #SAMPLES} of the stream. */
  public long heldKeysAt(int k) {
    return heldKeys[k - 1];
  }

  /** Mean of the held keys from 40% of the stream on (after 2 delays: steady). */
  public long plateau() {
    long sum = 0;
    int n = 0;
    for (int k = SAMPLES * 2 / 5; k <= SAMPLES; k++) {
      sum += heldKeysAt(k);
      n++;
    }
    return sum / n;
  }

  /** (window, adId) rows emitted in append mode once all events are in. */
  public long emittedWindows() {
    return emittedWindows;
  }

  /** The sum of the counts of those rows. */
  public long emittedWindowRows() {
    return emittedWindowRows;
  }

  /** The watermark after the last event, epoch ms. */
  public long finalWatermark() {
    return finalWatermark;
  }
}
