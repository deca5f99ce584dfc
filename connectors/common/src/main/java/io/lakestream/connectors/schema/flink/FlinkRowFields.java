package io.lakestream.connectors.schema.flink;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.connectors.schema.RowFields;
import io.lakestream.connectors.schema.RowSchema;
import org.apache.flink.types.Row;

/** The {@link RowFields} of Flink {@link Row}s. */
@PublicEvolving
public final class FlinkRowFields {
  private FlinkRowFields() {}

  /**
   * Reads Flink rows for a sink of {@code schema}: by field name when the row has names, else by
   * position.
   *
   * <p>A named row that lacks a column fails the write with Flink's {@link
   * IllegalArgumentException}; a positional row with fewer fields than the schema fails with an
   * {@link IndexOutOfBoundsException}.
   */
  public static RowFields<Row> of(RowSchema schema) {
    String[] names = schema.columnNames().toArray(new String[0]);
    return row -> {
      Object[] values = new Object[names.length];
      boolean named = row.getFieldNames(false) != null;
      for (int i = 0; i < names.length; i++) {
        values[i] = named ? row.getField(names[i]) : row.getField(i);
      }
      return values;
    };
  }
}
