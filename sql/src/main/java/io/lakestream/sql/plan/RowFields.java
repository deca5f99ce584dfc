package io.lakestream.sql.plan;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * The fields of a row type as Flink's plan JSON writes it: either SQL text ({@code ROW<`customer`
 * VARCHAR(2147483647), `amount` BIGINT>}) or an object with {@code fields}, whose field types are
 * text or objects (time attributes). Types are normalized for comparison: a time attribute is
 * written as its timestamp type, and nullability is left out (neither changes how a value is stored
 * in state).
 */
final class RowFields {
  /** A field of a row: its name and normalized type. */
  record Field(String name, String type) {}

  private RowFields() {}

  /** The fields of {@code rowType} (text or object); empty for anything else. */
  static List<Field> of(JsonNode rowType) {
    if (rowType == null || rowType.isNull()) {
      return List.of();
    }
    if (rowType.isTextual()) {
      return parse(rowType.asText());
    }
    List<Field> fields = new ArrayList<>();
    for (JsonNode field : rowType.path("fields")) {
      fields.add(new Field(field.path("name").asText(), type(field.path("fieldType"))));
    }
    return fields;
  }

  /** A normalized type: text as written, a time attribute object as its timestamp type. */
  static String type(JsonNode type) {
    if (type.isTextual()) {
      return withoutNotNull(type.asText());
    }
    String precision = type.has("precision") ? "(" + type.path("precision").asInt() + ")" : "";
    return switch (type.path("type").asText()) {
      case "TIMESTAMP_WITHOUT_TIME_ZONE" -> "TIMESTAMP" + precision;
      case "TIMESTAMP_WITH_LOCAL_TIME_ZONE" -> "TIMESTAMP" + precision + " WITH LOCAL TIME ZONE";
      case "TIMESTAMP_WITH_TIME_ZONE" -> "TIMESTAMP" + precision + " WITH TIME ZONE";
      default -> type.toString();
    };
  }

  private static String withoutNotNull(String type) {
    String t = type.strip();
    return t.endsWith(" NOT NULL") ? t.substring(0, t.length() - " NOT NULL".length()) : t;
  }

  /** The fields of {@code ROW<`a` T, ...>} text. */
  private static List<Field> parse(String text) {
    int open = text.indexOf('<');
    int close = text.lastIndexOf('>');
    if (!text.startsWith("ROW") || open < 0 || close < open) {
      return List.of();
    }
    List<Field> fields = new ArrayList<>();
    for (String part : topLevelParts(text.substring(open + 1, close))) {
      fields.add(field(part.strip()));
    }
    return fields;
  }

  private static Field field(String part) {
    if (!part.startsWith("`")) {
      int space = part.indexOf(' ');
      return space < 0
          ? new Field(part, "")
          : new Field(part.substring(0, space), withoutNotNull(part.substring(space + 1)));
    }
    int end = 1;
    StringBuilder name = new StringBuilder();
    while (end < part.length()) {
      char c = part.charAt(end);
      if (c == '`' && end + 1 < part.length() && part.charAt(end + 1) == '`') {
        name.append('`');
        end += 2;
      } else if (c == '`') {
        break;
      } else {
        name.append(c);
        end++;
      }
    }
    return new Field(name.toString(), withoutNotNull(part.substring(end + 1)));
  }

  /** The comma-separated parts outside brackets, parentheses, quotes and backticks. */
  private static List<String> topLevelParts(String text) {
    List<String> parts = new ArrayList<>();
    int depth = 0;
    char quote = 0;
    int start = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (quote != 0) {
        quote = c == quote ? 0 : quote;
      } else if (c == '`' || c == '\'') {
        quote = c;
      } else if (c == '<' || c == '(') {
        depth++;
      } else if (c == '>' || c == ')') {
        depth--;
      } else if (c == ',' && depth == 0) {
        parts.add(text.substring(start, i));
        start = i + 1;
      }
    }
    if (start < text.length()) {
      parts.add(text.substring(start));
    }
    return parts;
  }
}
