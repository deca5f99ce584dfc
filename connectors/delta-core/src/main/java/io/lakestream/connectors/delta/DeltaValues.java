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
import java.time.temporal.ChronoUnit;

/** Conversions between Java row values, Kernel vector values and partition-value text. */
final class DeltaValues {
  private DeltaValues() {}

  /**
   * The Kernel in-memory value of {@code value} for a column (Long micros for timestamps, Integer
   * days for dates, a BigDecimal of the column's scale for decimals).
   *
   * @throws LakestreamException ({@code DELTA_INVALID_ROW}) if the value does not fit the column
   */
  static Object toKernelValue(Column column, Object value) {
    if (value == null) {
      if (!column.nullable()) {
        throw new LakestreamException(
            DeltaErrorClass.DELTA_INVALID_ROW,
            "Column '" + column.name() + "' is NOT NULL but the row holds null");
      }
      return null;
    }
    ColumnType type = column.type();
    switch (type.kind()) {
      case STRING:
        if (value instanceof CharSequence s) {
          return s.toString();
        }
        break;
      case LONG:
        if (value instanceof Long
            || value instanceof Integer
            || value instanceof Short
            || value instanceof Byte) {
          return ((Number) value).longValue();
        }
        break;
      case INT:
        if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
          return ((Number) value).intValue();
        }
        break;
      case DOUBLE:
        if (value instanceof Double || value instanceof Float) {
          return ((Number) value).doubleValue();
        }
        break;
      case BOOLEAN:
        if (value instanceof Boolean) {
          return value;
        }
        break;
      case DECIMAL:
        if (value instanceof BigDecimal d) {
          ColumnType.Decimal decimal = (ColumnType.Decimal) type;
          BigDecimal scaled;
          try {
            scaled = d.setScale(decimal.scale(), RoundingMode.UNNECESSARY);
          } catch (ArithmeticException e) {
            throw new LakestreamException(
                DeltaErrorClass.DELTA_INVALID_ROW,
                "Column '" + column.name() + "' is " + type + " but " + d + " needs rounding");
          }
          if (scaled.precision() > decimal.precision()) {
            throw new LakestreamException(
                DeltaErrorClass.DELTA_INVALID_ROW,
                "Column '" + column.name() + "' is " + type + " but " + d + " has more digits");
          }
          return scaled;
        }
        break;
      case TIMESTAMP:
        if (value instanceof Instant i) {
          return epochMicros(column, i);
        }
        if (value instanceof Long micros) {
          return micros;
        }
        break;
      case DATE:
        if (value instanceof LocalDate d) {
          return epochDays(column, d);
        }
        if (value instanceof Integer days) {
          return days;
        }
        break;
      default:
        break;
    }
    throw new LakestreamException(
        DeltaErrorClass.DELTA_INVALID_ROW,
        "Column '"
            + column.name()
            + "' is "
            + type
            + " but the row holds a "
            + value.getClass().getName()
            + " ("
            + value
            + "); see ColumnType for the accepted Java values");
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

  private static long epochMicros(Column column, Instant instant) {
    try {
      return epochMicros(instant);
    } catch (ArithmeticException e) {
      throw outOfRange(column, instant);
    }
  }

  private static int epochDays(Column column, LocalDate date) {
    try {
      return Math.toIntExact(date.toEpochDay());
    } catch (ArithmeticException e) {
      throw outOfRange(column, date);
    }
  }

  private static LakestreamException outOfRange(Column column, Object value) {
    return new LakestreamException(
        DeltaErrorClass.DELTA_INVALID_ROW,
        "Column '"
            + column.name()
            + "' is "
            + column.type()
            + " but "
            + value
            + " is outside the range a Delta table stores");
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
      case DATE:
        return LocalDate.ofEpochDay((Integer) kernelValue).toString();
      default:
        return kernelValue.toString();
    }
  }

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
      case DOUBLE:
        return Literal.ofDouble(Double.parseDouble(text));
      case BOOLEAN:
        return Literal.ofBoolean(Boolean.parseBoolean(text));
      case DECIMAL:
        ColumnType.Decimal decimal = (ColumnType.Decimal) type;
        return Literal.ofDecimal(new BigDecimal(text), decimal.precision(), decimal.scale());
      case TIMESTAMP:
        return Literal.ofTimestamp(epochMicros(Instant.parse(text)));
      case DATE:
        return Literal.ofDate(Math.toIntExact(LocalDate.parse(text).toEpochDay()));
      default:
        throw new IllegalStateException("unknown kind " + type.kind());
    }
  }
}
