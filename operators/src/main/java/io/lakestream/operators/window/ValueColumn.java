package io.lakestream.operators.window;

import io.lakestream.api.annotation.PublicEvolving;
import java.io.Serializable;

/**
 * Reads the aggregated column of a row as a double, or null (ignored by sum/min/max/avg and by
 * {@code valueCount}, counted by {@code count}). Convert other numeric types here, for example
 * {@code o -> o.amount == null ? null : o.amount.doubleValue()}. Must be deterministic.
 */
@PublicEvolving
@FunctionalInterface
public interface ValueColumn<T> extends Serializable {
  Double value(T row);
}
