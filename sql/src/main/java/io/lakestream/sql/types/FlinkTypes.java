package io.lakestream.sql.types;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.schema.Column;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.connectors.schema.RowSchema;
import io.lakestream.connectors.schema.SchemaErrorClass;
import io.lakestream.connectors.schema.TypeSupport;
import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;

/**
 * The schema model's types ({@link ColumnType}, Spark's type system) as Flink SQL types and back:
 * the one mapping every SQL connector uses.
 *
 * <table>
 *   <caption>Type mapping</caption>
 *   <tr><th>schema model (Spark, Delta)</th><th>Flink SQL</th></tr>
 *   <tr><td>STRING</td><td>STRING (from Flink also CHAR(n), VARCHAR(n))</td></tr>
 *   <tr><td>BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE, DATE</td><td>the same</td></tr>
 *   <tr><td>DECIMAL(p,s)</td><td>DECIMAL(p,s)</td></tr>
 *   <tr><td>TIMESTAMP (an instant)</td><td>TIMESTAMP_LTZ(6) (from Flink precision 0 to 6)</td></tr>
 *   <tr><td>TIMESTAMP_NTZ</td><td>TIMESTAMP(6) (from Flink precision 0 to 6)</td></tr>
 *   <tr><td>BINARY</td><td>BYTES (from Flink also BINARY(n), VARBINARY(n))</td></tr>
 *   <tr><td>JSON (PostgreSQL's JSONB)</td><td>STRING (one way)</td></tr>
 *   <tr><td>ARRAY, MAP, STRUCT</td><td>ARRAY, MAP, ROW</td></tr>
 * </table>
 *
 * <p>Flink types with no counterpart (TIME, INTERVAL, MULTISET, TIMESTAMP WITH TIME ZONE, RAW,
 * structured types, timestamps finer than microseconds, which Delta and Spark cannot hold) are
 * refused with a {@link LakestreamException} of class {@link
 * SchemaErrorClass#UNSUPPORTED_DATA_TYPE} that names the column: at planning time, before a job
 * runs.
 */
@PublicEvolving
public final class FlinkTypes {
  /** Microseconds: the finest time Delta, Parquet and Spark hold. */
  public static final int MAX_TIMESTAMP_PRECISION = 6;

  private FlinkTypes() {}

  /** The Flink type of a schema model column, {@code NOT NULL} unless it is nullable. */
  public static DataType toFlink(Column column) {
    DataType type = toFlink(column.type());
    return column.nullable() ? type.nullable() : type.notNull();
  }

  /** The Flink type of a schema model type (nullable). */
  public static DataType toFlink(ColumnType type) {
    return switch (type.kind()) {
      case STRING, JSON -> DataTypes.STRING();
      case BOOLEAN -> DataTypes.BOOLEAN();
      case BYTE -> DataTypes.TINYINT();
      case SHORT -> DataTypes.SMALLINT();
      case INT -> DataTypes.INT();
      case LONG -> DataTypes.BIGINT();
      case FLOAT -> DataTypes.FLOAT();
      case DOUBLE -> DataTypes.DOUBLE();
      case DATE -> DataTypes.DATE();
      case TIMESTAMP -> DataTypes.TIMESTAMP_LTZ(MAX_TIMESTAMP_PRECISION);
      case TIMESTAMP_NTZ -> DataTypes.TIMESTAMP(MAX_TIMESTAMP_PRECISION);
      case BINARY -> DataTypes.BYTES();
      case DECIMAL -> {
        ColumnType.Decimal d = (ColumnType.Decimal) type;
        yield DataTypes.DECIMAL(d.precision(), d.scale());
      }
      case ARRAY -> {
        ColumnType.Array a = (ColumnType.Array) type;
        DataType element = toFlink(a.elementType());
        yield DataTypes.ARRAY(a.containsNull() ? element : element.notNull());
      }
      case MAP -> {
        ColumnType.Map m = (ColumnType.Map) type;
        DataType value = toFlink(m.valueType());
        yield DataTypes.MAP(
            toFlink(m.keyType()).notNull(), m.valueContainsNull() ? value : value.notNull());
      }
      case STRUCT -> DataTypes.ROW(fields(((ColumnType.Struct) type).fields()));
    };
  }

  /** A Flink row type of these columns, in order. */
  public static DataType toFlinkRow(RowSchema schema) {
    return DataTypes.ROW(fields(schema)).notNull();
  }

  private static DataTypes.Field[] fields(RowSchema schema) {
    List<DataTypes.Field> fields = new ArrayList<>();
    for (Column column : schema.columns()) {
      fields.add(DataTypes.FIELD(column.name(), toFlink(column)));
    }
    return fields.toArray(new DataTypes.Field[0]);
  }

  /**
   * {@code type} with every array, at any depth, bridged to a Java array of its element's class
   * ({@code Long[]}, {@code Row[]}, {@code byte[][]}, ...), which is how the Delta source emits
   * arrays; Flink would take {@code long[]} for an array of NOT NULL elements otherwise.
   */
  public static DataType withObjectArrays(DataType type) {
    LogicalType logical = type.getLogicalType();
    DataType converted =
        switch (logical.getTypeRoot()) {
          case ARRAY -> {
            DataType element = withObjectArrays(type.getChildren().get(0));
            yield DataTypes.ARRAY(element)
                .bridgedTo(Array.newInstance(element.getConversionClass(), 0).getClass());
          }
          case MAP ->
              DataTypes.MAP(
                  withObjectArrays(type.getChildren().get(0)),
                  withObjectArrays(type.getChildren().get(1)));
          case ROW -> {
            List<String> names = ((RowType) logical).getFieldNames();
            DataTypes.Field[] fields = new DataTypes.Field[names.size()];
            for (int f = 0; f < fields.length; f++) {
              fields[f] =
                  DataTypes.FIELD(names.get(f), withObjectArrays(type.getChildren().get(f)));
            }
            yield DataTypes.ROW(fields);
          }
          default -> type;
        };
    return logical.isNullable() ? converted.nullable() : converted.notNull();
  }

  /**
   * The schema model's columns of a table's physical columns (computed and metadata columns are not
   * stored), in order.
   *
   * @param table the table in messages, e.g. {@code "default_catalog.default_database.orders"}
   * @throws LakestreamException ({@link SchemaErrorClass#UNSUPPORTED_DATA_TYPE}) naming the first
   *     column of a type with no counterpart
   */
  public static RowSchema toRowSchema(ResolvedSchema schema, String table) {
    List<Column> columns = new ArrayList<>();
    for (org.apache.flink.table.catalog.Column column : schema.getColumns()) {
      if (column.isPhysical()) {
        LogicalType type = column.getDataType().getLogicalType();
        columns.add(
            new Column(
                column.getName(), toColumnType(type, column.getName(), table), type.isNullable()));
      }
    }
    return RowSchema.of(columns);
  }

  /** The schema model's columns of a Flink row type, in order (see {@link #toRowSchema}). */
  public static RowSchema toRowSchema(RowType row, String table) {
    List<Column> columns = new ArrayList<>();
    for (RowType.RowField field : row.getFields()) {
      columns.add(
          new Column(
              field.getName(),
              toColumnType(field.getType(), field.getName(), table),
              field.getType().isNullable()));
    }
    return RowSchema.of(columns);
  }

  /**
   * The schema model type of a Flink type.
   *
   * @param column the column in messages
   * @param table the table in messages
   * @throws LakestreamException ({@link SchemaErrorClass#UNSUPPORTED_DATA_TYPE}) for a type with no
   *     counterpart
   */
  public static ColumnType toColumnType(LogicalType type, String column, String table) {
    return switch (type.getTypeRoot()) {
      case CHAR, VARCHAR -> ColumnType.STRING;
      case BOOLEAN -> ColumnType.BOOLEAN;
      case TINYINT -> ColumnType.BYTE;
      case SMALLINT -> ColumnType.SHORT;
      case INTEGER -> ColumnType.INT;
      case BIGINT -> ColumnType.LONG;
      case FLOAT -> ColumnType.FLOAT;
      case DOUBLE -> ColumnType.DOUBLE;
      case DATE -> ColumnType.DATE;
      case BINARY, VARBINARY -> ColumnType.BINARY;
      case DECIMAL -> {
        DecimalType d = (DecimalType) type;
        yield ColumnType.decimal(d.getPrecision(), d.getScale());
      }
      case TIMESTAMP_WITHOUT_TIME_ZONE -> {
        requireMicros(((TimestampType) type).getPrecision(), type, column, table);
        yield ColumnType.TIMESTAMP_NTZ;
      }
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> {
        requireMicros(((LocalZonedTimestampType) type).getPrecision(), type, column, table);
        yield ColumnType.TIMESTAMP;
      }
      case ARRAY -> {
        LogicalType element = ((ArrayType) type).getElementType();
        yield new ColumnType.Array(
            toColumnType(element, column + ".element", table), element.isNullable());
      }
      case MAP -> {
        MapType map = (MapType) type;
        yield new ColumnType.Map(
            toColumnType(map.getKeyType(), column + ".key", table),
            toColumnType(map.getValueType(), column + ".value", table),
            map.getValueType().isNullable());
      }
      case ROW -> ColumnType.struct(toRowSchema((RowType) type, table + " column " + column));
      default -> throw unsupported(type, column, table);
    };
  }

  /**
   * The schema model type of a column whose values a reader of the core types decodes ({@link
   * TypeSupport#CORE}: text formats such as JSON and CSV).
   *
   * @param reader what decodes the values, for the message, e.g. {@code "format 'json'"}
   * @throws LakestreamException ({@link SchemaErrorClass#UNSUPPORTED_DATA_TYPE}) naming the core
   *     types, for another type
   */
  public static ColumnType toCoreColumnType(RowType.RowField field, String table, String reader) {
    ColumnType type = toColumnType(field.getType(), field.getName(), table);
    if (!TypeSupport.CORE.supports(type)) {
      throw new LakestreamException(
          SchemaErrorClass.UNSUPPORTED_DATA_TYPE,
          "Column '"
              + field.getName()
              + "' of "
              + table
              + " is "
              + field.getType().asSummaryString()
              + ", which "
              + reader
              + " does not decode. Use one of STRING, BOOLEAN, INT, BIGINT, DOUBLE,"
              + " DECIMAL(p,s), DATE, TIMESTAMP_LTZ(p) (a nested value can be read as STRING, its"
              + " JSON text).");
    }
    return type;
  }

  private static void requireMicros(int precision, LogicalType type, String column, String table) {
    if (precision > MAX_TIMESTAMP_PRECISION) {
      throw new LakestreamException(
          SchemaErrorClass.UNSUPPORTED_DATA_TYPE,
          "Column '"
              + column
              + "' of "
              + table
              + " is "
              + type.asSummaryString()
              + ": Delta and Spark hold timestamps to the microsecond. Declare it with precision"
              + " 6 or less, e.g. TIMESTAMP(6) or TIMESTAMP_LTZ(6).");
    }
  }

  private static LakestreamException unsupported(LogicalType type, String column, String table) {
    return unsupportedColumn(
        column,
        table,
        type.asSummaryString(),
        "has no Delta/Spark counterpart",
        "STRING, BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE, DECIMAL(p,s), DATE,"
            + " TIMESTAMP(6), TIMESTAMP_LTZ(6), BYTES, ARRAY, MAP, ROW");
  }

  /**
   * The refusal of a column's type, for a connector's own type checks: {@code Column 'c' of t is
   * TIME(0), which <why>. Use one of <types> (cast it in the query).}
   */
  public static LakestreamException unsupportedColumn(
      String column, String table, String type, String why, String types) {
    return new LakestreamException(
        SchemaErrorClass.UNSUPPORTED_DATA_TYPE,
        "Column '"
            + column
            + "' of "
            + table
            + " is "
            + type
            + ", which "
            + why
            + ". Use one of "
            + types
            + " (cast it in the query).");
  }
}
