package io.lakestream.sql;

import io.lakestream.api.error.ErrorClass;
import io.lakestream.api.error.LakestreamException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs a script's statements so that a failure points into the script: at {@code file:line:column}
 * when the script has a file name, else at {@code line L, column C}. A lakestream error keeps its
 * class with the statement's position added; any other failure is {@link
 * SqlErrorClass#SQL_INVALID_STATEMENT}, with the positions Flink reports inside the statement
 * (Calcite's {@code at line 1, column 15}) turned into the script's, and without the table options
 * Flink lists (their values may be secrets).
 */
final class StatementErrors {
  private static final Pattern FLINK_POSITION = Pattern.compile("\\bline (\\d+), column (\\d+)");

  private final String source;

  /**
   * @param source the script's file name, or null
   */
  StatementErrors(String source) {
    this.source = source;
  }

  /** Where {@code statement} starts, e.g. {@code pipeline.sql:4:1}. */
  String where(SqlScript.Statement statement) {
    return at(statement.line(), statement.column());
  }

  private String at(int line, int column) {
    return source == null
        ? "line " + line + ", column " + column
        : source + ":" + line + ":" + column;
  }

  /** Runs {@code action}, turning its failure into one at {@code statement}. */
  void run(SqlScript.Statement statement, Runnable action) {
    try {
      action.run();
    } catch (RuntimeException e) {
      throw failureAt(statement, e);
    }
  }

  /** Our own error as it was raised, or Flink's without its option listing, at the statement. */
  LakestreamException failureAt(SqlScript.Statement statement, RuntimeException e) {
    for (Throwable c = e; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (c instanceof LakestreamException ours) {
        String name = ours.errorClass();
        ErrorClass same = () -> name;
        return new LakestreamException(
            same, ours.detail() + " (statement at " + where(statement) + ")", ours);
      }
    }
    return new LakestreamException(
        SqlErrorClass.SQL_INVALID_STATEMENT,
        "Statement at " + where(statement) + " failed: " + inScript(statement, withoutOptions(e)),
        null);
  }

  /** Flink's positions in the statement's text as positions in the script. */
  String inScript(SqlScript.Statement statement, String message) {
    Matcher position = FLINK_POSITION.matcher(message);
    StringBuilder out = new StringBuilder();
    while (position.find()) {
      int line = Integer.parseInt(position.group(1));
      int column = Integer.parseInt(position.group(2));
      int fileLine = statement.line() + line - 1;
      int fileColumn = line == 1 ? statement.column() + column - 1 : column;
      position.appendReplacement(out, Matcher.quoteReplacement(at(fileLine, fileColumn)));
    }
    position.appendTail(out);
    return out.toString();
  }

  /**
   * Flink's messages along the causes, each once, up to the table options Flink lists (their values
   * may be secrets), and the parser's list of expected tokens cut short.
   */
  private static String withoutOptions(Throwable e) {
    StringBuilder text = new StringBuilder();
    for (Throwable c = e; c != null; c = c.getCause() == c ? null : c.getCause()) {
      String message = String.valueOf(c.getMessage());
      int options = message.indexOf("Table options are:");
      message = shortened(options < 0 ? message : message.substring(0, options).strip());
      if (!text.toString().contains(message)) {
        text.append(text.length() == 0 ? "" : " Caused by: ").append(message);
      }
    }
    return text.toString();
  }

  /**
   * The message without Flink's repeated headline ({@code SQL validation failed. SQL validation
   * failed. ...}) and with at most a few of the tokens a parse error says it expected.
   */
  private static String shortened(String text) {
    String message = text.replaceAll("(SQL (?:validation|parse) failed\\. )\\1+", "$1");
    int expecting = message.indexOf("Was expecting");
    if (expecting < 0) {
      return message;
    }
    String[] lines = message.substring(expecting).split("\n");
    StringBuilder out = new StringBuilder(message.substring(0, expecting));
    for (int i = 0; i < lines.length && i < 6; i++) {
      out.append(lines[i].strip()).append(i == 0 ? " " : ", ");
    }
    return out.append(lines.length > 6 ? "..." : "").toString().strip();
  }
}
