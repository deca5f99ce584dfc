package io.lakestream.connectors.schema;

import io.lakestream.api.error.LakestreamException;
import java.util.Locale;
import java.util.Objects;

/** Reads Spark SQL's DDL text of a type (see {@link ColumnType#parse}); one instance per text. */
final class TypeText {
  /** The type names {@link ColumnType#parse} knows, for messages. */
  static final String KNOWN_TYPES =
      "STRING, BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE, DECIMAL(p,s), DATE,"
          + " TIMESTAMP, TIMESTAMP_NTZ, BINARY, JSON, ARRAY<t>, MAP<k, v>, STRUCT<name: t, ...>";

  private final String text;
  private int pos;

  private TypeText(String text) {
    this.text = text;
  }

  static ColumnType parse(String text) {
    TypeText reader = new TypeText(Objects.requireNonNull(text, "text"));
    ColumnType type = reader.type();
    reader.skipSpace();
    if (reader.pos < text.length()) {
      throw reader.syntax("the end of the type");
    }
    return type;
  }

  /** A field name in back quotes, as {@link ColumnType.Struct#sql()} writes it. */
  static String quote(String name) {
    return "`" + name.replace("`", "``") + "`";
  }

  private ColumnType type() {
    skipSpace();
    int start = pos;
    String name = word().toUpperCase(Locale.ROOT);
    if (name.isEmpty()) {
      throw syntax("a type name");
    }
    ColumnType primitive = primitive(name);
    if (primitive != null) {
      return primitive;
    }
    switch (name) {
      case "DECIMAL":
      case "DEC":
      case "NUMERIC":
        return decimal();
      case "ARRAY":
        return array();
      case "MAP":
        return map();
      case "STRUCT":
        return struct();
      default:
        throw new LakestreamException(
            SchemaErrorClass.UNSUPPORTED_DATA_TYPE,
            "unknown data type '"
                + text.substring(start, pos)
                + "' in '"
                + text
                + "'; the known types are "
                + KNOWN_TYPES);
    }
  }

  private static ColumnType primitive(String name) {
    switch (name) {
      case "STRING":
        return ColumnType.STRING;
      case "BOOLEAN":
        return ColumnType.BOOLEAN;
      case "TINYINT":
      case "BYTE":
        return ColumnType.BYTE;
      case "SMALLINT":
      case "SHORT":
        return ColumnType.SHORT;
      case "INT":
      case "INTEGER":
        return ColumnType.INT;
      case "BIGINT":
      case "LONG":
        return ColumnType.LONG;
      case "FLOAT":
      case "REAL":
        return ColumnType.FLOAT;
      case "DOUBLE":
        return ColumnType.DOUBLE;
      default:
        return timeOrOther(name);
    }
  }

  private static ColumnType timeOrOther(String name) {
    switch (name) {
      case "DATE":
        return ColumnType.DATE;
      case "TIMESTAMP":
      case "TIMESTAMP_LTZ":
        return ColumnType.TIMESTAMP;
      case "TIMESTAMP_NTZ":
        return ColumnType.TIMESTAMP_NTZ;
      case "BINARY":
        return ColumnType.BINARY;
      case "JSON":
        return ColumnType.JSON;
      default:
        return null;
    }
  }

  private ColumnType decimal() {
    if (!accept('(')) {
      return ColumnType.decimal(10, 0); // Spark's DECIMAL
    }
    int precision = number();
    int scale = accept(',') ? number() : 0;
    expect(')');
    return ColumnType.decimal(precision, scale);
  }

  private ColumnType array() {
    expect('<');
    ColumnType element = type();
    expect('>');
    return ColumnType.array(element);
  }

  private ColumnType map() {
    expect('<');
    ColumnType key = type();
    expect(',');
    ColumnType value = type();
    expect('>');
    return ColumnType.map(key, value);
  }

  private ColumnType struct() {
    expect('<');
    RowSchema.Builder fields = RowSchema.builder();
    if (accept('>')) {
      return ColumnType.struct(fields.build());
    }
    do {
      String name = fieldName();
      accept(':');
      ColumnType type = type();
      fields.column(name, type, !notNull());
    } while (accept(','));
    expect('>');
    return ColumnType.struct(fields.build());
  }

  private String fieldName() {
    skipSpace();
    if (!accept('`')) {
      String name = word();
      if (name.isEmpty()) {
        throw syntax("a field name");
      }
      return name;
    }
    StringBuilder name = new StringBuilder();
    while (true) {
      if (pos >= text.length()) {
        throw syntax("a closing `");
      }
      char c = text.charAt(pos++);
      if (c == '`' && (pos >= text.length() || text.charAt(pos) != '`')) {
        return name.toString();
      }
      if (c == '`') {
        pos++; // a doubled back quote
      }
      name.append(c);
    }
  }

  /** Reads {@code NOT NULL} if it comes next. */
  private boolean notNull() {
    skipSpace();
    int start = pos;
    if (word().equalsIgnoreCase("NOT")) {
      skipSpace();
      if (word().equalsIgnoreCase("NULL")) {
        return true;
      }
    }
    pos = start;
    return false;
  }

  private int number() {
    skipSpace();
    int start = pos;
    while (pos < text.length() && Character.isDigit(text.charAt(pos)) && pos - start < 9) {
      pos++;
    }
    if (pos == start) {
      throw syntax("a number");
    }
    return Integer.parseInt(text.substring(start, pos));
  }

  private String word() {
    int start = pos;
    while (pos < text.length()
        && (Character.isLetterOrDigit(text.charAt(pos)) || text.charAt(pos) == '_')) {
      pos++;
    }
    return text.substring(start, pos);
  }

  private boolean accept(char c) {
    skipSpace();
    if (pos < text.length() && text.charAt(pos) == c) {
      pos++;
      return true;
    }
    return false;
  }

  private void expect(char c) {
    if (!accept(c)) {
      throw syntax("'" + c + "'");
    }
  }

  private void skipSpace() {
    while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
      pos++;
    }
  }

  private LakestreamException syntax(String expected) {
    String found = pos < text.length() ? "'" + text.charAt(pos) + "'" : "the end";
    return new LakestreamException(
        SchemaErrorClass.INVALID_TYPE_SYNTAX,
        "cannot read the data type '"
            + text
            + "': expected "
            + expected
            + " at position "
            + (pos + 1)
            + " but found "
            + found
            + "; write types as in Spark SQL, e.g. DECIMAL(12,2) or ARRAY<STRING>");
  }
}
