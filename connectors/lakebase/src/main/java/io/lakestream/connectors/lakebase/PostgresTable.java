package io.lakestream.connectors.lakebase;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.schema.Column;
import io.lakestream.connectors.schema.ColumnType;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The target table as PostgreSQL describes it, and the upsert key the sink uses for it.
 *
 * <p>{@link #prepare} creates a missing table (columns of the {@link LakebaseSchema}, typed as
 * {@link PostgresTypes#sqlType}, the key as PRIMARY KEY) and settles the key: the option upsertkey
 * if given, else the table's primary key, else none (plain inserts). The key must be a non-empty
 * set of the stream's columns, of comparable types, and equal to the table's primary key exactly;
 * every stream column must exist in the table with a type that takes its values ({@link
 * PostgresTypes#fits}). Violations fail with {@link LakebaseSinkException} saying what to change.
 *
 * @param name the table
 * @param columns its columns in order, name to {@code format_type} (e.g. {@code bigint})
 * @param primaryKey its primary key columns in key order, empty if none
 */
@Internal
public record PostgresTable(
    PostgresTableName name, Map<String, String> columns, List<String> primaryKey) {

  /**
   * Reads the table's columns and primary key.
   *
   * @return empty if the table does not exist
   * @throws SQLException as the driver reports it
   */
  public static Optional<PostgresTable> describe(Connection connection, PostgresTableName name)
      throws SQLException {
    Map<String, String> columns = new LinkedHashMap<>();
    try (PreparedStatement statement =
        connection.prepareStatement(
            "SELECT a.attname, format_type(a.atttypid, a.atttypmod) FROM pg_attribute a"
                + " WHERE a.attrelid = to_regclass(?) AND a.attnum > 0 AND NOT a.attisdropped"
                + " ORDER BY a.attnum")) {
      statement.setString(1, name.sql());
      try (ResultSet rows = statement.executeQuery()) {
        while (rows.next()) {
          columns.put(rows.getString(1), rows.getString(2));
        }
      }
    }
    if (columns.isEmpty() && !exists(connection, name)) {
      return Optional.empty();
    }
    List<String> key = new ArrayList<>();
    try (PreparedStatement statement =
        connection.prepareStatement(
            "SELECT a.attname FROM pg_index i"
                + " CROSS JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, n)"
                + " JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum"
                + " WHERE i.indrelid = to_regclass(?) AND i.indisprimary ORDER BY k.n")) {
      statement.setString(1, name.sql());
      try (ResultSet rows = statement.executeQuery()) {
        while (rows.next()) {
          key.add(rows.getString(1));
        }
      }
    }
    return Optional.of(new PostgresTable(name, Map.copyOf(columns), List.copyOf(key)));
  }

  /**
   * Creates the table if missing and returns the upsert key (empty: plain inserts).
   *
   * @param upsertKey the option upsertkey's columns, empty if not given
   * @throws LakebaseSinkException if the key or the table does not fit the stream, or the table
   *     cannot be created
   * @throws SQLException if PostgreSQL cannot be queried
   */
  public static List<String> prepare(
      Connection connection, PostgresTableName name, LakebaseSchema schema, List<String> upsertKey)
      throws SQLException {
    return prepare(connection, name, schema, upsertKey, "option upsertkey");
  }

  /**
   * Creates the table if missing and returns the upsert key (empty: plain inserts).
   *
   * @param upsertKey the key given for the stream, empty if none (then the table's primary key)
   * @param origin where the key was given, for messages, e.g. {@code option upsertkey}
   * @throws LakebaseSinkException if the key or the table does not fit the stream, or the table
   *     cannot be created
   * @throws SQLException if PostgreSQL cannot be queried
   */
  public static List<String> prepare(
      Connection connection,
      PostgresTableName name,
      LakebaseSchema schema,
      List<String> upsertKey,
      String origin)
      throws SQLException {
    checkKeyColumns(schema, upsertKey, origin);
    Optional<PostgresTable> existing = describe(connection, name);
    if (existing.isEmpty()) {
      create(connection, name, schema, upsertKey);
      return upsertKey;
    }
    PostgresTable table = existing.get();
    List<String> missing =
        schema.columnNames().stream()
            .filter(c -> !table.columns().containsKey(c))
            .collect(Collectors.toList());
    if (!missing.isEmpty()) {
      throw new LakebaseSinkException(
          LakebaseSinkException.TABLE_MISMATCH,
          "table "
              + name
              + " has no column(s) "
              + missing
              + " of the stream; its columns are "
              + table.columns().keySet()
              + " (names are case-sensitive). Add the columns or rename them in the query.");
    }
    List<String> misfits =
        schema.columns().stream()
            .filter(c -> !PostgresTypes.fits(c.type(), table.columns().get(c.name())))
            .map(
                c ->
                    c.name()
                        + " ("
                        + PostgresTypes.describe(c.type())
                        + " into "
                        + table.columns().get(c.name())
                        + ")")
            .collect(Collectors.toList());
    if (!misfits.isEmpty()) {
      throw new LakebaseSinkException(
          LakebaseSinkException.TABLE_MISMATCH,
          "table "
              + name
              + " cannot take the stream's values in column(s) "
              + misfits
              + "; declare the columns with a matching type (see PostgresTypes) or alter"
              + " the table");
    }
    if (upsertKey.isEmpty()) {
      if (table.primaryKey().isEmpty()) {
        return List.of();
      }
      checkKeyColumns(schema, table.primaryKey(), "the primary key of " + name);
      return table.primaryKey();
    }
    if (!new HashSet<>(upsertKey).equals(new HashSet<>(table.primaryKey()))) {
      throw new LakebaseSinkException(
          LakebaseSinkException.INVALID_UPSERT_KEY,
          origin
              + " "
              + upsertKey
              + " must equal the primary key of table "
              + name
              + ", which is "
              + (table.primaryKey().isEmpty() ? "not defined" : table.primaryKey())
              + ". Make it the primary key columns, or leave it out to use them"
              + (table.primaryKey().isEmpty()
                  ? " (or add the primary key to the table: ALTER TABLE "
                      + name
                      + " ADD PRIMARY KEY (...))."
                  : "."));
    }
    return upsertKey;
  }

  private static void checkKeyColumns(LakebaseSchema schema, List<String> key, String what) {
    for (String column : key) {
      int index = schema.indexOf(column);
      if (index < 0) {
        throw new LakebaseSinkException(
            LakebaseSinkException.INVALID_UPSERT_KEY,
            what
                + " names column '"
                + column
                + "', which the stream does not have; the stream's columns are "
                + schema.columnNames());
      }
      ColumnType type = schema.columns().get(index).type();
      if (!PostgresTypes.isComparable(type)) {
        throw new LakebaseSinkException(
            LakebaseSinkException.INVALID_UPSERT_KEY,
            what
                + " includes column '"
                + column
                + "' of type "
                + PostgresTypes.describe(type)
                + ", which is not comparable; key columns must be numbers, strings, booleans,"
                + " decimals, dates or timestamps");
      }
    }
  }

  private static void create(
      Connection connection, PostgresTableName name, LakebaseSchema schema, List<String> key)
      throws SQLException {
    Set<String> keys = new HashSet<>(key);
    StringBuilder sql = new StringBuilder("CREATE TABLE IF NOT EXISTS ").append(name.sql());
    sql.append(" (");
    String separator = "";
    for (Column column : schema.columns()) {
      sql.append(separator)
          .append(PostgresIdentifiers.quote(column.name()))
          .append(' ')
          .append(PostgresTypes.sqlType(column.type()));
      if (!column.nullable() || keys.contains(column.name())) {
        sql.append(" NOT NULL");
      }
      separator = ", ";
    }
    if (!key.isEmpty()) {
      sql.append(", PRIMARY KEY (")
          .append(key.stream().map(PostgresIdentifiers::quote).collect(Collectors.joining(", ")))
          .append(')');
    }
    sql.append(')');
    try (Statement statement = connection.createStatement()) {
      statement.execute(sql.toString());
    } catch (SQLException e) {
      if ("3F000".equals(e.getSQLState())) {
        throw new LakebaseSinkException(
            LakebaseSinkException.TABLE_SETUP_FAILED,
            "cannot create table "
                + name
                + ": schema "
                + name.schema()
                + " does not exist; create it (CREATE SCHEMA "
                + name.schema()
                + ") or choose another in option dbtable",
            e);
      }
      throw e;
    }
  }

  private static boolean exists(Connection connection, PostgresTableName name) throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement("SELECT to_regclass(?) IS NOT NULL")) {
      statement.setString(1, name.sql());
      try (ResultSet rows = statement.executeQuery()) {
        rows.next();
        return rows.getBoolean(1);
      }
    }
  }
}
