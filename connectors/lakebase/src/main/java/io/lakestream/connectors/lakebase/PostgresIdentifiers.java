package io.lakestream.connectors.lakebase;

import io.lakestream.api.annotation.Internal;
import io.lakestream.api.error.LakestreamException;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The identifier rules of the Lakebase sink.
 *
 * <ul>
 *   <li>Schema and table names must be simple: a letter or underscore, then letters, digits or
 *       underscores, at most 63 characters. PostgreSQL folds such unquoted names to lower case, so
 *       {@code Sales.Orders} names {@code sales.orders}. Quoted names and special characters
 *       (hyphens, dots inside a name) are refused, before any connection is made.
 *   <li>Column names may be anything PostgreSQL accepts inside double quotes (not empty, at most 63
 *       characters, no NUL); they are always double-quoted, so reserved words and mixed case work
 *       and the case is kept.
 * </ul>
 */
@Internal
public final class PostgresIdentifiers {
  /** PostgreSQL's NAMEDATALEN - 1: longer names would be truncated silently. */
  public static final int MAX_LENGTH = 63;

  private static final Pattern SIMPLE = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  private PostgresIdentifiers() {}

  /** Whether {@code name} is a simple identifier. */
  public static boolean isSimple(String name) {
    return name != null && name.length() <= MAX_LENGTH && SIMPLE.matcher(name).matches();
  }

  /**
   * Parses {@code dbtable}: {@code table} (schema {@code public}) or {@code schema.table}.
   *
   * @throws LakebaseSinkException ({@link LakebaseSinkException#INVALID_OPTIONS}) naming the option
   *     if a part is not a simple identifier
   */
  public static PostgresTableName parseTable(String dbtable) {
    if (dbtable == null || dbtable.isBlank()) {
      throw invalidTable(dbtable, "it is empty");
    }
    String[] parts = dbtable.trim().split("\\.", -1);
    if (parts.length > 2) {
      throw invalidTable(dbtable, "use schema.table or table (the catalog is not part of it)");
    }
    for (String part : parts) {
      if (!isSimple(part)) {
        throw invalidTable(
            dbtable,
            "'"
                + part
                + "' is not a simple identifier (a letter or underscore, then letters, digits or"
                + " underscores, at most "
                + MAX_LENGTH
                + " characters; quoted names are not supported)");
      }
    }
    String schema = parts.length == 2 ? parts[0] : "public";
    String table = parts[parts.length - 1];
    return new PostgresTableName(schema.toLowerCase(Locale.ROOT), table.toLowerCase(Locale.ROOT));
  }

  /**
   * Checks a column name.
   *
   * @throws LakestreamException ({@code JDBC_STREAMING_SINK_INVALID_SCHEMA}) if it is empty, too
   *     long or contains NUL
   */
  public static String checkColumn(String name) {
    if (name == null || name.isEmpty()) {
      throw new LakestreamException(
          LakebaseErrorClass.JDBC_STREAMING_SINK_INVALID_SCHEMA, "a column name must not be empty");
    }
    if (name.length() > MAX_LENGTH) {
      throw new LakestreamException(
          LakebaseErrorClass.JDBC_STREAMING_SINK_INVALID_SCHEMA,
          "column name '"
              + name
              + "' is longer than "
              + MAX_LENGTH
              + " characters; PostgreSQL would truncate it");
    }
    if (name.indexOf('\0') >= 0) {
      throw new LakestreamException(
          LakebaseErrorClass.JDBC_STREAMING_SINK_INVALID_SCHEMA,
          "column name '" + name + "' contains a NUL character");
    }
    return name;
  }

  /** {@code name} in double quotes, inner double quotes doubled. */
  public static String quote(String name) {
    return '"' + name.replace("\"", "\"\"") + '"';
  }

  private static LakebaseSinkException invalidTable(String dbtable, String why) {
    return new LakebaseSinkException(
        LakebaseSinkException.INVALID_OPTIONS,
        "option dbtable '" + dbtable + "' is not a valid table name: " + why);
  }
}
