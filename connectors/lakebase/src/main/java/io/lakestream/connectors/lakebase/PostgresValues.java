package io.lakestream.connectors.lakebase;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.schema.ColumnType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;

/**
 * Binds row values to statement parameters by column type, taking the Java values {@link
 * PostgresTypes} lists (and, as the schema model allows, {@link Integer} days for DATE and {@link
 * Long} microseconds for TIMESTAMP, which Flink SQL's rows carry). A value of another Java class
 * fails with a {@link ClassCastException} (an integral overflow with an {@link
 * ArithmeticException}), which {@link UpsertStatement#bind} reports with the column name.
 */
@Internal
public final class PostgresValues {
  private PostgresValues() {}

  /**
   * Binds {@code value} as parameter {@code index}.
   *
   * @throws ClassCastException if the value's Java class does not fit the type
   * @throws SQLException as the driver reports it
   */
  public static void bind(PreparedStatement statement, int index, ColumnType type, Object value)
      throws SQLException {
    if (value == null) {
      statement.setNull(index, jdbcType(type.kind()));
      return;
    }
    switch (type.kind()) {
      case STRING -> statement.setString(index, ((CharSequence) value).toString());
      case LONG -> statement.setLong(index, integral(value));
      case INT -> statement.setInt(index, Math.toIntExact(integral(value)));
      case DOUBLE -> statement.setDouble(index, ((Number) value).doubleValue());
      case BOOLEAN -> statement.setBoolean(index, (Boolean) value);
      case DECIMAL -> statement.setBigDecimal(index, (BigDecimal) value);
      case TIMESTAMP -> statement.setObject(index, instant(value).atOffset(ZoneOffset.UTC));
      case TIMESTAMP_NTZ -> statement.setObject(index, (LocalDateTime) value);
      case DATE -> statement.setObject(index, date(value));
      case BINARY -> statement.setBytes(index, (byte[]) value);
      case JSON -> statement.setObject(index, ((CharSequence) value).toString(), Types.OTHER);
      default -> throw new IllegalStateException("the Lakebase sink does not write " + type);
    }
  }

  private static int jdbcType(ColumnType.Kind kind) {
    return switch (kind) {
      case STRING -> Types.VARCHAR;
      case LONG -> Types.BIGINT;
      case INT -> Types.INTEGER;
      case DOUBLE -> Types.DOUBLE;
      case BOOLEAN -> Types.BOOLEAN;
      case DECIMAL -> Types.NUMERIC;
      case TIMESTAMP -> Types.TIMESTAMP_WITH_TIMEZONE;
      case TIMESTAMP_NTZ -> Types.TIMESTAMP;
      case DATE -> Types.DATE;
      case BINARY -> Types.BINARY;
      default -> Types.OTHER;
    };
  }

  /** An {@link Instant}, or {@link Long} microseconds since the epoch, as an instant. */
  private static Instant instant(Object value) {
    if (value instanceof Long micros) {
      return Instant.EPOCH.plus(micros, ChronoUnit.MICROS);
    }
    return (Instant) value;
  }

  /** A {@link LocalDate}, or {@link Integer} days since the epoch, as a date. */
  private static LocalDate date(Object value) {
    if (value instanceof Integer days) {
      return LocalDate.ofEpochDay(days);
    }
    return (LocalDate) value;
  }

  /** The value of an integral {@link Number}; refuses floating point and big numbers. */
  static long integral(Object value) {
    Number number = (Number) value;
    if (number instanceof Double
        || number instanceof Float
        || number instanceof BigDecimal
        || number instanceof BigInteger) {
      throw new ClassCastException(
          value.getClass().getName() + " is not an integral type (Long, Integer, Short, Byte)");
    }
    return number.longValue();
  }
}
