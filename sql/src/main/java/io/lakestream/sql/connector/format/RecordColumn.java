package io.lakestream.sql.connector.format;

import io.lakestream.api.annotation.Internal;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.sql.SqlErrorClass;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;

/**
 * One of the fixed columns a streaming source gives every record (Spark's Kafka columns,
 * Databricks' Kinesis columns), declared as a table's physical column ({@code format = 'raw'}) or
 * as a {@code METADATA} column. Implemented by an enum per source; the static methods find a
 * declared column among its constants and check the declared type, failing with {@link
 * SqlErrorClass#SQL_SCHEMA_MISMATCH} and a message that lists the columns or the accepted types.
 */
@Internal
public interface RecordColumn {
  /** The column's name, as in Spark's or Databricks' source. */
  String column();

  /** The column's Flink type. */
  DataType type();

  /** Whether the column holds bytes a STRING column may declare (then decoded as UTF-8). */
  boolean readableAsText();

  /**
   * Whether a column declared as {@code declared} can hold this one: the same type (nullability
   * aside), or STRING where {@link #readableAsText()}.
   */
  default boolean accepts(LogicalType declared) {
    if (declared.copy(true).equals(type().getLogicalType().copy(true))) {
      return true;
    }
    return readableAsText()
        && declared.getTypeRoot() == LogicalTypeRoot.VARCHAR
        && ((VarCharType) declared).getLength() == Integer.MAX_VALUE;
  }

  /** The types a declared column of this name may have, for an error message. */
  default String acceptedTypes() {
    String own = type().getLogicalType().copy(true).asSummaryString();
    return readableAsText() ? own + " or STRING" : own;
  }

  /** The column of {@code columns} named {@code name} (ignoring case), or null. */
  static <C extends Enum<C> & RecordColumn> C named(Class<C> columns, String name) {
    for (C c : columns.getEnumConstants()) {
      if (c.column().equalsIgnoreCase(name)) {
        return c;
      }
    }
    return null;
  }

  /** Every column's type by name, for {@code listReadableMetadata}. */
  static <C extends Enum<C> & RecordColumn> Map<String, DataType> metadata(Class<C> columns) {
    Map<String, DataType> all = new LinkedHashMap<>();
    for (C c : columns.getEnumConstants()) {
      all.put(c.column(), c.type());
    }
    return all;
  }

  /**
   * The column a table declares as {@code field}, checked.
   *
   * @param source the source's name in messages ("Kafka")
   * @param otherFormats what to set to read the fields of the values instead, for the message
   * @throws LakestreamException {@code SQL_SCHEMA_MISMATCH} if no column has that name or the
   *     declared type cannot hold it
   */
  static <C extends Enum<C> & RecordColumn> C declared(
      Class<C> columns, RowType.RowField field, String table, String source, String otherFormats) {
    C column = named(columns, field.getName());
    if (column == null) {
      String names =
          EnumSet.allOf(columns).stream()
              .map(RecordColumn::column)
              .collect(Collectors.joining(", "));
      throw new LakestreamException(
          SqlErrorClass.SQL_SCHEMA_MISMATCH,
          "Column '"
              + field.getName()
              + "' of "
              + table
              + " is not a "
              + source
              + " column: with 'format' = 'raw' (the default) the columns are "
              + names
              + ". "
              + otherFormats
              + " (the "
              + source
              + " columns are then METADATA columns).");
    }
    if (!column.accepts(field.getType())) {
      throw new LakestreamException(
          SqlErrorClass.SQL_SCHEMA_MISMATCH,
          "Column '"
              + field.getName()
              + "' of "
              + table
              + " is "
              + field.getType().asSummaryString()
              + ", but "
              + source
              + "'s "
              + column.column()
              + " column is "
              + column.acceptedTypes()
              + ": declare it so.");
    }
    return column;
  }
}
