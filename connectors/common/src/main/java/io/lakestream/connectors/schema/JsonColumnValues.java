package io.lakestream.connectors.schema;

import com.fasterxml.jackson.databind.JsonNode;
import io.lakestream.api.annotation.Internal;
import io.lakestream.api.value.IsoInstants;
import io.lakestream.api.value.TimestampRange;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;

/**
 * The value of a record's field in its column's type: numbers, booleans and dates from JSON values
 * or from their text (CSV has only text), decimals rescaled without rounding, timestamps from ISO
 * text ({@code 2026-01-01T10:00:00Z}, or without a zone as UTC, {@code T} or a space between date
 * and time). A STRING column takes any value (objects and arrays as JSON text).
 *
 * <p>Hostile values are refused, never converted into something else: a decimal whose digits do not
 * fit (also {@code 1e999999999}, refused before any rescaling could allocate its digits), a date or
 * timestamp outside years 0001-9999 (Spark's and Delta's range; beyond it a Delta writer would fail
 * the task), an integer out of the column's range.
 *
 * <p>Shared by the JSON readers: Auto Loader's JSON files and the SQL Kafka source's {@code format
 * = 'json'}.
 */
@Internal
public final class JsonColumnValues {

  /** Jackson's own limit on a number's text (StreamReadConstraints), applied to text values too. */
  private static final int MAX_NUMBER_LENGTH = 1000;

  private JsonColumnValues() {}

  /**
   * The value of {@code node} in {@code type}; null for a JSON null.
   *
   * @throws IllegalArgumentException if the value does not fit the type (Auto Loader then rescues
   *     it)
   */
  public static Object convert(ColumnType type, JsonNode node) {
    if (node == null || node.isNull() || node.isMissingNode()) {
      return null;
    }
    String text = node.isContainerNode() ? node.toString() : node.asText();
    try {
      Object value = type.kind() == ColumnType.Kind.STRING ? text : typed(type, node, text);
      if (value != null) {
        return value;
      }
    } catch (ArithmeticException | DateTimeParseException | IllegalArgumentException e) {
      // not of this type (NumberFormatException and bad base64 are IllegalArgumentExceptions):
      // rescued or reported by the caller
    }
    throw new IllegalArgumentException(text + " is not a " + type.sql());
  }

  /** The value, or null if the node's kind does not fit (a number for a date, ...). */
  private static Object typed(ColumnType type, JsonNode node, String text) {
    if (type.kind() == ColumnType.Kind.BOOLEAN) {
      return bool(node, text);
    }
    String trimmed = text.trim();
    switch (type.kind()) {
      case LONG:
        if (node.isIntegralNumber() && node.canConvertToLong()) {
          return node.longValue();
        }
        return node.isTextual() ? Long.parseLong(trimmed) : null;
      case INT:
        if (node.isIntegralNumber() && node.canConvertToInt()) {
          return node.intValue();
        }
        return node.isTextual() ? Integer.parseInt(trimmed) : null;
      case DOUBLE:
        if (node.isNumber()) {
          return node.doubleValue();
        }
        return node.isTextual() ? Double.parseDouble(trimmed) : null;
      case DECIMAL:
        return node.isNumber() || node.isTextual()
            ? decimal((ColumnType.Decimal) type, trimmed)
            : null;
      case DATE:
        return node.isTextual() ? inRange(LocalDate.parse(trimmed)) : null;
      case TIMESTAMP:
        return node.isTextual() ? inRange(timestamp(trimmed)) : null;
      case BINARY:
        return binary(node, trimmed);
      default:
        return null;
    }
  }

  /** A JSON boolean, or the text {@code true} / {@code false} in any case (not trimmed). */
  private static Object bool(JsonNode node, String text) {
    if (node.isBoolean()) {
      return node.booleanValue();
    }
    return node.isTextual() && (text.equalsIgnoreCase("true") || text.equalsIgnoreCase("false"))
        ? Boolean.parseBoolean(text)
        : null;
  }

  private static BigDecimal decimal(ColumnType.Decimal type, String text) {
    if (text.length() > MAX_NUMBER_LENGTH) {
      return null; // parsing a huge digit string costs more than any decimal(38) can hold
    }
    BigDecimal value = new BigDecimal(text);
    if (value.signum() == 0) {
      return BigDecimal.ZERO.setScale(type.scale());
    }
    // Digits before the point, and digits after it once trailing zeros go: checked before
    // setScale, which would otherwise build all the digits of 1e999999999.
    long integerDigits = (long) value.precision() - value.scale();
    if (integerDigits > type.precision() - type.scale()
        || value.stripTrailingZeros().scale() > type.scale()) {
      return null;
    }
    return value.setScale(type.scale(), RoundingMode.UNNECESSARY);
  }

  private static LocalDate inRange(LocalDate date) {
    return TimestampRange.contains(date) ? date : null;
  }

  /** Bytes as they are (a binary node), or base64 text; null for other nodes. */
  private static byte[] binary(JsonNode node, String text) {
    if (node.isBinary()) {
      try {
        return node.binaryValue();
      } catch (java.io.IOException e) {
        return null;
      }
    }
    return node.isTextual() ? java.util.Base64.getDecoder().decode(text) : null;
  }

  private static Instant inRange(Instant instant) {
    return TimestampRange.contains(instant) ? instant : null;
  }

  private static Instant timestamp(String text) {
    try {
      return IsoInstants.parse(text);
    } catch (DateTimeParseException e) {
      return LocalDateTime.parse(text.replace(' ', 'T')).toInstant(ZoneOffset.UTC);
    }
  }
}
