package io.lakestream.connectors.schema;

import io.lakestream.api.annotation.PublicEvolving;
import java.io.Serializable;

/**
 * Turns a stream element into a row for a sink: one value per column of the sink's {@link
 * RowSchema}, in its column order (for a Delta table, partition columns included), as the Java
 * values {@link ColumnType} lists for each type. Must be deterministic. Sinks may keep the returned
 * array until they flush, so return a new array per element.
 *
 * @param <T> the stream's element type
 */
@PublicEvolving
@FunctionalInterface
public interface RowFields<T> extends Serializable {
  /** The element's values in column order. */
  Object[] toRow(T element);
}
