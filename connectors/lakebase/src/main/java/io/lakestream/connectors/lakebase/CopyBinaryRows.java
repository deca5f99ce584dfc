package io.lakestream.connectors.lakebase;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.schema.Column;
import io.lakestream.connectors.schema.ColumnType;
import java.io.ByteArrayInputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;
import org.postgresql.PGConnection;

/**
 * Rows encoded in PostgreSQL's binary {@code COPY} format, for {@code COPY .. FROM STDIN (FORMAT
 * binary)}: the column kinds with an encoding here are those with an array binding ({@link
 * ColumnArrays#arrayType}): LONG (int8), INT (int4), DOUBLE (float8), STRING (text), BOOLEAN (bool)
 * and DECIMAL (numeric). The server reads each field by the column's type without parsing text, so
 * the target columns must have exactly these types (the staging tables the sink creates do).
 *
 * <p>One instance is reused for every batch of one writer: {@link #reset}, a {@link #startRow} and
 * its fields per row, then {@link #copyIn}. A value of the wrong Java class fails with a {@link
 * ClassCastException} (an integral overflow with an {@link ArithmeticException}), as {@link
 * ColumnArrays} does; the caller replays the rows one by one to name it.
 */
@Internal
public final class CopyBinaryRows {
  private static final byte[] HEADER = {
    'P', 'G', 'C', 'O', 'P', 'Y', '\n', (byte) 0xff, '\r', '\n', 0, 0, 0, 0, 0, 0, 0, 0, 0
  };
  private static final short NUMERIC_POS = 0x0000;
  private static final short NUMERIC_NEG = 0x4000;
  private static final BigInteger TEN_THOUSAND = BigInteger.valueOf(10_000);

  private byte[] buffer = new byte[64 * 1024];
  private int length;

  /** Whether every column has a binary encoding here. */
  public static boolean supports(List<Column> columns) {
    return columns.stream().allMatch(c -> ColumnArrays.arrayType(c.type()) != null);
  }

  /** Starts a new batch: the format's header. */
  public void reset() {
    length = 0;
    put(HEADER, 0, HEADER.length);
  }

  /** Starts a row of {@code fields} fields. */
  public void startRow(int fields) {
    putShort((short) fields);
  }

  /** Adds an int8 field. */
  public void putLong(long value) {
    putInt(8);
    ensure(8);
    for (int shift = 56; shift >= 0; shift -= 8) {
      buffer[length++] = (byte) (value >>> shift);
    }
  }

  /** Adds an int4 field. */
  public void putInt4(int value) {
    putInt(4);
    putInt(value);
  }

  /** Adds a bool field. */
  public void putBoolean(boolean value) {
    putInt(1);
    ensure(1);
    buffer[length++] = (byte) (value ? 1 : 0);
  }

  /** Adds a text field (UTF-8). */
  public void putText(String value) {
    byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
    putInt(bytes.length);
    put(bytes, 0, bytes.length);
  }

  /**
   * Adds a field of {@code type} holding {@code value} (null: SQL NULL).
   *
   * @throws ClassCastException if the value's Java class does not fit the type
   * @throws ArithmeticException if an integral value does not fit an int4
   */
  public void putValue(ColumnType type, Object value) {
    if (value == null) {
      putInt(-1);
      return;
    }
    switch (type.kind()) {
      case LONG -> putLong(PostgresValues.integral(value));
      case INT -> putInt4(Math.toIntExact(PostgresValues.integral(value)));
      case DOUBLE -> putLong(Double.doubleToLongBits(((Number) value).doubleValue()));
      case STRING -> putText(((CharSequence) value).toString());
      case BOOLEAN -> putBoolean((Boolean) value);
      case DECIMAL -> putNumeric((BigDecimal) value);
      default -> throw new IllegalStateException("no binary COPY encoding for " + type);
    }
  }

  /**
   * Sends the batch (with the format's trailer) by {@code copySql}, a {@code COPY .. FROM STDIN
   * (FORMAT binary)}, in the connection's current transaction.
   *
   * @return the rows the server copied
   * @throws SQLException as the server reports it (e.g. a value its column refuses)
   */
  public long copyIn(Connection connection, String copySql) throws SQLException {
    putShort((short) -1);
    try {
      return connection
          .unwrap(PGConnection.class)
          .getCopyAPI()
          .copyIn(copySql, new ByteArrayInputStream(buffer, 0, length));
    } catch (java.io.IOException e) {
      throw new SQLException("COPY failed while sending rows: " + e.getMessage(), "08006", e);
    }
  }

  /**
   * numeric's binary form: digit count, weight (of the first base-10000 digit), sign, display
   * scale, then the base-10000 digits, aligned on the decimal point, without leading or trailing
   * zero digits.
   */
  void putNumeric(BigDecimal value) {
    BigDecimal v = value.scale() < 0 ? value.setScale(0) : value;
    int scale = v.scale();
    BigInteger unscaled = v.unscaledValue().abs();
    // pad the fraction to whole base-10000 digits, so that digits split on the decimal point
    int fractionDigits = (scale + 3) / 4;
    BigInteger aligned = unscaled.multiply(BigInteger.TEN.pow(fractionDigits * 4 - scale));
    short[] digits = new short[aligned.toString().length() / 4 + 2];
    int n = 0;
    while (aligned.signum() > 0) {
      BigInteger[] qr = aligned.divideAndRemainder(TEN_THOUSAND);
      digits[n++] = qr[1].shortValue(); // least significant first
      aligned = qr[0];
    }
    int weight = n - 1 - fractionDigits;
    int low = 0;
    while (low < n && digits[low] == 0) {
      low++; // trailing zero digits need not be sent
    }
    int count = n - low;
    putInt(8 + 2 * count);
    putShort((short) count);
    putShort((short) (count == 0 ? 0 : weight));
    putShort(v.signum() < 0 ? NUMERIC_NEG : NUMERIC_POS);
    putShort((short) scale);
    for (int i = n - 1; i >= low; i--) {
      putShort(digits[i]);
    }
  }

  private void putShort(short value) {
    ensure(2);
    buffer[length++] = (byte) (value >>> 8);
    buffer[length++] = (byte) value;
  }

  private void putInt(int value) {
    ensure(4);
    buffer[length++] = (byte) (value >>> 24);
    buffer[length++] = (byte) (value >>> 16);
    buffer[length++] = (byte) (value >>> 8);
    buffer[length++] = (byte) value;
  }

  private void put(byte[] bytes, int from, int count) {
    ensure(count);
    System.arraycopy(bytes, from, buffer, length, count);
    length += count;
  }

  private void ensure(int more) {
    if (length + more > buffer.length) {
      buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, length + more));
    }
  }
}
