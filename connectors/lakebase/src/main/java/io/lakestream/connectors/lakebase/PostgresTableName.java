package io.lakestream.connectors.lakebase;

import io.lakestream.api.annotation.Internal;
import java.io.Serializable;

/**
 * A table name checked by {@link PostgresIdentifiers#parseTable(String)}: both parts simple and
 * lower-cased, as PostgreSQL folds unquoted names.
 *
 * @param schema the schema ({@code public} unless given)
 * @param table the table
 */
@Internal
public record PostgresTableName(String schema, String table) implements Serializable {

  /** The name for SQL text, both parts quoted (so reserved words such as {@code order} work). */
  public String sql() {
    return PostgresIdentifiers.quote(schema) + "." + PostgresIdentifiers.quote(table);
  }

  @Override
  public String toString() {
    return schema + "." + table;
  }
}
