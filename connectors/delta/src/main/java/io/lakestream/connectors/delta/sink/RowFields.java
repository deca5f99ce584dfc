package io.lakestream.connectors.delta.sink;

import java.io.Serializable;

/**
 * Turns a stream element into a Delta row: values in the table's declared column order (partition
 * columns included), as the Java types {@link io.lakestream.connectors.delta.DeltaColumnType}
 * accepts. Must be deterministic.
 *
 * @param <T> the stream's element type
 */
@FunctionalInterface
public interface RowFields<T> extends Serializable {
  Object[] toRow(T element);
}
