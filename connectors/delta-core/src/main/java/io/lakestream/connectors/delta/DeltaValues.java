package io.lakestream.connectors.delta;

import io.delta.kernel.expressions.Literal;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.schema.Column;
import io.lakestream.connectors.schema.ColumnType;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;

/** Conversions between Java row values, Kernel vector values and partition-value text. */
final class DeltaValues {
  private DeltaValues() {}

  /**
   * The Kernel in-memory value of {@code value} for a column: Byte, Short, Integer, Long, Float,
   * Double, Boolean, String and byte[] as they are, Long micros for timestamps (an {@link Instant},
   * or a {@link LocalDateTime} read as UTC for TIMESTAMP_NTZ), Integer days for dates, a BigDecimal
   * of the column's scale for decimals, a {@link List} of element values for arrays, a {@link
   * java.util.Map} for maps and an {@code Object[]} of field values for structs.
   *
   * @throws LakestreamException ({@code DELTA_INVALID_ROW}) if the value does not fit the column
   *     (names the column, and the nested field or element where that is where it fails)
   */
  static Object toKernelValue(Column column, Object value) {
    return toKernelValue(column.name(), column.type(), column.nullable(), value);
  }

  private static Object toKernelValue(
      String path, ColumnType type, boolean nullable, Object value) {
    if (value == null) {
      if (!nullable) {
        throw new LakestreamException(
            DeltaErrorClass.DELTA_INVALID_ROW,
            "Column '" + path + "' is NOT NULL but the row holds null");
      }
      return null;
    }
    Object converted =
        switch (type.kind()) {
          case ARRAY -> arrayValue(path, (ColumnType.Array) type, value);
          case MAP -> mapValue(path, (ColumnType.Map) type, value);
          case STRUCT -> structValue(path, (ColumnType.Struct) type, value);
          case DECIMAL -> decimalValue(path, (ColumnType.Decimal) type, value);
          default -> primitiveValue(path, type.kind(), value);
        };
    if (converted == null) {
      throw new LakestreamException(
          DeltaErrorClass.DELTA_INVALID_ROW,
          "Column '"
              + path
              + "' is "
              + type
              + " but the row holds a "
              + value.getClass().getName()
              + " ("
              + value
              + "); see ColumnType for the accepted Java values");
    }
    return converted;
  }

  /** The value of a primitive kind, or null if {@code value} is not one of its Java values. */
  private static Object primitiveValue(String path, ColumnType.Kind kind, Object value) {
    return switch (kind) {
      case STRING -> value instanceof CharSequence s ? s.toString() : null;
      case BOOLEAN -> value instanceof Boolean ? value : null;
      case BYTE -> value instanceof Byte ? value : null;
      case SHORT -> value instanceof Short || value instanceof Byte ? shortValue(value) : null;
      case INT -> isIntegral(value, 3) ? (Object) ((Number) value).intValue() : null;
      case LONG -> isIntegral(value, 4) ? (Object) ((Number) value).longValue() : null;
      case FLOAT -> value instanceof Float ? value : null;
      case DOUBLE ->
          value instanceof Double || value instanceof Float
              ? (Object) ((Number) value).doubleValue()
              : null;
      case BINARY -> value instanceof byte[] ? value : null;
      case DATE ->
          value instanceof LocalDate d
              ? (Object) epochDays(path, d)
              : value instanceof Integer ? value : null;
      case TIMESTAMP ->
          value instanceof Instant i
              ? (Object) epochMicros(path, i)
              : value instanceof Long ? value : null;
      case TIMESTAMP_NTZ ->
          value instanceof LocalDateTime t
              ? (Object) epochMicros(path, t.toInstant(ZoneOffset.UTC))
              : null;
      default -> null;
    };
  }

  private static Object shortValue(Object value) {
    return ((Number) value).shortValue();
  }

  /** Whether {@code value} is a Byte, Short, Integer (width 3 or more) or Long (width 4). */
  private static boolean isIntegral(Object value, int width) {
    return value instanceof Byte
        || value instanceof Short
        || (width >= 3 && value instanceof Integer)
        || (width >= 4 && value instanceof Long);
  }

  private static Object decimalValue(String path, ColumnType.Decimal type, Object value) {
    if (!(value instanceof BigDecimal d)) {
      return null;
    }
    BigDecimal scaled;
    try {
      scaled = d.setScale(type.scale(), RoundingMode.UNNECESSARY);
    } catch (ArithmeticException e) {
      throw new LakestreamException(
          DeltaErrorClass.DELTA_INVALID_ROW,
          "Column '" + path + "' is " + type + " but " + d + " needs rounding");
    }
    if (scaled.precision() > type.precision()) {
      throw new LakestreamException(
          DeltaErrorClass.DELTA_INVALID_ROW,
          "Column '" + path + "' is " + type + " but " + d + " has more digits");
    }
    return scaled;
  }

  private static Object arrayValue(String path, ColumnType.Array type, Object value) {
    if (!(value instanceof List<?> list)) {
      return null;
    }
    List<Object> elements = new ArrayList<>(list.size());
    for (Object element : list) {
      elements.add(
          toKernelValue(path + ".element", type.elementType(), type.containsNull(), element));
    }
    return elements;
  }

  private static Object mapValue(String path, ColumnType.Map type, Object value) {
    if (!(value instanceof java.util.Map<?, ?> map)) {
      return null;
    }
    java.util.Map<Object, Object> entries = new LinkedHashMap<>();
    for (java.util.Map.Entry<?, ?> e : map.entrySet()) {
      entries.put(
          toKernelValue(path + ".key", type.keyType(), false, e.getKey()),
          toKernelValue(path + ".value", type.valueType(), type.valueContainsNull(), e.getValue()));
    }
    return entries;
  }

  private static Object structValue(String path, ColumnType.Struct type, Object value) {
    List<Column> fields = type.fields().columns();
    if (!(value instanceof Object[] values) || values.length != fields.size()) {
      return null;
    }
    Object[] converted = new Object[values.length];
    for (int f = 0; f < values.length; f++) {
      Column field = fields.get(f);
      converted[f] =
          toKernelValue(path + "." + field.name(), field.type(), field.nullable(), values[f]);
    }
    return converted;
  }

  /**
   * Microseconds since the epoch, exact for every instant of about +-292,000 years (not {@code
   * ChronoUnit.MICROS.between}, which goes through nanoseconds and overflows beyond 1677-2262).
   *
   * @throws ArithmeticException beyond that range
   */
  static long epochMicros(Instant instant) {
    return Math.addExact(
        Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1_000);
  }

  private static long epochMicros(String path, Instant instant) {
    try {
      return epochMicros(instant);
    } catch (ArithmeticException e) {
      throw outOfRange(path, instant);
    }
  }

  private static int epochDays(String path, LocalDate date) {
    try {
      return Math.toIntExact(date.toEpochDay());
    } catch (ArithmeticException e) {
      throw outOfRange(path, date);
    }
  }

  private static LakestreamException outOfRange(String path, Object value) {
    return new LakestreamException(
        DeltaErrorClass.DELTA_INVALID_ROW,
        "Column '" + path + "' holds " + value + ", outside the range a Delta table stores");
  }

  /** File systems and object stores take at most 255 bytes per path segment. */
  private static final int MAX_DIRECTORY_NAME_BYTES = 255;

  /**
   * {@code text}, if {@code column=text} fits in one directory name once escaped. The escaped
   * length is estimated from above (3 bytes for every byte that is not a letter, digit or {@code
   * ._-}), so a value refused here may have fitted, but none that is accepted fails in the file
   * system.
   *
   * @throws LakestreamException ({@code DELTA_INVALID_ROW}) naming the column and the value's start
   */
  static String requireDirectoryName(Column column, String text) {
    // A char is at most 3 UTF-8 bytes (a surrogate pair, 2 chars, is 4), each escaped to 3.
    if (text == null
        || text.length() * 9 + column.name().length() + 1 <= MAX_DIRECTORY_NAME_BYTES) {
      return text;
    }
    long bytes = column.name().length() + 1;
    for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
      boolean plain =
          (b >= 'a' && b <= 'z')
              || (b >= 'A' && b <= 'Z')
              || (b >= '0' && b <= '9')
              || b == '.'
              || b == '_'
              || b == '-';
      bytes += plain ? 1 : 3;
    }
    if (bytes <= MAX_DIRECTORY_NAME_BYTES) {
      return text;
    }
    throw new LakestreamException(
        DeltaErrorClass.DELTA_INVALID_ROW,
        "Partition column '"
            + column.name()
            + "' holds a value of "
            + text.length()
            + " characters ("
            + (text.length() > 40 ? text.substring(0, 40) + "..." : text)
            + "), too long for the directory name "
            + column.name()
            + "=<value> (at most "
            + MAX_DIRECTORY_NAME_BYTES
            + " bytes once escaped). Check the input's values for this column, or partition the"
            + " table by a shorter column.");
  }

  /** The text form of a Kernel value of a partition column (null stays null). */
  static String toPartitionText(ColumnType type, Object kernelValue) {
    if (kernelValue == null) {
      return null;
    }
    switch (type.kind()) {
      case DECIMAL:
        return ((BigDecimal) kernelValue).toPlainString();
      case TIMESTAMP:
        return Instant.EPOCH.plus((Long) kernelValue, ChronoUnit.MICROS).toString();
      case TIMESTAMP_NTZ:
        return NTZ_PARTITION_TEXT.format(
            LocalDateTime.ofInstant(
                Instant.EPOCH.plus((Long) kernelValue, ChronoUnit.MICROS), ZoneOffset.UTC));
      case DATE:
        return LocalDate.ofEpochDay((Integer) kernelValue).toString();
      default:
        return kernelValue.toString();
    }
  }

  /** The Delta protocol's partition text of a timestamp without time zone (as Spark writes it). */
  private static final DateTimeFormatter NTZ_PARTITION_TEXT =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss[.SSSSSS]");

  /** The Kernel literal of a partition value in {@link #toPartitionText} form. */
  static Literal toPartitionLiteral(ColumnType type, String text) {
    if (text == null) {
      return Literal.ofNull(DeltaTypes.toKernel(type));
    }
    switch (type.kind()) {
      case STRING:
        return Literal.ofString(text);
      case LONG:
        return Literal.ofLong(Long.parseLong(text));
      case INT:
        return Literal.ofInt(Integer.parseInt(text));
      case SHORT:
        return Literal.ofShort(Short.parseShort(text));
      case BYTE:
        return Literal.ofByte(Byte.parseByte(text));
      case DOUBLE:
        return Literal.ofDouble(Double.parseDouble(text));
      case FLOAT:
        return Literal.ofFloat(Float.parseFloat(text));
      case BOOLEAN:
        return Literal.ofBoolean(Boolean.parseBoolean(text));
      case DECIMAL:
        ColumnType.Decimal decimal = (ColumnType.Decimal) type;
        return Literal.ofDecimal(new BigDecimal(text), decimal.precision(), decimal.scale());
      case TIMESTAMP:
        return Literal.ofTimestamp(epochMicros(Instant.parse(text)));
      case TIMESTAMP_NTZ:
        return Literal.ofTimestampNtz(
            epochMicros(LocalDateTime.parse(text.replace(' ', 'T')).toInstant(ZoneOffset.UTC)));
      case DATE:
        return Literal.ofDate(Math.toIntExact(LocalDate.parse(text).toEpochDay()));
      default:
        throw new IllegalStateException("unknown kind " + type.kind());
    }
  }
}
