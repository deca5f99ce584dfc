package io.lakestream.connectors.lakebase;

import java.io.Serializable;
import org.apache.flink.types.Row;

/**
 * Turns a stream element into a row for the Lakebase sink: values in the order of the {@link
 * LakebaseSchema}'s columns, as the Java types {@link PostgresColumnType} accepts. Must be
 * deterministic. The writer keeps the returned array until the batch is flushed, so return a new
 * array per element.
 *
 * @param <T> the stream's element type
 */
@FunctionalInterface
public interface LakebaseRowFields<T> extends Serializable {
  Object[] toRow(T element);

  /**
   * Reads Flink {@link Row}s: by field name when the row has names, else by position.
   *
   * @throws IllegalArgumentException (when writing) if a named row lacks a column
   */
  static LakebaseRowFields<Row> ofRows(LakebaseSchema schema) {
    String[] names = schema.columnNames().toArray(new String[0]);
    return row -> {
      Object[] values = new Object[names.length];
      if (row.getFieldNames(false) != null) {
        for (int i = 0; i < names.length; i++) {
          values[i] = row.getField(names[i]);
        }
      } else {
        for (int i = 0; i < names.length; i++) {
          values[i] = row.getField(i);
        }
      }
      return values;
    };
  }
}
