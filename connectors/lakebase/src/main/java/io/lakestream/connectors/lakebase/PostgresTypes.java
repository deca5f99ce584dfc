package io.lakestream.connectors.lakebase;

import io.lakestream.api.annotation.Internal;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.schema.Column;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.connectors.schema.SchemaErrorClass;
import io.lakestream.connectors.schema.TypeSupport;
import java.util.Locale;

/**
 * The converter between the schema model ({@link ColumnType}) and PostgreSQL column types: the type
 * a column of a table the Lakebase sink creates gets, whether an existing column takes a type's
 * values, and which types may be part of the upsert key.
 *
 * <table>
 *   <caption>Type mapping</caption>
 *   <tr><th>type</th><th>Java values</th><th>PostgreSQL type (created tables)</th><th>key</th></tr>
 *   <tr><td>STRING</td><td>{@link CharSequence}</td><td>TEXT</td><td>yes</td></tr>
 *   <tr><td>LONG</td><td>{@link Number} (integral)</td><td>BIGINT</td><td>yes</td></tr>
 *   <tr><td>INT</td><td>{@link Number} (integral)</td><td>INTEGER</td><td>yes</td></tr>
 *   <tr><td>DOUBLE</td><td>{@link Number}</td><td>DOUBLE PRECISION</td><td>yes</td></tr>
 *   <tr><td>BOOLEAN</td><td>{@link Boolean}</td><td>BOOLEAN</td><td>yes</td></tr>
 *   <tr><td>DECIMAL(p,s)</td><td>{@link java.math.BigDecimal}</td><td>NUMERIC(p,s)</td>
 *       <td>yes</td></tr>
 *   <tr><td>TIMESTAMP</td><td>{@link java.time.Instant}, {@link Long} microseconds since the
 *       epoch</td><td>TIMESTAMPTZ</td><td>yes</td></tr>
 *   <tr><td>TIMESTAMP_NTZ</td><td>{@link java.time.LocalDateTime}</td><td>TIMESTAMP</td>
 *       <td>yes</td></tr>
 *   <tr><td>DATE</td><td>{@link java.time.LocalDate}, {@link Integer} days since the epoch</td>
 *       <td>DATE</td><td>yes</td></tr>
 *   <tr><td>BINARY</td><td>{@code byte[]}</td><td>BYTEA</td><td>no</td></tr>
 *   <tr><td>JSON</td><td>{@link CharSequence} (a JSON document)</td><td>JSONB</td><td>no</td></tr>
 * </table>
 *
 * <p>Other types (byte, short, float, nested types) are refused when the schema is declared ({@link
 * #checkSupported}). {@code null} is written as SQL NULL for every type; a value of another Java
 * class fails the write, naming the column ({@link UpsertStatement#bind}). Messages name types in
 * upper case ({@link #describe}).
 */
@Internal
public final class PostgresTypes {
  /** The types the sink writes: {@link TypeSupport#CORE}, timestamp_ntz, binary and json. */
  public static final TypeSupport SUPPORTED =
      TypeSupport.CORE.plus(
          ColumnType.Kind.TIMESTAMP_NTZ, ColumnType.Kind.BINARY, ColumnType.Kind.JSON);

  private PostgresTypes() {}

  /**
   * Checks that the sink writes {@code column}'s type.
   *
   * @throws LakestreamException ({@link SchemaErrorClass#UNSUPPORTED_DATA_TYPE}) naming the column
   *     and the types the sink writes
   */
  public static void checkSupported(Column column) {
    SUPPORTED.check(column, "the Lakebase sink");
  }

  /** The type as messages of the sink name it: {@code LONG}, {@code DECIMAL(12,2)}. */
  public static String describe(ColumnType type) {
    return type.toString().toUpperCase(Locale.ROOT);
  }

  /** Whether the type may be part of an upsert key (its values are {@link Comparable}). */
  public static boolean isComparable(ColumnType type) {
    return type.kind() != ColumnType.Kind.BINARY && type.kind() != ColumnType.Kind.JSON;
  }

  /**
   * The PostgreSQL type of a created column of {@code type}, as the CREATE TABLE statement names
   * it.
   */
  public static String sqlType(ColumnType type) {
    switch (type.kind()) {
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
        ColumnType.Decimal decimal = (ColumnType.Decimal) type;
        return "NUMERIC(" + decimal.precision() + "," + decimal.scale() + ")";
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
        throw new IllegalStateException("the Lakebase sink does not write " + type);
    }
  }

  /**
   * Whether an existing column of PostgreSQL type {@code formatType} (as {@code format_type} prints
   * it, e.g. {@code character varying(5)}) takes values of {@code type} on insert.
   */
  public static boolean fits(ColumnType type, String formatType) {
    String t = formatType.toLowerCase(Locale.ROOT);
    switch (type.kind()) {
      case STRING:
        return t.equals("text") || t.startsWith("character") || t.equals("name");
      case LONG:
      case INT:
      case DOUBLE:
      case DECIMAL:
        return isNumeric(t);
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

  private static boolean isNumeric(String formatType) {
    return formatType.equals("bigint")
        || formatType.equals("integer")
        || formatType.equals("smallint")
        || formatType.startsWith("numeric")
        || formatType.equals("real")
        || formatType.equals("double precision");
  }
}
