package io.lakestream.connectors.delta;

import io.delta.kernel.types.BinaryType;
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
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.TimestampNTZType;
import io.delta.kernel.types.TimestampType;
import io.lakestream.api.annotation.Internal;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * A partition value's text form (as an {@code add} action holds it) as the Java value rows carry
 * ({@link DeltaTableReader} documents them): the data file reader fills partition columns with it,
 * and partition pruning compares it.
 */
@Internal
public final class DeltaPartitionValues {
  private DeltaPartitionValues() {}

  /**
   * The value of {@code field} whose text is {@code text}: null for a null value (and for an empty
   * text, except of a string column).
   *
   * @param file the data file the value belongs to, for the message
   * @throws DeltaTableException ({@code DELTA_TABLE_CORRUPT}) if the text is no value of the
   *     column's type, ({@code DELTA_UNSUPPORTED_FEATURE}) for a type partitions cannot have
   */
  public static Object parse(StructField field, String text, String file) {
    DataType type = field.getDataType();
    if (text == null || (text.isEmpty() && !(type instanceof StringType))) {
      return null;
    }
    try {
      if (type instanceof StringType) {
        return text;
      } else if (type instanceof LongType) {
        return Long.parseLong(text);
      } else if (type instanceof IntegerType) {
        return Integer.parseInt(text);
      } else if (type instanceof ShortType) {
        return Short.parseShort(text);
      } else if (type instanceof ByteType) {
        return Byte.parseByte(text);
      } else if (type instanceof DoubleType) {
        return Double.parseDouble(text);
      } else if (type instanceof FloatType) {
        return Float.parseFloat(text);
      } else if (type instanceof BooleanType) {
        return Boolean.parseBoolean(text);
      } else if (type instanceof DecimalType decimal) {
        return new BigDecimal(text).setScale(decimal.getScale());
      } else if (type instanceof DateType) {
        return LocalDate.parse(text);
      } else if (type instanceof TimestampType) {
        return text.endsWith("Z") ? Instant.parse(text) : localTime(text).toInstant(ZoneOffset.UTC);
      } else if (type instanceof TimestampNTZType) {
        return localTime(text);
      } else if (type instanceof BinaryType) {
        return text.getBytes(StandardCharsets.UTF_8);
      }
    } catch (RuntimeException e) {
      throw new DeltaTableException(
          DeltaErrorClass.DELTA_TABLE_CORRUPT,
          "Partition value '"
              + text
              + "' of column '"
              + field.getName()
              + "' in "
              + file
              + " is not a valid "
              + type,
          e);
    }
    throw new DeltaTableException(
        DeltaErrorClass.DELTA_UNSUPPORTED_FEATURE, "Unsupported partition column type " + type);
  }

  /** Spark's partition text {@code 2024-05-01 10:00:00[.123456]} or ISO form. */
  private static LocalDateTime localTime(String text) {
    return LocalDateTime.parse(text.replace(' ', 'T'));
  }
}
