package io.lakestream.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The table an {@code INSERT} statement writes, fully qualified as Flink's plan names it ({@code
 * catalog.database.table}, without quotes): a name with fewer parts is completed with the catalog
 * and database current when the statement runs.
 */
final class InsertTarget {
  private static final String PART = "(?:`(?:[^`]|``)+`|[\\w$]+)";
  private static final Pattern INSERT =
      Pattern.compile(
          "(?is)\\s*INSERT\\s+(?:INTO|OVERWRITE)\\s+(?:TABLE\\s+)?("
              + PART
              + "(?:\\s*\\.\\s*"
              + PART
              + ")*).*");

  private InsertTarget() {}

  /**
   * The qualified sink table of {@code statement}, or the statement's text head if it names none
   * this can read (its uids then still differ per statement).
   */
  static String of(SqlScript.Statement statement, String catalog, String database) {
    Matcher insert = INSERT.matcher(statement.text());
    if (!insert.matches()) {
      return "insert@" + statement.line() + ":" + statement.column();
    }
    List<String> parts = parts(insert.group(1));
    List<String> qualified = new ArrayList<>();
    if (parts.size() < 3) {
      qualified.add(catalog);
    }
    if (parts.size() < 2) {
      qualified.add(database);
    }
    qualified.addAll(parts);
    return String.join(".", qualified);
  }

  /** The label messages use: {@code INSERT INTO <table as written>}. */
  static String label(SqlScript.Statement statement) {
    Matcher insert = INSERT.matcher(statement.text());
    return insert.matches()
        ? "INSERT INTO " + insert.group(1).replaceAll("\\s+", "")
        : "INSERT at line " + statement.line();
  }

  private static List<String> parts(String identifier) {
    List<String> parts = new ArrayList<>();
    Matcher part = Pattern.compile(PART).matcher(identifier);
    while (part.find()) {
      String p = part.group();
      parts.add(p.startsWith("`") ? p.substring(1, p.length() - 1).replace("``", "`") : p);
    }
    return parts;
  }
}
