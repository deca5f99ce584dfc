package io.lakestream.sql.streamingtable;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.sql.SqlErrorClass;
import io.lakestream.sql.SqlScript;
import io.lakestream.sql.catalog.DeltaCatalog;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.catalog.ObjectIdentifier;

/**
 * The streaming tables of a script and where each lives, found before any query runs: the script's
 * {@code CREATE CATALOG} statements run in a throwaway table environment (a Delta catalog only
 * creates its warehouse's default database directory), {@code USE CATALOG} and {@code USE} are
 * followed as written (without running them: a database the script creates does not exist yet), and
 * each streaming table's name is resolved against them as the query will resolve it.
 */
final class ScriptStreamingTables {
  private static final String PART = "(?:`[^`]+`|[A-Za-z_$][\\w$]*)";
  private static final Pattern USE_CATALOG =
      Pattern.compile("(?is)\\s*USE\\s+CATALOG\\s+(" + PART + ")\\s*");
  private static final Pattern USE =
      Pattern.compile("(?is)\\s*USE\\s+(" + PART + "(?:\\s*\\.\\s*" + PART + ")?)\\s*");

  /** A streaming table of the script. */
  record Found(ObjectIdentifier id, StreamingTableStatement statement, String checkpointLocation) {}

  private final TableEnvironment catalogs =
      TableEnvironment.create(EnvironmentSettings.inStreamingMode());
  private String catalog = catalogs.getCurrentCatalog();
  private String database = catalogs.getCurrentDatabase();
  private final List<Found> found = new ArrayList<>();

  private ScriptStreamingTables() {}

  /**
   * The streaming tables of {@code statements}, in order.
   *
   * @throws LakestreamException for a streaming table that does not parse or is not in a Delta
   *     catalog, with the statement's position
   */
  static List<Found> of(List<SqlScript.Statement> statements) {
    ScriptStreamingTables tables = new ScriptStreamingTables();
    for (SqlScript.Statement statement : statements) {
      try {
        tables.follow(statement);
      } catch (LakestreamException e) {
        throw at(statement, e);
      } catch (RuntimeException e) {
        throw new LakestreamException(
            SqlErrorClass.SQL_INVALID_STATEMENT,
            "Statement at " + statement.position() + " failed: " + withoutOptions(e),
            null);
      }
    }
    return List.copyOf(tables.found);
  }

  private void follow(SqlScript.Statement statement) {
    String first = statement.firstWord();
    Matcher use;
    if (StreamingTableStatement.isIn(statement)) {
      StreamingTableStatement table = StreamingTableStatement.parse(statement);
      ObjectIdentifier id = table.identifier(catalog, database);
      DeltaCatalog delta = StreamingTableRun.deltaCatalog(catalogs, id);
      found.add(new Found(id, table, StreamingTableRun.checkpointLocation(delta, id)));
    } else if (first.equals("CREATE") && statement.text().matches("(?is)\\s*CREATE\\s+CATALOG.*")) {
      catalogs.executeSql(statement.text());
    } else if ((use = USE_CATALOG.matcher(statement.text())).matches()) {
      catalogs.executeSql(statement.text()); // the catalog was declared above
      catalog = catalogs.getCurrentCatalog();
      database = catalogs.getCurrentDatabase();
    } else if ((use = USE.matcher(statement.text())).matches()) {
      List<String> parts = StreamingTableStatement.parts(use.group(1));
      catalog = parts.size() == 2 ? parts.get(0) : catalog;
      database = parts.get(parts.size() - 1);
    }
  }

  /** Flink's messages up to the options they list (whose values may be secrets). */
  private static String withoutOptions(Throwable e) {
    StringBuilder text = new StringBuilder();
    for (Throwable c = e; c != null; c = c.getCause() == c ? null : c.getCause()) {
      String message = String.valueOf(c.getMessage());
      int options = message.toLowerCase(java.util.Locale.ROOT).indexOf("options are:");
      text.append(text.length() == 0 ? "" : " Caused by: ")
          .append(options < 0 ? message : message.substring(0, options).strip());
    }
    return text.toString();
  }

  private static LakestreamException at(SqlScript.Statement statement, LakestreamException e) {
    String name = e.errorClass();
    return new LakestreamException(
        () -> name, e.detail() + " (statement at " + statement.position() + ")", e);
  }
}
