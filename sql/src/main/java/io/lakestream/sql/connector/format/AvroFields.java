package io.lakestream.sql.connector.format;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.connectors.schema.RowSchema;
import io.lakestream.sql.SqlErrorClass;
import java.util.List;
import java.util.Locale;

/**
 * How a table with {@code format = 'avro'} (Kafka, Kinesis) finds its columns among the Avro
 * record's fields: by name, else by name ignoring case; the field's type must be the column's, or
 * widen to it without loss (int to bigint, float to double). Checked when the table is created, so
 * a column the schema does not have, or of another type, fails the statement rather than every
 * record.
 */
final class AvroFields {
  private AvroFields() {}

  /**
   * The field of {@code schema} for each of {@code columns}, by column position.
   *
   * @param table the table, for messages, e.g. {@code Kafka table orders}
   * @throws LakestreamException ({@link SqlErrorClass#SQL_SCHEMA_MISMATCH}) naming the column and
   *     the schema's fields
   */
  static int[] check(List<ValueField> columns, RowSchema schema, String table) {
    int[] fields = new int[columns.size()];
    for (int i = 0; i < columns.size(); i++) {
      ValueField column = columns.get(i);
      int field = find(schema, column.name());
      if (field < 0) {
        throw mismatch(
            table,
            "column '"
                + column.name()
                + "' is not a field of the Avro schema, whose fields are "
                + schema.columnNames());
      }
      ColumnType from = schema.column(field).type();
      if (!fits(from, column.type())) {
        throw mismatch(
            table,
            "column '"
                + column.name()
                + "' is "
                + column.type().sql()
                + " but its Avro field is "
                + from.sql()
                + ": declare the column as "
                + from.sql());
      }
      fields[i] = field;
    }
    return fields;
  }

  /** The decoded value of field type {@code from} as a value of column type {@code to}. */
  static Object widen(Object value, ColumnType from, ColumnType to) {
    if (value == null || from.kind() == to.kind()) {
      return value;
    }
    if (to.kind() == ColumnType.Kind.LONG) {
      return ((Number) value).longValue();
    }
    return ((Number) value).doubleValue(); // float to double: the only other widening allowed
  }

  private static boolean fits(ColumnType from, ColumnType to) {
    if (from.kind().isNested() || to.kind().isNested()) {
      return false; // nested columns are not supported in value fields
    }
    return from.equals(to)
        || (from.kind() == to.kind() && from.kind() != ColumnType.Kind.DECIMAL)
        || (from.kind() == ColumnType.Kind.INT && to.kind() == ColumnType.Kind.LONG)
        || (from.kind() == ColumnType.Kind.FLOAT && to.kind() == ColumnType.Kind.DOUBLE);
  }

  private static int find(RowSchema schema, String name) {
    List<String> names = schema.columnNames();
    int exact = names.indexOf(name);
    if (exact >= 0) {
      return exact;
    }
    for (int i = 0; i < names.size(); i++) {
      if (names.get(i).toLowerCase(Locale.ROOT).equals(name.toLowerCase(Locale.ROOT))) {
        return i;
      }
    }
    return -1;
  }

  private static LakestreamException mismatch(String table, String what) {
    return new LakestreamException(
        SqlErrorClass.SQL_SCHEMA_MISMATCH, table + " (format 'avro'): " + what);
  }
}
