package io.lakestream.operators.observe;

import io.lakestream.api.annotation.Internal;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One subtask's share of one aggregate in one epoch: the rows counted, and the sum, min and max of
 * their values. Shares merge by adding counts and sums and keeping the extremes, which is exact
 * whatever the order; the record the runner reads is {@link #toRecord}.
 */
@Internal
final class ObservedShare {
  long count;
  double sum;
  double min = Double.POSITIVE_INFINITY;
  double max = Double.NEGATIVE_INFINITY;

  void add(double value) {
    count++;
    sum += value;
    min = Math.min(min, value);
    max = Math.max(max, value);
  }

  /** {@code count} and {@code sum}, and {@code min}/{@code max} when a value was seen. */
  Map<String, Object> toRecord(ObservedAggregate.Kind kind) {
    Map<String, Object> record = new LinkedHashMap<>();
    record.put("kind", kind.name());
    record.put("count", count);
    record.put("sum", sum);
    if (count > 0
        && kind != ObservedAggregate.Kind.COUNT
        && kind != ObservedAggregate.Kind.COUNT_IF) {
      record.put("min", min);
      record.put("max", max);
    }
    return record;
  }
}
