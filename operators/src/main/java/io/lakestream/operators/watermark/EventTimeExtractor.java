package io.lakestream.operators.watermark;

import java.io.Serializable;

/**
 * Reads a row's event time, in epoch milliseconds. Must be deterministic.
 *
 * @param <T> the row type
 */
@FunctionalInterface
public interface EventTimeExtractor<T> extends Serializable {
  long eventTimeMillis(T row);
}
