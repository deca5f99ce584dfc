package io.lakestream.sql;

import io.lakestream.api.annotation.PublicEvolving;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A SQL script split into its statements at the semicolons outside string literals, quoted
 * identifiers and comments, each with the line and column it starts at (1-based), so an error in a
 * statement can point into the file. Comments before a statement are dropped, comments inside one
 * are blanked out (so a position Flink reports in a statement maps to the file); empty statements
 * are skipped.
 */
@PublicEvolving
public final class SqlScript {
  /**
   * One statement of a script.
   *
   * @param text the statement without its semicolon
   * @param line the line of its first character in the script
   * @param column the column of its first character
   */
  public record Statement(String text, int line, int column) {
    /** Whether this is an {@code INSERT INTO} / {@code INSERT OVERWRITE}. */
    public boolean isInsert() {
      return firstWord().equals("INSERT");
    }

    /** The statement's first keyword, upper case. */
    public String firstWord() {
      String trimmed = text.stripLeading();
      int end = 0;
      while (end < trimmed.length() && Character.isLetter(trimmed.charAt(end))) {
        end++;
      }
      return trimmed.substring(0, end).toUpperCase(Locale.ROOT);
    }

    /** The position as messages show it, e.g. {@code line 4, column 1}. */
    public String position() {
      return "line " + line + ", column " + column;
    }
  }

  private SqlScript() {}

  /** The statements of {@code script}, in order. */
  public static List<Statement> statements(String script) {
    List<Statement> out = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    int line = 1;
    int column = 1;
    int startLine = -1;
    int startColumn = -1;
    int i = 0;
    while (i < script.length()) {
      char c = script.charAt(i);
      int skip = commentLength(script, i);
      if (skip > 0) {
        for (int k = i; k < i + skip; k++) {
          boolean newline = script.charAt(k) == '\n';
          if (startLine >= 0) {
            current.append(newline ? '\n' : ' '); // keeps the positions after the comment
          }
          line += newline ? 1 : 0;
          column = newline ? 1 : column + 1;
        }
        i += skip;
        continue;
      }
      if (c == ';') {
        add(out, current, startLine, startColumn);
        current.setLength(0);
        startLine = -1;
      } else {
        if (startLine < 0 && !Character.isWhitespace(c)) {
          startLine = line;
          startColumn = column;
        }
        int quoted = quotedLength(script, i);
        if (startLine >= 0) {
          current.append(script, i, i + quoted);
        }
        for (int k = i; k < i + quoted; k++) {
          if (script.charAt(k) == '\n') {
            line++;
            column = 1;
          } else {
            column++;
          }
        }
        i += quoted;
        continue;
      }
      column++;
      i++;
    }
    add(out, current, startLine, startColumn);
    return out;
  }

  private static void add(List<Statement> out, StringBuilder text, int line, int column) {
    String statement = text.toString().strip();
    if (line >= 0 && !statement.isEmpty()) {
      out.add(new Statement(statement, line, column));
    }
  }

  /** The length of the comment starting at {@code i}, or 0. */
  private static int commentLength(String s, int i) {
    if (s.startsWith("--", i)) {
      int end = s.indexOf('\n', i);
      return (end < 0 ? s.length() : end) - i;
    }
    if (s.startsWith("/*", i) && !s.startsWith("/*+", i)) { // a hint is part of the statement
      int end = s.indexOf("*/", i + 2);
      return (end < 0 ? s.length() : end + 2) - i;
    }
    return 0;
  }

  /** The length of the hint, quoted literal or identifier starting at {@code i}, else 1. */
  private static int quotedLength(String s, int i) {
    if (s.startsWith("/*+", i)) {
      int end = s.indexOf("*/", i + 3);
      return (end < 0 ? s.length() : end + 2) - i;
    }
    char quote = s.charAt(i);
    if (quote != '\'' && quote != '"' && quote != '`') {
      return 1;
    }
    int k = i + 1;
    while (k < s.length()) {
      if (s.charAt(k) == quote) {
        if (k + 1 < s.length() && s.charAt(k + 1) == quote) {
          k += 2; // a doubled quote inside the literal
          continue;
        }
        return k + 1 - i;
      }
      k++;
    }
    return s.length() - i;
  }
}
