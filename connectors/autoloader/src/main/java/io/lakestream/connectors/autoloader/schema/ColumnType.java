package io.lakestream.connectors.autoloader.schema;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.Serializable;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;

/**
 * A column type of an Auto Loader schema, written as in Spark SQL DDL: {@code STRING}, {@code
 * BIGINT}, {@code INT}, {@code DOUBLE}, {@code BOOLEAN}, {@code DATE}, {@code TIMESTAMP}, {@code
 * DECIMAL(p,s)}.
 *
 * @param name the type name, upper case
 * @param precision decimal precision (0 for other types)
 * @param scale decimal scale (0 for other types)
 */
public record ColumnType(String name, int precision, int scale) implements Serializable {
  public static final ColumnType STRING = new ColumnType("STRING", 0, 0);
  public static final ColumnType BIGINT = new ColumnType("BIGINT", 0, 0);
  public static final ColumnType INT = new ColumnType("INT", 0, 0);
  public static final ColumnType DOUBLE = new ColumnType("DOUBLE", 0, 0);
  public static final ColumnType BOOLEAN = new ColumnType("BOOLEAN", 0, 0);
  public static final ColumnType DATE = new ColumnType("DATE", 0, 0);
  public static final ColumnType TIMESTAMP = new ColumnType("TIMESTAMP", 0, 0);

  private static final Pattern DECIMAL =
      Pattern.compile("DECIMAL\\s*\\(\\s*(\\d+)\\s*,\\s*(\\d+)\\s*\\)", Pattern.CASE_INSENSITIVE);

  /**
   * Parses a DDL type name.
   *
   * @throws IllegalArgumentException naming the supported types
   */
  public static ColumnType parse(String text) {
    String t = text.trim().toUpperCase(Locale.ROOT);
    Matcher decimal = DECIMAL.matcher(t);
    if (decimal.matches()) {
      return new ColumnType(
          "DECIMAL", Integer.parseInt(decimal.group(1)), Integer.parseInt(decimal.group(2)));
    }
    switch (t) {
      case "STRING":
        return STRING;
      case "BIGINT":
      case "LONG":
        return BIGINT;
      case "INT":
      case "INTEGER":
        return INT;
      case "DOUBLE":
        return DOUBLE;
      case "BOOLEAN":
        return BOOLEAN;
      case "DATE":
        return DATE;
      case "TIMESTAMP":
        return TIMESTAMP;
      default:
        throw new IllegalArgumentException(
            "Unsupported column type '"
                + text.trim()
                + "'; supported: STRING, BIGINT, INT, DOUBLE, BOOLEAN, DATE, TIMESTAMP,"
                + " DECIMAL(p,s)");
    }
  }

  /** The DDL text, e.g. {@code DECIMAL(12,2)}. */
  public String sql() {
    return name.equals("DECIMAL") ? "DECIMAL(" + precision + "," + scale + ")" : name;
  }

  /** The Flink type of the column's values. */
  public TypeInformation<?> typeInfo() {
    switch (name) {
      case "BIGINT":
        return Types.LONG;
      case "INT":
        return Types.INT;
      case "DOUBLE":
        return Types.DOUBLE;
      case "BOOLEAN":
        return Types.BOOLEAN;
      case "DATE":
        return Types.LOCAL_DATE;
      case "TIMESTAMP":
        return Types.INSTANT;
      case "DECIMAL":
        return Types.BIG_DEC;
      default:
        return Types.STRING;
    }
  }

  /**
   * The value of {@code node} in this type; null for a JSON null.
   *
   * @throws IllegalArgumentException if the value does not fit this type (it is then rescued)
   */
  public Object convert(JsonNode node) {
    if (node == null || node.isNull() || node.isMissingNode()) {
      return null;
    }
    String text = node.isContainerNode() ? node.toString() : node.asText();
    try {
      switch (name) {
        case "STRING":
          return text;
        case "BIGINT":
          if (node.isIntegralNumber() && node.canConvertToLong()) {
            return node.longValue();
          }
          if (node.isTextual()) {
            return Long.parseLong(text.trim());
          }
          break;
        case "INT":
          if (node.isIntegralNumber() && node.canConvertToInt()) {
            return node.intValue();
          }
          if (node.isTextual()) {
            return Integer.parseInt(text.trim());
          }
          break;
        case "DOUBLE":
          if (node.isNumber()) {
            return node.doubleValue();
          }
          if (node.isTextual()) {
            return Double.parseDouble(text.trim());
          }
          break;
        case "BOOLEAN":
          if (node.isBoolean()) {
            return node.booleanValue();
          }
          if (node.isTextual()
              && (text.equalsIgnoreCase("true") || text.equalsIgnoreCase("false"))) {
            return Boolean.parseBoolean(text);
          }
          break;
        case "DECIMAL":
          if (node.isNumber() || node.isTextual()) {
            BigDecimal value = new BigDecimal(text.trim());
            BigDecimal scaled = value.setScale(scale, RoundingMode.UNNECESSARY);
            if (scaled.precision() <= precision) {
              return scaled;
            }
          }
          break;
        case "DATE":
          if (node.isTextual()) {
            return LocalDate.parse(text.trim());
          }
          break;
        case "TIMESTAMP":
          if (node.isTextual()) {
            return timestamp(text.trim());
          }
          break;
        default:
          break;
      }
    } catch (NumberFormatException | ArithmeticException | DateTimeParseException e) {
      // not of this type: rescued or reported by the caller
    }
    throw new IllegalArgumentException(text + " is not a " + sql());
  }

  private static Instant timestamp(String text) {
    try {
      return Instant.parse(text);
    } catch (DateTimeParseException e) {
      return LocalDateTime.parse(text.replace(' ', 'T')).toInstant(ZoneOffset.UTC);
    }
  }

  /**
   * The type inferred for one value ({@code null} for a JSON null: no information).
   *
   * @param textValues the format has only text values (CSV): numbers and booleans are recognized in
   *     text; in JSON a string stays a string, as in Spark
   */
  public static ColumnType infer(JsonNode node, boolean inferColumnTypes, boolean textValues) {
    if (node == null || node.isNull()) {
      return null;
    }
    if (!inferColumnTypes) {
      return STRING;
    }
    if (node.isIntegralNumber()) {
      return node.canConvertToLong() ? BIGINT : DOUBLE;
    }
    if (node.isNumber()) {
      return DOUBLE;
    }
    if (node.isBoolean()) {
      return BOOLEAN;
    }
    if (node.isTextual() && textValues) {
      String text = node.asText().trim();
      if (text.matches("-?\\d{1,18}")) {
        return BIGINT;
      }
      if (text.matches("-?(\\d+\\.\\d*|\\.\\d+|\\d+)([eE][-+]?\\d+)?")) {
        return DOUBLE;
      }
      if (text.equalsIgnoreCase("true") || text.equalsIgnoreCase("false")) {
        return BOOLEAN;
      }
    }
    return STRING;
  }

  /**
   * The narrowest type both values fit: INT and BIGINT widen to BIGINT, either with DOUBLE to
   * DOUBLE, anything else to STRING.
   */
  public static ColumnType merge(ColumnType a, ColumnType b) {
    if (a == null) {
      return b;
    }
    if (b == null || a.equals(b)) {
      return a;
    }
    if (isNumeric(a) && isNumeric(b)) {
      return a.equals(DOUBLE) || b.equals(DOUBLE) ? DOUBLE : BIGINT;
    }
    return STRING;
  }

  private static boolean isNumeric(ColumnType type) {
    return type.equals(INT) || type.equals(BIGINT) || type.equals(DOUBLE);
  }
}
