package io.lakestream.sql.types;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.schema.RowFields;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RowType;

/**
 * Reads Flink's internal rows ({@link RowData}, what the planner hands a sink) as the schema
 * model's Java values ({@link io.lakestream.connectors.schema.ColumnType}): strings as {@link
 * String}, decimals as {@link java.math.BigDecimal}, dates as days since the epoch, {@code
 * TIMESTAMP_LTZ} as microseconds since the epoch, {@code TIMESTAMP} as {@link
 * java.time.LocalDateTime}, arrays as lists, maps as maps, rows as arrays. The converters are
 * chosen once per column type, not per value. The row's types must be ones {@link FlinkTypes} maps
 * (checked at planning time).
 */
@Internal
public final class RowDataFields implements RowFields<RowData> {
  private static final long serialVersionUID = 1L;

  private final RowData.FieldGetter[] getters;
  private final ValueConverter[] converters;

  private RowDataFields(RowType rowType, int[] positions) {
    getters = new RowData.FieldGetter[positions.length];
    converters = new ValueConverter[positions.length];
    for (int i = 0; i < positions.length; i++) {
      LogicalType type = rowType.getTypeAt(positions[i]);
      getters[i] = RowData.createFieldGetter(type, positions[i]);
      converters[i] = converterOf(type);
    }
  }

  /** The fields of rows of {@code rowType}, in its order. */
  public static RowDataFields of(RowType rowType) {
    return new RowDataFields(rowType, IntStream.range(0, rowType.getFieldCount()).toArray());
  }

  /** Only the fields at {@code positions} of rows of {@code rowType}, in that order. */
  public static RowDataFields of(RowType rowType, int[] positions) {
    return new RowDataFields(rowType, positions.clone());
  }

  /**
   * Partitions rows by their key columns' values, so that every change of a key reaches one sink
   * writer, in order. The hash is of the values (binary ones by content), the same in every JVM, as
   * Flink requires of a key.
   */
  public static KeySelector<RowData, Integer> byKey(RowType rowType, int[] keyPositions) {
    RowDataFields key = of(rowType, keyPositions); // converts the key columns only
    return row -> Arrays.deepHashCode(key.toRow(row));
  }

  @Override
  public Object[] toRow(RowData row) {
    Object[] values = new Object[getters.length];
    for (int i = 0; i < values.length; i++) {
      Object value = getters[i].getFieldOrNull(row);
      values[i] = value == null ? null : converters[i].convert(value);
    }
    return values;
  }

  /** Turns one non-null internal value into the schema model's value. */
  @FunctionalInterface
  private interface ValueConverter extends Serializable {
    Object convert(Object internal);
  }

  private static ValueConverter converterOf(LogicalType type) {
    return switch (type.getTypeRoot()) {
      case CHAR, VARCHAR -> value -> ((StringData) value).toString();
      case DECIMAL -> value -> ((DecimalData) value).toBigDecimal();
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> RowDataFields::micros;
      case TIMESTAMP_WITHOUT_TIME_ZONE -> value -> ((TimestampData) value).toLocalDateTime();
      case ARRAY -> arrayConverter(((ArrayType) type).getElementType());
      case MAP -> mapConverter((MapType) type);
      case ROW -> rowConverter((RowType) type);
      default -> value -> value; // booleans, numbers, days (DATE), byte[] are the model's values
    };
  }

  private static Object micros(Object value) {
    TimestampData timestamp = (TimestampData) value;
    return Math.addExact(
        Math.multiplyExact(timestamp.getMillisecond(), 1000L),
        timestamp.getNanoOfMillisecond() / 1000);
  }

  private static ValueConverter arrayConverter(LogicalType elementType) {
    ArrayData.ElementGetter getter = ArrayData.createElementGetter(elementType);
    ValueConverter element = converterOf(elementType);
    return value -> {
      ArrayData array = (ArrayData) value;
      List<Object> list = new ArrayList<>(array.size());
      for (int i = 0; i < array.size(); i++) {
        Object e = getter.getElementOrNull(array, i);
        list.add(e == null ? null : element.convert(e));
      }
      return list;
    };
  }

  private static ValueConverter mapConverter(MapType type) {
    ValueConverter keys = arrayConverter(type.getKeyType());
    ValueConverter values = arrayConverter(type.getValueType());
    return value -> {
      MapData map = (MapData) value;
      List<?> k = (List<?>) keys.convert(map.keyArray());
      List<?> v = (List<?>) values.convert(map.valueArray());
      Map<Object, Object> out = new LinkedHashMap<>();
      for (int i = 0; i < k.size(); i++) {
        out.put(k.get(i), v.get(i));
      }
      return out;
    };
  }

  private static ValueConverter rowConverter(RowType type) {
    RowDataFields fields = of(type);
    return value -> fields.toRow((RowData) value);
  }
}
