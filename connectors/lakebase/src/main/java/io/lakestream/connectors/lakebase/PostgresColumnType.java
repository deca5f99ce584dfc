package io.lakestream.connectors.lakebase;

import io.lakestream.api.error.LakestreamException;
import java.io.Serializable;
import java.math.BigDecimal;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Objects;

/**
 * The column types the Lakebase sink writes, the Java values each accepts in a row, and the
 * PostgreSQL type a created table gets.
 *
 * <table>
 *   <caption>Type mapping</caption>
 *   <tr><th>type</th><th>Java values</th><th>PostgreSQL type (created tables)</th><th>key</th></tr>
 *   <tr><td>STRING</td><td>{@link CharSequence}</td><td>TEXT</td><td>yes</td></tr>
 *   <tr><td>LONG</td><td>{@link Number} (integral)</td><td>BIGINT</td><td>yes</td></tr>
 *   <tr><td>INT</td><td>{@link Number} (integral)</td><td>INTEGER</td><td>yes</td></tr>
 *   <tr><td>DOUBLE</td><td>{@link Number}</td><td>DOUBLE PRECISION</td><td>yes</td></tr>
 *   <tr><td>BOOLEAN</td><td>{@link Boolean}</td><td>BOOLEAN</td><td>yes</td></tr>
 *   <tr><td>DECIMAL(p,s)</td><td>{@link BigDecimal}</td><td>NUMERIC(p,s)</td><td>yes</td></tr>
 *   <tr><td>TIMESTAMP</td><td>{@link Instant}</td><td>TIMESTAMPTZ</td><td>yes</td></tr>
 *   <tr><td>TIMESTAMP_NTZ</td><td>{@link LocalDateTime}</td><td>TIMESTAMP</td><td>yes</td></tr>
 *   <tr><td>DATE</td><td>{@link LocalDate}</td><td>DATE</td><td>yes</td></tr>
 *   <tr><td>BINARY</td><td>{@code byte[]}</td><td>BYTEA</td><td>no</td></tr>
 *   <tr><td>JSON</td><td>{@link CharSequence} (a JSON document)</td><td>JSONB</td><td>no</td></tr>
 * </table>
 *
 * <p>Key columns must be of a comparable type: the writer sorts each batch by key. {@code null} is
 * written as SQL NULL for every type. A value of another Java class fails the write with a {@link
 * ClassCastException} the writer reports with the column name. Immutable and serializable.
 */
public final class PostgresColumnType implements Serializable {
  private static final long serialVersionUID = 1L;

  /** The kinds of column type. */
  public enum Kind {
    STRING,
    LONG,
    INT,
    DOUBLE,
    BOOLEAN,
    DECIMAL,
    TIMESTAMP,
    TIMESTAMP_NTZ,
    DATE,
    BINARY,
    JSON
  }

  public static final PostgresColumnType STRING = new PostgresColumnType(Kind.STRING, 0, 0);
  public static final PostgresColumnType LONG = new PostgresColumnType(Kind.LONG, 0, 0);
  public static final PostgresColumnType INT = new PostgresColumnType(Kind.INT, 0, 0);
  public static final PostgresColumnType DOUBLE = new PostgresColumnType(Kind.DOUBLE, 0, 0);
  public static final PostgresColumnType BOOLEAN = new PostgresColumnType(Kind.BOOLEAN, 0, 0);
  public static final PostgresColumnType TIMESTAMP = new PostgresColumnType(Kind.TIMESTAMP, 0, 0);
  public static final PostgresColumnType TIMESTAMP_NTZ =
      new PostgresColumnType(Kind.TIMESTAMP_NTZ, 0, 0);
  public static final PostgresColumnType DATE = new PostgresColumnType(Kind.DATE, 0, 0);
  public static final PostgresColumnType BINARY = new PostgresColumnType(Kind.BINARY, 0, 0);
  public static final PostgresColumnType JSON = new PostgresColumnType(Kind.JSON, 0, 0);

  private final Kind kind;
  private final int precision;
  private final int scale;

  private PostgresColumnType(Kind kind, int precision, int scale) {
    this.kind = kind;
    this.precision = precision;
    this.scale = scale;
  }

  /**
   * NUMERIC(precision, scale).
   *
   * @throws LakestreamException ({@code JDBC_STREAMING_SINK_INVALID_SCHEMA}) unless 1 <= precision
   *     <= 1000 and 0 <= scale <= precision
   */
  public static PostgresColumnType decimal(int precision, int scale) {
    if (precision < 1 || precision > 1000 || scale < 0 || scale > precision) {
      throw new LakestreamException(
          LakebaseErrorClass.JDBC_STREAMING_SINK_INVALID_SCHEMA,
          "DECIMAL(" + precision + "," + scale + ") needs 1 <= precision <= 1000, 0 <= scale <= p");
    }
    return new PostgresColumnType(Kind.DECIMAL, precision, scale);
  }

  public Kind kind() {
    return kind;
  }

  /** Whether the type may be part of an upsert key (values are {@link Comparable}). */
  public boolean isComparable() {
    return kind != Kind.BINARY && kind != Kind.JSON;
  }

  /**
   * Whether an existing column of PostgreSQL type {@code formatType} (as {@code format_type} prints
   * it, e.g. {@code character varying(5)}) takes values of this type on insert.
   */
  public boolean fits(String formatType) {
    String t = formatType.toLowerCase(java.util.Locale.ROOT);
    boolean numeric =
        t.equals("bigint")
            || t.equals("integer")
            || t.equals("smallint")
            || t.startsWith("numeric")
            || t.equals("real")
            || t.equals("double precision");
    switch (kind) {
      case STRING:
        return t.equals("text") || t.startsWith("character") || t.equals("name");
      case LONG:
      case INT:
      case DOUBLE:
      case DECIMAL:
        return numeric;
      case BOOLEAN:
        return t.equals("boolean");
      case TIMESTAMP:
      case TIMESTAMP_NTZ:
        return t.startsWith("timestamp");
      case DATE:
        return t.equals("date") || t.startsWith("timestamp");
      case BINARY:
        return t.equals("bytea");
      case JSON:
        return t.equals("jsonb") || t.equals("json");
      default:
        return false;
    }
  }

  /** The PostgreSQL type of a created column. */
  public String sqlType() {
    switch (kind) {
      case STRING:
        return "TEXT";
      case LONG:
        return "BIGINT";
      case INT:
        return "INTEGER";
      case DOUBLE:
        return "DOUBLE PRECISION";
      case BOOLEAN:
        return "BOOLEAN";
      case DECIMAL:
        return "NUMERIC(" + precision + "," + scale + ")";
      case TIMESTAMP:
        return "TIMESTAMPTZ";
      case TIMESTAMP_NTZ:
        return "TIMESTAMP";
      case DATE:
        return "DATE";
      case BINARY:
        return "BYTEA";
      case JSON:
        return "JSONB";
      default:
        throw new AssertionError(kind);
    }
  }

  /**
   * Binds {@code value} as parameter {@code index}.
   *
   * @throws ClassCastException if the value's Java class does not fit this type
   * @throws SQLException as the driver reports it
   */
  public void bind(PreparedStatement statement, int index, Object value) throws SQLException {
    if (value == null) {
      statement.setNull(index, jdbcType());
      return;
    }
    switch (kind) {
      case STRING:
        statement.setString(index, ((CharSequence) value).toString());
        break;
      case LONG:
        statement.setLong(index, integral(value));
        break;
      case INT:
        statement.setInt(index, Math.toIntExact(integral(value)));
        break;
      case DOUBLE:
        statement.setDouble(index, ((Number) value).doubleValue());
        break;
      case BOOLEAN:
        statement.setBoolean(index, (Boolean) value);
        break;
      case DECIMAL:
        statement.setBigDecimal(index, (BigDecimal) value);
        break;
      case TIMESTAMP:
        statement.setObject(index, OffsetDateTime.ofInstant((Instant) value, ZoneOffset.UTC));
        break;
      case TIMESTAMP_NTZ:
        statement.setObject(index, (LocalDateTime) value);
        break;
      case DATE:
        statement.setObject(index, (LocalDate) value);
        break;
      case BINARY:
        statement.setBytes(index, (byte[]) value);
        break;
      case JSON:
        statement.setObject(index, ((CharSequence) value).toString(), Types.OTHER);
        break;
      default:
        throw new AssertionError(kind);
    }
  }

  private int jdbcType() {
    switch (kind) {
      case STRING:
        return Types.VARCHAR;
      case LONG:
        return Types.BIGINT;
      case INT:
        return Types.INTEGER;
      case DOUBLE:
        return Types.DOUBLE;
      case BOOLEAN:
        return Types.BOOLEAN;
      case DECIMAL:
        return Types.NUMERIC;
      case TIMESTAMP:
        return Types.TIMESTAMP_WITH_TIMEZONE;
      case TIMESTAMP_NTZ:
        return Types.TIMESTAMP;
      case DATE:
        return Types.DATE;
      case BINARY:
        return Types.BINARY;
      default:
        return Types.OTHER;
    }
  }

  /** The value of an integral {@link Number}; refuses floating point and big numbers. */
  static long integral(Object value) {
    Number number = (Number) value;
    if (number instanceof Double
        || number instanceof Float
        || number instanceof BigDecimal
        || number instanceof java.math.BigInteger) {
      throw new ClassCastException(
          value.getClass().getName() + " is not an integral type (Long, Integer, Short, Byte)");
    }
    return number.longValue();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof PostgresColumnType
        && ((PostgresColumnType) o).kind == kind
        && ((PostgresColumnType) o).precision == precision
        && ((PostgresColumnType) o).scale == scale;
  }

  @Override
  public int hashCode() {
    return Objects.hash(kind, precision, scale);
  }

  @Override
  public String toString() {
    return kind == Kind.DECIMAL ? "DECIMAL(" + precision + "," + scale + ")" : kind.name();
  }
}
