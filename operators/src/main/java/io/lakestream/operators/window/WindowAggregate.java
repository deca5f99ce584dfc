package io.lakestream.operators.window;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.operators.row.Values;
import java.time.Instant;
import java.util.Objects;

/**
 * One output row of a windowed aggregation: the window {@code [windowStartMicros, windowEndMicros)}
 * (epoch microseconds), the group's key column values (in the order of the {@link
 * io.lakestream.operators.row.KeyColumns}), and the aggregates: {@code count} = {@code count(*)};
 * {@code valueCount}, {@code sum}, {@code min}, {@code max}, {@code avg} over the value column with
 * nulls ignored (null when the window saw no non-null value, or no value column was given). Sums
 * are doubles, exact for integers up to 2^53.
 *
 * <p>In update and complete mode the same (window, key) appears again with newer values: it is an
 * upsert keyed by {@code (windowStartMicros, windowEndMicros, key)}. The record's Flink timestamp
 * is the window's last millisecond.
 *
 * <p>A Flink POJO: public fields, no-arg constructor; {@code key} uses the {@link Values}
 * serializer, so no field goes through Kryo.
 */
@PublicEvolving
public class WindowAggregate {
  public long windowStartMicros;
  public long windowEndMicros;
  public Values key;
  public long count;
  public long valueCount;
  public Double sum;
  public Double min;
  public Double max;
  public Double avg;

  public WindowAggregate() {}

  static WindowAggregate of(Values key, long startMicros, long endMicros, WindowAccumulator acc) {
    WindowAggregate a = new WindowAggregate();
    a.windowStartMicros = startMicros;
    a.windowEndMicros = endMicros;
    a.key = key;
    a.count = acc.rows();
    a.valueCount = acc.values();
    a.sum = acc.sum();
    a.min = acc.min();
    a.max = acc.max();
    a.avg = acc.avg();
    return a;
  }

  /** The window start as an instant. */
  public Instant windowStart() {
    return Instant.EPOCH.plusNanos(Math.multiplyExact(windowStartMicros, 1_000L));
  }

  /** The window end (exclusive) as an instant. */
  public Instant windowEnd() {
    return Instant.EPOCH.plusNanos(Math.multiplyExact(windowEndMicros, 1_000L));
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof WindowAggregate)) {
      return false;
    }
    WindowAggregate a = (WindowAggregate) o;
    return windowStartMicros == a.windowStartMicros
        && windowEndMicros == a.windowEndMicros
        && count == a.count
        && valueCount == a.valueCount
        && Objects.equals(key, a.key)
        && Objects.equals(sum, a.sum)
        && Objects.equals(min, a.min)
        && Objects.equals(max, a.max)
        && Objects.equals(avg, a.avg);
  }

  @Override
  public int hashCode() {
    return Objects.hash(windowStartMicros, key, count);
  }

  @Override
  public String toString() {
    return "WindowAggregate{["
        + windowStartMicros
        + ", "
        + windowEndMicros
        + ") "
        + key
        + " count="
        + count
        + " sum="
        + sum
        + " min="
        + min
        + " max="
        + max
        + "}";
  }
}
