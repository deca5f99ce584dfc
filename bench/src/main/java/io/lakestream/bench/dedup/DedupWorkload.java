package io.lakestream.bench.dedup;

import java.io.Serializable;
import java.time.Duration;
import java.util.Locale;

/**
 * The deterministic event stream of the dedup-state bench: event {@code i} of {@code events} is a
 * pure function of {@code i} ({@link #at(long)}), so the Flink job and the {@link ReferenceModel}
 * see the same stream.
 *
 * <p>Shape: event time advances evenly over {@link #SPAN} (1 h) from {@link #ORIGIN_MILLIS}, minus
 * a per-event jitter of up to {@link #JITTER} (out of order, never late: the jitter is far below
 * the delay). The watermark delay is {@link #DELAY} (10 minutes), so the stream spans 6 delays: 1 h
 * of event time per 10 minutes of delay. The {@code ids} distinct ids are ranked; rank {@code r}
 * has a home time {@code r * SPAN / ids - BURST}, and occurs in a burst {@code [home, home +
 * BURST)} (about {@code 0.8 * events / ids} events, so duplicates within the delay), and every
 * fourth rank once more in a second burst {@link #REAPPEAR} later (beyond the delay: the dedup must
 * let it pass again). Ranks that fall off either end wrap around, which only adds bursts far from
 * the id's others. Rank to id is a fixed permutation, so ids are not ordered by time.
 *
 * <p>The gaps are chosen so that the rule's result does not depend on how the watermark trails in a
 * real run: within a burst every repeat is at most {@code BURST + JITTER} after the first row, far
 * inside the bound; between bursts there are at least {@code REAPPEAR - BURST} (23 minutes), more
 * than the 2 delays after which the key is freed plus a 3-minute margin.
 */
public final class DedupWorkload implements Serializable {
  private static final long serialVersionUID = 1L;

  public static final Duration DELAY = Duration.ofMinutes(10);
  public static final Duration SPAN = Duration.ofHours(1);
  public static final Duration BURST = Duration.ofMinutes(5);
  public static final Duration REAPPEAR = Duration.ofMinutes(30);
  public static final Duration JITTER = Duration.ofSeconds(10);

  /** 2026-01-01T00:02:30Z: off the 5-minute window grid, so the last window is clearly open. */
  public static final long ORIGIN_MILLIS = 1_767_225_600_000L + 150_000L;

  /** Number of distinct {@code adId}s of the E5-style aggregation. */
  public static final int ADS = 1_000;

  private static final int SECOND_BURST_EVERY = 4;

  private final long events;
  private final long ids;
  private final long span = SPAN.toMillis();
  private final long burst = BURST.toMillis();
  private final long reappear = REAPPEAR.toMillis();
  private final long jitter = JITTER.toMillis();
  private final long window; // ranks in a first burst at any time
  private final long multiplier; // rank -> id permutation

  public DedupWorkload(long events, long ids) {
    if (events < 1 || ids < 100) {
      throw new IllegalArgumentException(
          "dedup-state needs --events >= 1 and --ids >= 100, got " + events + " and " + ids);
    }
    this.events = events;
    this.ids = ids;
    this.window = Math.max(SECOND_BURST_EVERY, ids * burst / span);
    long m = 0x9E3779B97F4A7C15L % ids;
    while (gcd(m, ids) != 1) {
      m++;
    }
    this.multiplier = m;
  }

  public long events() {
    return events;
  }

  public long ids() {
    return ids;
  }

  /** Event {@code i} (0-based). */
  public DedupEvent at(long i) {
    long id = id(i);
    return new DedupEvent(id, id % ADS, eventTime(i));
  }

  /** Event time of event {@code i}, epoch milliseconds. */
  public long eventTime(long i) {
    return ORIGIN_MILLIS + offset(i) - (mix(i) >>> 40) % jitter;
  }

  /** Dedup key of event {@code i}. */
  public long id(long i) {
    long h = mix(i);
    long t = offset(i);
    long slot = (h & 0xFFFF_FFFFL) % (window + window / SECOND_BURST_EVERY);
    long rank;
    if (slot < window) {
      rank = rankAt(t) - slot;
    } else {
      long newest = Math.floorDiv(rankAt(t - reappear), SECOND_BURST_EVERY) * SECOND_BURST_EVERY;
      rank = newest - SECOND_BURST_EVERY * (slot - window);
    }
    return Math.floorMod(Math.floorMod(rank, ids) * multiplier, ids);
  }

  /** Base event time of event {@code i} relative to the origin (before the jitter). */
  private long offset(long i) {
    return Math.multiplyExact(i, span) / events;
  }

  /** The newest rank whose burst has started at relative time {@code t}. */
  private long rankAt(long t) {
    return Math.floorDiv(Math.multiplyExact(t + burst, ids), span);
  }

  /**
   * Expected number of distinct ids with at least one event in one delay-long window of event time
   * in the middle of the stream ("ids per delay"), from the parameters: ids whose burst overlaps
   * the window, each counted with the probability that one of its events falls into the overlap
   * (burst rows arrive at rate {@code lambda} per id).
   */
  public double expectedIdsPerDelay() {
    double d = DELAY.toMillis();
    double b = burst;
    double lambda = perIdRate();
    double covered =
        (d - b) * (1 - Math.exp(-lambda * b)) + 2 * b - 2 * (1 - Math.exp(-lambda * b)) / lambda;
    double homesPerMilli = (double) ids / span * (1 + 1.0 / SECOND_BURST_EVERY);
    return homesPerMilli * covered;
  }

  /**
   * Expected keys the dedup operator holds once steady: a key's first row sets its bound to event
   * time + delay, and the watermark (max event time - delay) passes that bound only 2 delays after
   * the row, so the state holds the keys that passed within the last 2 delays of event time.
   */
  public double expectedPlateau() {
    return (double) ids / span * (1 + 1.0 / SECOND_BURST_EVERY) * 2 * DELAY.toMillis();
  }

  /** Expected rows per burst and id. */
  public double rowsPerBurst() {
    return perIdRate() * burst;
  }

  private double perIdRate() {
    double rowsPerMilli = (double) events / span;
    return rowsPerMilli * window / (window + window / SECOND_BURST_EVERY) / window;
  }

  public String describe() {
    return String.format(
        Locale.ROOT,
        "%,d events over %,d ids; event time %s from %s (+ up to %s jitter back), watermark delay"
            + " %s (1 h of event time per 10 min of delay); each id in a %s burst (~%.1f rows),"
            + " every 4th id again %s later",
        events,
        ids,
        SPAN,
        java.time.Instant.ofEpochMilli(ORIGIN_MILLIS),
        JITTER,
        DELAY,
        BURST,
        rowsPerBurst(),
        REAPPEAR);
  }

  private static long mix(long i) {
    long z = i + 0x9E3779B97F4A7C15L;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  private static long gcd(long a, long b) {
    return b == 0 ? a : gcd(b, a % b);
  }
}
