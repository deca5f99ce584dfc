package io.lakestream.connectors.delta;

import io.delta.kernel.types.BooleanType;
import io.delta.kernel.types.DataType;
import io.delta.kernel.types.DateType;
import io.delta.kernel.types.DecimalType;
import io.delta.kernel.types.DoubleType;
import io.delta.kernel.types.IntegerType;
import io.delta.kernel.types.LongType;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.TimestampType;
import io.lakestream.api.error.LakestreamException;
import java.io.Serializable;

/**
 * The column types lakestream writes to Delta tables, and the Java values each accepts in a row.
 *
 * <table>
 *   <caption>Accepted Java values</caption>
 *   <tr><th>type</th><th>Java values</th><th>Delta type</th></tr>
 *   <tr><td>STRING</td><td>{@link CharSequence}</td><td>string</td></tr>
 *   <tr><td>LONG</td><td>{@link Long}, {@link Integer}, {@link Short}, {@link Byte}</td><td>long</td></tr>
 *   <tr><td>INT</td><td>{@link Integer}, {@link Short}, {@link Byte}</td><td>integer</td></tr>
 *   <tr><td>DOUBLE</td><td>{@link Double}, {@link Float}</td><td>double</td></tr>
 *   <tr><td>BOOLEAN</td><td>{@link Boolean}</td><td>boolean</td></tr>
 *   <tr><td>DECIMAL(p,s)</td><td>{@link java.math.BigDecimal} (rescaled without rounding)</td>
 *       <td>decimal(p,s)</td></tr>
 *   <tr><td>TIMESTAMP</td><td>{@link java.time.Instant}, or {@link Long} microseconds since the
 *       epoch (UTC)</td><td>timestamp</td></tr>
 *   <tr><td>DATE</td><td>{@link java.time.LocalDate}, or {@link Integer} days since the
 *       epoch</td><td>date</td></tr>
 * </table>
 *
 * <p>Immutable and serializable, so table declarations can travel from the job's client to the
 * TaskManagers. Use the constants, or {@link #decimal(int, int)}.
 */
public final class DeltaColumnType implements Serializable {
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
    DATE
  }

  public static final DeltaColumnType STRING = new DeltaColumnType(Kind.STRING, 0, 0);
  public static final DeltaColumnType LONG = new DeltaColumnType(Kind.LONG, 0, 0);
  public static final DeltaColumnType INT = new DeltaColumnType(Kind.INT, 0, 0);
  public static final DeltaColumnType DOUBLE = new DeltaColumnType(Kind.DOUBLE, 0, 0);
  public static final DeltaColumnType BOOLEAN = new DeltaColumnType(Kind.BOOLEAN, 0, 0);
  public static final DeltaColumnType TIMESTAMP = new DeltaColumnType(Kind.TIMESTAMP, 0, 0);
  public static final DeltaColumnType DATE = new DeltaColumnType(Kind.DATE, 0, 0);

  private final Kind kind;
  private final int precision;
  private final int scale;

  private DeltaColumnType(Kind kind, int precision, int scale) {
    this.kind = kind;
    this.precision = precision;
    this.scale = scale;
  }

  /**
   * A decimal type.
   *
   * @throws io.lakestream.api.error.LakestreamException ({@code DELTA_INVALID_SCHEMA}) unless
   *     {@code 1 <= precision <= 38} and {@code 0 <= scale <= precision} (Delta's limits)
   */
  public static DeltaColumnType decimal(int precision, int scale) {
    if (precision < 1 || precision > 38 || scale < 0 || scale > precision) {
      throw new LakestreamException(
          DeltaErrorClass.DELTA_INVALID_SCHEMA,
          "decimal("
              + precision
              + ","
              + scale
              + ") is not a Delta decimal: need 1 <= precision <= 38 and 0 <= scale <= precision");
    }
    return new DeltaColumnType(Kind.DECIMAL, precision, scale);
  }

  public Kind kind() {
    return kind;
  }

  /** Decimal precision (0 for other kinds). */
  public int precision() {
    return precision;
  }

  /** Decimal scale (0 for other kinds). */
  public int scale() {
    return scale;
  }

  /** The Delta Kernel data type. */
  public DataType toKernelType() {
    switch (kind) {
      case STRING:
        return StringType.STRING;
      case LONG:
        return LongType.LONG;
      case INT:
        return IntegerType.INTEGER;
      case DOUBLE:
        return DoubleType.DOUBLE;
      case BOOLEAN:
        return BooleanType.BOOLEAN;
      case DECIMAL:
        return new DecimalType(precision, scale);
      case TIMESTAMP:
        return TimestampType.TIMESTAMP;
      case DATE:
        return DateType.DATE;
      default:
        throw new IllegalStateException("unknown kind " + kind);
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof DeltaColumnType t
        && t.kind == kind
        && t.precision == precision
        && t.scale == scale;
  }

  @Override
  public int hashCode() {
    return (kind.hashCode() * 31 + precision) * 31 + scale;
  }

  @Override
  public String toString() {
    return kind == Kind.DECIMAL
        ? "decimal(" + precision + "," + scale + ")"
        : kind.name().toLowerCase(java.util.Locale.ROOT);
  }
}
