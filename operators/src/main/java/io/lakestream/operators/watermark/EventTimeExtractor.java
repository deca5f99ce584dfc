package io.lakestream.operators.watermark;

import io.lakestream.api.annotation.PublicEvolving;
import java.io.Serializable;

/**
 * Reads a row's event time, in epoch milliseconds. Must be deterministic.
 *
 * @param <T> the row type
 */
@PublicEvolving
@FunctionalInterface
public interface EventTimeExtractor<T> extends Serializable {
  long eventTimeMillis(T row);
}
