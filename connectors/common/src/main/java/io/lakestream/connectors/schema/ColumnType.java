package io.lakestream.connectors.schema;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.LakestreamException;
import java.io.Serializable;
import java.util.Locale;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * A column type of lakestream's logical schema model, Spark's type system: the one type every
 * connector converts to and from its own (Delta Kernel types, PostgreSQL column types, Auto
 * Loader's schema text and inference).
 *
 * <p>Rows hold these Java values for each type (sinks refuse others, naming the column):
 *
 * <table>
 *   <caption>Accepted Java values</caption>
 *   <tr><th>type</th><th>Java values</th><th>Spark SQL</th></tr>
 *   <tr><td>STRING</td><td>{@link CharSequence}</td><td>STRING</td></tr>
 *   <tr><td>BOOLEAN</td><td>{@link Boolean}</td><td>BOOLEAN</td></tr>
 *   <tr><td>BYTE</td><td>{@link Byte}</td><td>TINYINT</td></tr>
 *   <tr><td>SHORT</td><td>{@link Short}, {@link Byte}</td><td>SMALLINT</td></tr>
 *   <tr><td>INT</td><td>{@link Integer}, {@link Short}, {@link Byte}</td><td>INT</td></tr>
 *   <tr><td>LONG</td><td>{@link Long}, {@link Integer}, {@link Short}, {@link Byte}</td>
 *       <td>BIGINT</td></tr>
 *   <tr><td>FLOAT</td><td>{@link Float}</td><td>FLOAT</td></tr>
 *   <tr><td>DOUBLE</td><td>{@link Double}, {@link Float}</td><td>DOUBLE</td></tr>
 *   <tr><td>DECIMAL(p,s)</td><td>{@link java.math.BigDecimal} (rescaled without rounding)</td>
 *       <td>DECIMAL(p,s)</td></tr>
 *   <tr><td>DATE</td><td>{@link java.time.LocalDate}, or {@link Integer} days since the
 *       epoch</td><td>DATE</td></tr>
 *   <tr><td>TIMESTAMP</td><td>{@link java.time.Instant}, or {@link Long} microseconds since the
 *       epoch (UTC)</td><td>TIMESTAMP</td></tr>
 *   <tr><td>TIMESTAMP_NTZ</td><td>{@link java.time.LocalDateTime} (no time zone)</td>
 *       <td>TIMESTAMP_NTZ</td></tr>
 *   <tr><td>BINARY</td><td>{@code byte[]}</td><td>BINARY</td></tr>
 *   <tr><td>JSON</td><td>{@link CharSequence} (a JSON document)</td><td>JSON (not Spark)</td></tr>
 *   <tr><td>ARRAY&lt;e&gt;</td><td>{@link java.util.List} of e's values</td>
 *       <td>ARRAY&lt;e&gt;</td></tr>
 *   <tr><td>MAP&lt;k,v&gt;</td><td>{@link java.util.Map} of k's to v's values</td>
 *       <td>MAP&lt;k, v&gt;</td></tr>
 *   <tr><td>STRUCT&lt;...&gt;</td><td>{@code Object[]} in field order</td>
 *       <td>STRUCT&lt;`a`: t, ...&gt;</td></tr>
 * </table>
 *
 * <p>Not every connector takes every type: each one's converter refuses the others with a {@link
 * LakestreamException} of class {@link SchemaErrorClass#UNSUPPORTED_DATA_TYPE} naming the column
 * and the types it supports (the Delta writer takes every type but JSON). A connector's own
 * documentation says where it takes more Java values (the Lakebase sink takes any integral {@link
 * Number} for LONG and INT) or fewer.
 *
 * <p>{@link #toString()} is the type's lower-case name as messages show it ({@code long}, {@code
 * decimal(12,2)}, {@code array<string>}); {@link #sql()} is Spark SQL's DDL form, which {@link
 * #parse} reads. Types are immutable, serializable and compare by value. Use the constants and
 * factories of this interface.
 */
@PublicEvolving
public sealed interface ColumnType extends Serializable
    permits ColumnType.Primitive,
        ColumnType.Decimal,
        ColumnType.Array,
        ColumnType.Map,
        ColumnType.Struct {

  /** The kinds of type, one per constant or factory. */
  enum Kind {
    STRING,
    BOOLEAN,
    BYTE,
    SHORT,
    INT,
    LONG,
    FLOAT,
    DOUBLE,
    DECIMAL,
    DATE,
    TIMESTAMP,
    TIMESTAMP_NTZ,
    BINARY,
    JSON,
    ARRAY,
    MAP,
    STRUCT;

    /** Whether types of this kind hold other types (array, map, struct). */
    public boolean isNested() {
      return this == ARRAY || this == MAP || this == STRUCT;
    }
  }

  ColumnType STRING = Primitive.STRING;
  ColumnType BOOLEAN = Primitive.BOOLEAN;
  ColumnType BYTE = Primitive.BYTE;
  ColumnType SHORT = Primitive.SHORT;
  ColumnType INT = Primitive.INT;
  ColumnType LONG = Primitive.LONG;
  ColumnType FLOAT = Primitive.FLOAT;
  ColumnType DOUBLE = Primitive.DOUBLE;
  ColumnType DATE = Primitive.DATE;

  /** An instant, microsecond precision, kept as UTC ({@code TIMESTAMP WITH LOCAL TIME ZONE}). */
  ColumnType TIMESTAMP = Primitive.TIMESTAMP;

  /** A date and wall-clock time without a time zone, microsecond precision. */
  ColumnType TIMESTAMP_NTZ = Primitive.TIMESTAMP_NTZ;

  ColumnType BINARY = Primitive.BINARY;

  /** A JSON document held as text (PostgreSQL's {@code JSONB}; Spark has no such type). */
  ColumnType JSON = Primitive.JSON;

  /** The kind of this type. */
  Kind kind();

  /** Spark SQL's DDL text of this type, e.g. {@code BIGINT} or {@code DECIMAL(12,2)}. */
  String sql();

  /**
   * A decimal type.
   *
   * @throws LakestreamException ({@link SchemaErrorClass#INVALID_DECIMAL}) unless {@code 1 <=
   *     precision <= 38} and {@code 0 <= scale <= precision}
   */
  static Decimal decimal(int precision, int scale) {
    return new Decimal(precision, scale);
  }

  /** An array whose elements may be null. */
  static Array array(ColumnType elementType) {
    return new Array(elementType, true);
  }

  /** A map whose values may be null. */
  static Map map(ColumnType keyType, ColumnType valueType) {
    return new Map(keyType, valueType, true);
  }

  /** A struct of these fields. */
  static Struct struct(RowSchema fields) {
    return new Struct(fields);
  }

  /**
   * Reads Spark SQL's DDL text of a type: {@code STRING}, {@code BOOLEAN}, {@code TINYINT} ({@code
   * BYTE}), {@code SMALLINT} ({@code SHORT}), {@code INT} ({@code INTEGER}), {@code BIGINT} ({@code
   * LONG}), {@code FLOAT} ({@code REAL}), {@code DOUBLE}, {@code DECIMAL[(p[,s])]} ({@code DEC},
   * {@code NUMERIC}; {@code DECIMAL} alone is {@code DECIMAL(10,0)}), {@code DATE}, {@code
   * TIMESTAMP}, {@code TIMESTAMP_NTZ}, {@code BINARY}, {@code JSON}, {@code ARRAY<t>}, {@code
   * MAP<k, v>}, {@code STRUCT<name: t [NOT NULL], ...>} (names may be back-quoted). Names ignore
   * case; white space is free.
   *
   * @throws LakestreamException {@link SchemaErrorClass#UNSUPPORTED_DATA_TYPE} for an unknown type
   *     name, {@link SchemaErrorClass#INVALID_TYPE_SYNTAX} for text that does not parse, {@link
   *     SchemaErrorClass#INVALID_DECIMAL} for a decimal out of range
   */
  static ColumnType parse(String text) {
    return TypeText.parse(text);
  }

  /** The types without parameters. */
  enum Primitive implements ColumnType {
    STRING(Kind.STRING, "STRING"),
    BOOLEAN(Kind.BOOLEAN, "BOOLEAN"),
    BYTE(Kind.BYTE, "TINYINT"),
    SHORT(Kind.SHORT, "SMALLINT"),
    INT(Kind.INT, "INT"),
    LONG(Kind.LONG, "BIGINT"),
    FLOAT(Kind.FLOAT, "FLOAT"),
    DOUBLE(Kind.DOUBLE, "DOUBLE"),
    DATE(Kind.DATE, "DATE"),
    TIMESTAMP(Kind.TIMESTAMP, "TIMESTAMP"),
    TIMESTAMP_NTZ(Kind.TIMESTAMP_NTZ, "TIMESTAMP_NTZ"),
    BINARY(Kind.BINARY, "BINARY"),
    JSON(Kind.JSON, "JSON");

    private final Kind kind;
    private final String sql;

    Primitive(Kind kind, String sql) {
      this.kind = kind;
      this.sql = sql;
    }

    @Override
    public Kind kind() {
      return kind;
    }

    @Override
    public String sql() {
      return sql;
    }

    @Override
    public String toString() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /**
   * {@code DECIMAL(precision, scale)}: at most {@value #MAX_PRECISION} digits, {@code scale} of
   * them after the point.
   */
  record Decimal(int precision, int scale) implements ColumnType {
    /** The most digits a decimal holds (Spark's, Delta's and Flink's limit). */
    public static final int MAX_PRECISION = 38;

    /**
     * @throws LakestreamException ({@link SchemaErrorClass#INVALID_DECIMAL}) unless {@code 1 <=
     *     precision <= 38} and {@code 0 <= scale <= precision}
     */
    public Decimal {
      if (precision < 1 || precision > MAX_PRECISION || scale < 0 || scale > precision) {
        throw new LakestreamException(
            SchemaErrorClass.INVALID_DECIMAL,
            "decimal("
                + precision
                + ","
                + scale
                + ") is out of range: a decimal needs 1 <= precision <= "
                + MAX_PRECISION
                + " and 0 <= scale <= precision");
      }
    }

    @Override
    public Kind kind() {
      return Kind.DECIMAL;
    }

    @Override
    public String sql() {
      return "DECIMAL(" + precision + "," + scale + ")";
    }

    @Override
    public String toString() {
      return "decimal(" + precision + "," + scale + ")";
    }
  }

  /**
   * {@code ARRAY<elementType>}.
   *
   * @param containsNull whether elements may be null
   */
  record Array(ColumnType elementType, boolean containsNull) implements ColumnType {
    public Array {
      Objects.requireNonNull(elementType, "elementType");
    }

    @Override
    public Kind kind() {
      return Kind.ARRAY;
    }

    @Override
    public String sql() {
      return "ARRAY<" + elementType.sql() + ">";
    }

    @Override
    public String toString() {
      return "array<" + elementType + ">";
    }
  }

  /**
   * {@code MAP<keyType, valueType>}; keys are never null.
   *
   * @param valueContainsNull whether values may be null
   */
  record Map(ColumnType keyType, ColumnType valueType, boolean valueContainsNull)
      implements ColumnType {
    public Map {
      Objects.requireNonNull(keyType, "keyType");
      Objects.requireNonNull(valueType, "valueType");
    }

    @Override
    public Kind kind() {
      return Kind.MAP;
    }

    @Override
    public String sql() {
      return "MAP<" + keyType.sql() + ", " + valueType.sql() + ">";
    }

    @Override
    public String toString() {
      return "map<" + keyType + "," + valueType + ">";
    }
  }

  /** {@code STRUCT<...>}: named fields, in order. */
  record Struct(RowSchema fields) implements ColumnType {
    public Struct {
      Objects.requireNonNull(fields, "fields");
    }

    @Override
    public Kind kind() {
      return Kind.STRUCT;
    }

    @Override
    public String sql() {
      return fields.columns().stream()
          .map(
              f ->
                  TypeText.quote(f.name())
                      + ": "
                      + f.type().sql()
                      + (f.nullable() ? "" : " NOT NULL"))
          .collect(Collectors.joining(", ", "STRUCT<", ">"));
    }

    @Override
    public String toString() {
      return fields.columns().stream()
          .map(f -> f.name() + ":" + f.type())
          .collect(Collectors.joining(",", "struct<", ">"));
    }
  }
}
