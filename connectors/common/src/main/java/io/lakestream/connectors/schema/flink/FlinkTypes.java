package io.lakestream.connectors.schema.flink;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.connectors.schema.RowSchema;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.types.Row;

/**
 * The Flink types of the schema model's values, so that rows travel with Flink's own serializers
 * (never Kryo): numbers as boxed Java numbers, decimals as {@code BigDecimal}, dates as {@code
 * LocalDate}, timestamps as {@code Instant} (NTZ: {@code LocalDateTime}), binary as {@code byte[]},
 * arrays as lists, maps with string keys, structs as named rows; strings and JSON as {@code
 * String}.
 */
@PublicEvolving
public final class FlinkTypes {
  private FlinkTypes() {}

  /** The Flink type of values of {@code type}. */
  public static TypeInformation<?> of(ColumnType type) {
    return switch (type.kind()) {
      case BOOLEAN -> Types.BOOLEAN;
      case BYTE -> Types.BYTE;
      case SHORT -> Types.SHORT;
      case INT -> Types.INT;
      case LONG -> Types.LONG;
      case FLOAT -> Types.FLOAT;
      case DOUBLE -> Types.DOUBLE;
      case DECIMAL -> Types.BIG_DEC;
      case DATE -> Types.LOCAL_DATE;
      case TIMESTAMP -> Types.INSTANT;
      case TIMESTAMP_NTZ -> Types.LOCAL_DATE_TIME;
      case BINARY -> Types.PRIMITIVE_ARRAY(Types.BYTE);
      case ARRAY -> Types.LIST(of(((ColumnType.Array) type).elementType()));
      case MAP -> Types.MAP(Types.STRING, of(((ColumnType.Map) type).valueType()));
      case STRUCT -> rowType(((ColumnType.Struct) type).fields());
      case STRING, JSON -> Types.STRING;
    };
  }

  /** Named rows of {@code schema}'s columns. */
  public static TypeInformation<Row> rowType(RowSchema schema) {
    String[] names = schema.columnNames().toArray(new String[0]);
    TypeInformation<?>[] types = new TypeInformation<?>[schema.size()];
    for (int i = 0; i < types.length; i++) {
      types[i] = of(schema.column(i).type());
    }
    return Types.ROW_NAMED(names, types);
  }
}
