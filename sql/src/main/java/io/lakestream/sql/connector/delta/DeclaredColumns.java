package io.lakestream.sql.connector.delta;

import io.delta.kernel.Snapshot;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.delta.DeltaErrorClass;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableException;
import io.lakestream.connectors.schema.Column;
import io.lakestream.connectors.schema.RowSchema;
import io.lakestream.sql.SqlErrorClass;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Matches a table's declared columns (the DDL's) to a stored Delta table's, as Delta resolves
 * names: ignoring case. Every declared column must be stored with the same type; stored columns the
 * DDL leaves out are not read. A mismatch fails with {@link SqlErrorClass#SQL_SCHEMA_MISMATCH}
 * naming the column and what the table has.
 */
final class DeclaredColumns {
  private DeclaredColumns() {}

  /**
   * The stored position of each declared column.
   *
   * @param name the table's identifier, for messages
   * @param path the table's location, for messages
   */
  static int[] positions(RowSchema declared, RowSchema stored, String name, String path) {
    int[] positions = new int[declared.size()];
    for (int i = 0; i < declared.size(); i++) {
      Column column = declared.column(i);
      int at = indexIgnoringCase(stored, column.name());
      if (at < 0) {
        throw mismatch(
            "Column '"
                + column.name()
                + "' of "
                + name
                + " is not in the Delta table at "
                + path
                + ", whose columns are "
                + describe(stored)
                + ". Remove it from the table's declaration or fix its name.");
      }
      Column actual = stored.column(at);
      if (!actual.type().sql().equals(column.type().sql())) {
        throw mismatch(
            "Column '"
                + column.name()
                + "' of "
                + name
                + " is declared "
                + column.type().sql()
                + " but the Delta table at "
                + path
                + " stores "
                + actual.type().sql()
                + ". Declare it as the table stores it (CAST in the query if you need another"
                + " type).");
      }
      positions[i] = at;
    }
    return positions;
  }

  /**
   * The table's latest snapshot.
   *
   * @param name the table's identifier, for the message
   * @throws DeltaTableException ({@code DELTA_TABLE_NOT_FOUND}) if there is no table
   */
  static Snapshot latestSnapshot(DeltaTable table, String name) {
    return table
        .latestSnapshot()
        .orElseThrow(
            () ->
                new DeltaTableException(
                    DeltaErrorClass.DELTA_TABLE_NOT_FOUND,
                    "No Delta table at "
                        + table.path()
                        + " (table "
                        + name
                        + "): a source reads an existing table; write it first, or fix 'path'"));
  }

  private static int indexIgnoringCase(RowSchema schema, String name) {
    for (int i = 0; i < schema.size(); i++) {
      if (schema.column(i).name().toLowerCase(Locale.ROOT).equals(name.toLowerCase(Locale.ROOT))) {
        return i;
      }
    }
    return -1;
  }

  private static String describe(RowSchema schema) {
    return schema.columns().stream()
        .map(c -> c.name() + " " + c.type().sql())
        .collect(Collectors.joining(", ", "(", ")"));
  }

  private static LakestreamException mismatch(String message) {
    return new LakestreamException(SqlErrorClass.SQL_SCHEMA_MISMATCH, message);
  }
}
