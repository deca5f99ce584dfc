package io.lakestream.connectors.delta.filter;

import com.fasterxml.jackson.databind.JsonNode;
import io.delta.kernel.types.BooleanType;
import io.delta.kernel.types.ByteType;
import io.delta.kernel.types.DataType;
import io.delta.kernel.types.DateType;
import io.delta.kernel.types.DecimalType;
import io.delta.kernel.types.DoubleType;
import io.delta.kernel.types.FloatType;
import io.delta.kernel.types.IntegerType;
import io.delta.kernel.types.LongType;
import io.delta.kernel.types.ShortType;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.TimestampNTZType;
import io.delta.kernel.types.TimestampType;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;

/**
 * The values filters compare: the Java type of each column type, their order (strings by code
 * point, which is Delta's UTF-8 byte order), and the reading of a statistics value as one.
 */
final class FilterValues {
  private FilterValues() {}

  /** The Java type of a filter value for a column of {@code type}, or null if none compares. */
  static Class<?> javaType(DataType type) {
    if (type instanceof StringType) {
      return String.class;
    } else if (type instanceof LongType) {
      return Long.class;
    } else if (type instanceof IntegerType) {
      return Integer.class;
    } else if (type instanceof ShortType) {
      return Short.class;
    } else if (type instanceof ByteType) {
      return Byte.class;
    } else if (type instanceof DoubleType) {
      return Double.class;
    } else if (type instanceof FloatType) {
      return Float.class;
    } else if (type instanceof BooleanType) {
      return Boolean.class;
    } else if (type instanceof DecimalType) {
      return BigDecimal.class;
    } else if (type instanceof DateType) {
      return LocalDate.class;
    } else if (type instanceof TimestampType) {
      return Instant.class;
    } else if (type instanceof TimestampNTZType) {
      return LocalDateTime.class;
    }
    return null;
  }

  /** Compares two values of one Java type. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  static int compare(Object a, Object b) {
    if (a instanceof String s) {
      return compareCodePoints(s, (String) b);
    }
    return ((Comparable) a).compareTo(b);
  }

  private static int compareCodePoints(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      int ca = a.codePointAt(i);
      int cb = b.codePointAt(j);
      if (ca != cb) {
        return Integer.compare(ca, cb);
      }
      i += Character.charCount(ca);
      j += Character.charCount(cb);
    }
    return Boolean.compare(i < a.length(), j < b.length());
  }

  /** Whether {@code value} is a floating-point NaN, which compares false with everything. */
  static boolean isNaN(Object value) {
    return (value instanceof Double d && d.isNaN()) || (value instanceof Float f && f.isNaN());
  }

  /**
   * The statistics value {@code node} as a value of {@code type}, or null if it is missing or not
   * one. Timestamps are stored truncated to milliseconds: {@code bound} widens them by one to cover
   * what the file holds ({@code -1} for a minimum, {@code 1} for a maximum).
   */
  static Object statistic(JsonNode node, DataType type, int bound) {
    if (node == null || node.isNull() || node.isMissingNode()) {
      return null;
    }
    try {
      Object value = read(node, type);
      if (value instanceof Instant i) {
        return i.plusMillis(bound);
      } else if (value instanceof LocalDateTime t) {
        return t.plusNanos(bound * 1_000_000L);
      }
      return value;
    } catch (DateTimeParseException | ArithmeticException e) {
      return null;
    }
  }

  private static Object read(JsonNode node, DataType type) {
    Class<?> java = javaType(type);
    if (java == String.class || java == LocalDate.class) {
      return !node.isTextual() ? null : java == String.class ? node.textValue() : date(node);
    } else if (java == Instant.class) {
      return node.isTextual() ? instant(node.textValue()) : null;
    } else if (java == LocalDateTime.class) {
      return node.isTextual() ? localTime(node.textValue()) : null;
    } else if (java == Boolean.class) {
      return node.isBoolean() ? node.booleanValue() : null;
    }
    return node.isNumber() ? number(node, java) : null;
  }

  private static Object number(JsonNode node, Class<?> java) {
    if (java == Double.class) {
      return node.doubleValue();
    } else if (java == Float.class) {
      return node.floatValue();
    } else if (java == BigDecimal.class) {
      return node.decimalValue();
    }
    BigDecimal exact = node.decimalValue();
    if (java == Long.class) {
      return exact.longValueExact();
    } else if (java == Integer.class) {
      return exact.intValueExact();
    } else if (java == Short.class) {
      return exact.shortValueExact();
    }
    return java == Byte.class ? exact.byteValueExact() : null;
  }

  private static LocalDate date(JsonNode node) {
    return LocalDate.parse(node.textValue());
  }

  /** Kernel writes {@code ...SSSXXX} in UTC, Spark in the session's time zone. */
  private static Instant instant(String text) {
    try {
      return OffsetDateTime.parse(text).toInstant();
    } catch (DateTimeParseException e) {
      return LocalDateTime.parse(text).toInstant(ZoneOffset.UTC);
    }
  }

  private static LocalDateTime localTime(String text) {
    try {
      return LocalDateTime.parse(text);
    } catch (DateTimeParseException e) {
      return OffsetDateTime.parse(text).toLocalDateTime();
    }
  }
}
