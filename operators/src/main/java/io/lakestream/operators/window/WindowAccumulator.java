package io.lakestream.operators.window;

import io.lakestream.api.annotation.Internal;

/**
 * The running aggregate of one window and group: {@code count(*)}, and over the value column (nulls
 * ignored, as SQL does) the number of non-null values, their sum, min and max. Mutable; state
 * copies are made by {@link WindowAccumulatorSerializer}.
 */
@Internal
public final class WindowAccumulator {
  long rows;
  long values;
  double sum;
  double min = Double.POSITIVE_INFINITY;
  double max = Double.NEGATIVE_INFINITY;

  public WindowAccumulator() {}

  WindowAccumulator(long rows, long values, double sum, double min, double max) {
    this.rows = rows;
    this.values = values;
    this.sum = sum;
    this.min = min;
    this.max = max;
  }

  /** Adds one row whose value column is {@code value} (null: counted as a row only). */
  public void add(Double value) {
    rows++;
    if (value != null) {
      values++;
      sum += value;
      min = Math.min(min, value);
      max = Math.max(max, value);
    }
  }

  public long rows() {
    return rows;
  }

  public long values() {
    return values;
  }

  /** Sum of the non-null values, or null if there were none. */
  public Double sum() {
    return values == 0 ? null : sum;
  }

  public Double min() {
    return values == 0 ? null : min;
  }

  public Double max() {
    return values == 0 ? null : max;
  }

  /** Average of the non-null values, or null if there were none. */
  public Double avg() {
    return values == 0 ? null : sum / values;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof WindowAccumulator)) {
      return false;
    }
    WindowAccumulator a = (WindowAccumulator) o;
    return rows == a.rows
        && values == a.values
        && Double.compare(sum, a.sum) == 0
        && Double.compare(min, a.min) == 0
        && Double.compare(max, a.max) == 0;
  }

  @Override
  public int hashCode() {
    return Long.hashCode(rows) * 31 + Long.hashCode(values);
  }

  @Override
  public String toString() {
    return "WindowAccumulator{rows=" + rows + ", values=" + values + ", sum=" + sum + "}";
  }
}
