package io.lakestream.connectors.delta;

import io.delta.kernel.types.ArrayType;
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
import io.delta.kernel.types.MapType;
import io.delta.kernel.types.ShortType;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.delta.kernel.types.TimestampNTZType;
import io.delta.kernel.types.TimestampType;
import io.lakestream.api.annotation.Internal;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.schema.Column;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.connectors.schema.RowSchema;
import io.lakestream.connectors.schema.SchemaErrorClass;
import io.lakestream.connectors.schema.TypeSupport;
import java.util.ArrayList;
import java.util.List;

/**
 * The converter between the schema model ({@link ColumnType}, {@link RowSchema}) and Delta Kernel's
 * types, which Delta writes as the table's schema JSON ({@code string}, {@code long}, {@code
 * integer}, {@code decimal(12,2)}, {@code timestamp}, ...).
 *
 * <p>Every model type but JSON has a Delta type, nested ones included, and the Delta writer writes
 * and reads all of them ({@link #checkWritable}). Both directions fail with a {@link
 * LakestreamException} of class {@link SchemaErrorClass#UNSUPPORTED_DATA_TYPE} for a type the other
 * side lacks (JSON; variant and the geospatial types).
 */
@Internal
public final class DeltaTypes {
  /** The types the Delta writer writes: every model type but JSON. */
  public static final TypeSupport WRITABLE =
      TypeSupport.CORE.plus(
          ColumnType.Kind.BYTE,
          ColumnType.Kind.SHORT,
          ColumnType.Kind.FLOAT,
          ColumnType.Kind.TIMESTAMP_NTZ,
          ColumnType.Kind.BINARY,
          ColumnType.Kind.ARRAY,
          ColumnType.Kind.MAP,
          ColumnType.Kind.STRUCT);

  private DeltaTypes() {}

  /**
   * The Kernel schema of these columns (name, type, nullability; no field metadata).
   *
   * @throws LakestreamException ({@link SchemaErrorClass#UNSUPPORTED_DATA_TYPE}) for a JSON column
   */
  public static StructType toKernel(RowSchema schema) {
    List<StructField> fields = new ArrayList<>(schema.size());
    for (Column c : schema.columns()) {
      fields.add(new StructField(c.name(), toKernel(c.type()), c.nullable()));
    }
    return new StructType(fields);
  }

  /**
   * The Kernel type of {@code type}.
   *
   * @throws LakestreamException ({@link SchemaErrorClass#UNSUPPORTED_DATA_TYPE}) for JSON, which
   *     Delta has no type for
   */
  public static DataType toKernel(ColumnType type) {
    switch (type.kind()) {
      case DECIMAL:
        ColumnType.Decimal decimal = (ColumnType.Decimal) type;
        return new DecimalType(decimal.precision(), decimal.scale());
      case ARRAY:
        ColumnType.Array array = (ColumnType.Array) type;
        return new ArrayType(toKernel(array.elementType()), array.containsNull());
      case MAP:
        ColumnType.Map map = (ColumnType.Map) type;
        return new MapType(
            toKernel(map.keyType()), toKernel(map.valueType()), map.valueContainsNull());
      case STRUCT:
        return toKernel(((ColumnType.Struct) type).fields());
      case JSON:
        throw new LakestreamException(
            SchemaErrorClass.UNSUPPORTED_DATA_TYPE,
            "Delta has no json type; declare the column as string to keep the document as text");
      default:
        return primitiveToKernel(type.kind());
    }
  }

  private static DataType primitiveToKernel(ColumnType.Kind kind) {
    switch (kind) {
      case STRING:
        return StringType.STRING;
      case BOOLEAN:
        return BooleanType.BOOLEAN;
      case BYTE:
        return ByteType.BYTE;
      case SHORT:
        return ShortType.SHORT;
      case INT:
        return IntegerType.INTEGER;
      case LONG:
        return LongType.LONG;
      case FLOAT:
        return FloatType.FLOAT;
      case DOUBLE:
        return DoubleType.DOUBLE;
      case DATE:
        return DateType.DATE;
      case TIMESTAMP:
        return TimestampType.TIMESTAMP;
      case TIMESTAMP_NTZ:
        return TimestampNTZType.TIMESTAMP_NTZ;
      case BINARY:
        return BinaryType.BINARY;
      default:
        throw new IllegalStateException("not a primitive kind: " + kind);
    }
  }

  /**
   * The columns of a Kernel schema (a table's as read).
   *
   * @throws LakestreamException ({@link SchemaErrorClass#UNSUPPORTED_DATA_TYPE}) naming the first
   *     column whose type has no model type (e.g. variant)
   */
  public static RowSchema fromKernel(StructType schema) {
    RowSchema.Builder columns = RowSchema.builder();
    for (StructField field : schema.fields()) {
      columns.column(
          field.getName(), fromKernel(field.getName(), field.getDataType()), field.isNullable());
    }
    return columns.build();
  }

  /**
   * The model type of a Kernel type.
   *
   * @throws LakestreamException ({@link SchemaErrorClass#UNSUPPORTED_DATA_TYPE}) for a type the
   *     model lacks (variant, geometry, geography)
   */
  public static ColumnType fromKernel(DataType type) {
    return fromKernel(null, type);
  }

  private static ColumnType fromKernel(String column, DataType type) {
    if (type instanceof DecimalType d) {
      return ColumnType.decimal(d.getPrecision(), d.getScale());
    } else if (type instanceof ArrayType a) {
      return new ColumnType.Array(fromKernel(column, a.getElementType()), a.containsNull());
    } else if (type instanceof MapType m) {
      return new ColumnType.Map(
          fromKernel(column, m.getKeyType()),
          fromKernel(column, m.getValueType()),
          m.isValueContainsNull());
    } else if (type instanceof StructType s) {
      return ColumnType.struct(fromKernel(s));
    }
    ColumnType primitive = primitiveFromKernel(type);
    if (primitive == null) {
      throw new LakestreamException(
          SchemaErrorClass.UNSUPPORTED_DATA_TYPE,
          (column == null ? "" : "Column '" + column + "' is of ")
              + "Delta type "
              + type
              + ", which lakestream does not read; supported are the primitive types, decimal,"
              + " array, map and struct");
    }
    return primitive;
  }

  /** The model type of a Kernel type without parameters, or null (decimals, nested, variant). */
  static ColumnType primitiveFromKernel(DataType type) {
    if (type instanceof StringType) {
      return ColumnType.STRING;
    } else if (type instanceof BooleanType) {
      return ColumnType.BOOLEAN;
    } else if (type instanceof ByteType) {
      return ColumnType.BYTE;
    } else if (type instanceof ShortType) {
      return ColumnType.SHORT;
    } else if (type instanceof IntegerType) {
      return ColumnType.INT;
    } else if (type instanceof LongType) {
      return ColumnType.LONG;
    } else if (type instanceof FloatType) {
      return ColumnType.FLOAT;
    } else if (type instanceof DoubleType) {
      return ColumnType.DOUBLE;
    } else if (type instanceof DateType) {
      return ColumnType.DATE;
    } else if (type instanceof TimestampType) {
      return ColumnType.TIMESTAMP;
    } else if (type instanceof TimestampNTZType) {
      return ColumnType.TIMESTAMP_NTZ;
    } else if (type instanceof BinaryType) {
      return ColumnType.BINARY;
    }
    return null;
  }

  /**
   * Checks that the Delta writer writes {@code column}'s type.
   *
   * @throws LakestreamException ({@link SchemaErrorClass#UNSUPPORTED_DATA_TYPE}) naming the column
   *     and the types it writes
   */
  public static void checkWritable(Column column) {
    checkWritable(column.name(), column.type());
  }

  private static void checkWritable(String path, ColumnType type) {
    WRITABLE.check(new Column(path, type), "the Delta writer");
    switch (type.kind()) {
      case ARRAY -> checkWritable(path + ".element", ((ColumnType.Array) type).elementType());
      case MAP -> {
        checkWritable(path + ".key", ((ColumnType.Map) type).keyType());
        checkWritable(path + ".value", ((ColumnType.Map) type).valueType());
      }
      case STRUCT -> {
        for (Column field : ((ColumnType.Struct) type).fields().columns()) {
          checkWritable(path + "." + field.name(), field.type());
        }
      }
      default -> {}
    }
  }
}
