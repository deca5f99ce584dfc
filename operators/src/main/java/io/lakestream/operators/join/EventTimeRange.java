package io.lakestream.operators.join;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.operators.OperatorErrorClass;
import java.io.Serializable;
import java.time.Duration;

/**
 * The event-time condition of a stream-stream join, Spark's {@code leftTime BETWEEN rightTime -
 * INTERVAL lower AND rightTime + INTERVAL upper}: a left row at {@code tL} and a right row at
 * {@code tR} (epoch millis, both ends inclusive) match when {@code tR - lower <= tL <= tR + upper}.
 *
 * <p>It is what bounds the join's state: a left row can only match right rows with {@code tR <= tL
 * + lower}, so once the watermark is above {@code tL + lower} no future (non-late) right row can
 * match it and it leaves state; a right row leaves once the watermark is above {@code tR + upper}.
 */
@PublicEvolving
public final class EventTimeRange implements Serializable {
  private static final long serialVersionUID = 1L;

  private final long lowerMillis;
  private final long upperMillis;

  private EventTimeRange(long lowerMillis, long upperMillis) {
    this.lowerMillis = lowerMillis;
    this.upperMillis = upperMillis;
  }

  /**
   * {@code leftTime BETWEEN rightTime - lower AND rightTime + upper}. Either bound may be negative
   * (e.g. {@code lower = 1 hour, upper = -1 minute} means "left between one hour and one minute
   * before right"), but the range may not be empty.
   *
   * @throws LakestreamException ({@code INVALID_STREAM_JOIN}) if {@code -lower > upper} (no pair
   *     could ever match)
   */
  public static EventTimeRange leftTimeBetween(Duration lower, Duration upper) {
    long l = lower.toMillis();
    long u = upper.toMillis();
    if (-l > u) {
      throw new LakestreamException(
          OperatorErrorClass.INVALID_STREAM_JOIN,
          "the join time range leftTime BETWEEN rightTime - "
              + lower
              + " AND rightTime + "
              + upper
              + " is empty: no pair of rows could match. The lower end (rightTime - lower) must"
              + " not be after the upper end (rightTime + upper).");
    }
    return new EventTimeRange(l, u);
  }

  /** Whether a left row at {@code leftTime} and a right row at {@code rightTime} match. */
  public boolean matches(long leftTime, long rightTime) {
    return leftTime >= saturatedAdd(rightTime, -lowerMillis)
        && leftTime <= saturatedAdd(rightTime, upperMillis);
  }

  /** The latest right time a left row at {@code leftTime} can match; it expires above it. */
  public long leftExpiry(long leftTime) {
    return saturatedAdd(leftTime, lowerMillis);
  }

  /** The latest left time a right row at {@code rightTime} can match; it expires above it. */
  public long rightExpiry(long rightTime) {
    return saturatedAdd(rightTime, upperMillis);
  }

  static long saturatedAdd(long a, long b) {
    long r = a + b;
    if (((a ^ r) & (b ^ r)) < 0) {
      return a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
    return r;
  }

  @Override
  public String toString() {
    return "leftTime BETWEEN rightTime - "
        + Duration.ofMillis(lowerMillis)
        + " AND rightTime + "
        + Duration.ofMillis(upperMillis);
  }
}
