package io.lakestream.connectors.delta.source.reader;

import io.lakestream.api.annotation.Internal;
import java.io.Serializable;
import java.lang.reflect.Array;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.BasicArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.typeutils.MapTypeInfo;
import org.apache.flink.api.java.typeutils.ObjectArrayTypeInfo;
import org.apache.flink.api.java.typeutils.RowTypeInfo;
import org.apache.flink.types.Row;

/**
 * Turns the nested values of a row as the Delta readers give them (the schema model's: a {@link
 * List} for an array, a {@link Map} for a map, an {@code Object[]} for a struct) into the values of
 * the source's Flink row type, which Flink's serializers take and which Flink SQL's converters
 * expect: an array of the element class ({@code String[]}, {@code Row[]}, ...) for an array, a
 * {@link LinkedHashMap} for a map, a {@link Row} for a struct, nested to any depth. Columns of
 * other types are passed as they are, and a row without nested columns is not touched at all.
 */
@Internal
public final class NestedRowValues implements Serializable {
  private static final long serialVersionUID = 1L;

  private final int[] nestedColumns;
  private final Converter[] converters;

  private NestedRowValues(int[] nestedColumns, Converter[] converters) {
    this.nestedColumns = nestedColumns;
    this.converters = converters;
  }

  /** The conversion of rows of {@code rowType}. */
  public static NestedRowValues of(RowTypeInfo rowType) {
    int count = 0;
    int[] columns = new int[rowType.getArity()];
    Converter[] converters = new Converter[rowType.getArity()];
    for (int c = 0; c < rowType.getArity(); c++) {
      Converter converter = converterOf(rowType.getTypeAt(c));
      if (converter != null) {
        columns[count] = c;
        converters[count++] = converter;
      }
    }
    return new NestedRowValues(
        java.util.Arrays.copyOf(columns, count), java.util.Arrays.copyOf(converters, count));
  }

  /** Converts the nested values of {@code row} in place; returns it. */
  public Object[] apply(Object[] row) {
    for (int i = 0; i < nestedColumns.length; i++) {
      int c = nestedColumns[i];
      if (row[c] != null) {
        row[c] = converters[i].convert(row[c]);
      }
    }
    return row;
  }

  /** Converts one non-null value. */
  @FunctionalInterface
  private interface Converter extends Serializable {
    Object convert(Object value);
  }

  /** The converter of a nested type's values, or null for a type whose values pass as they are. */
  private static Converter converterOf(TypeInformation<?> type) {
    if (type instanceof RowTypeInfo row) {
      return structConverter(row);
    } else if (type instanceof MapTypeInfo<?, ?> map) {
      return mapConverter(map.getKeyTypeInfo(), map.getValueTypeInfo());
    } else if (type instanceof ObjectArrayTypeInfo<?, ?> array) {
      return arrayConverter(array.getComponentInfo());
    } else if (type instanceof BasicArrayTypeInfo<?, ?> array) {
      return arrayConverter(array.getComponentInfo());
    }
    return null;
  }

  private static Converter orIdentity(Converter converter) {
    return converter == null ? value -> value : converter;
  }

  private static Converter structConverter(RowTypeInfo type) {
    Converter[] fields = new Converter[type.getArity()];
    for (int f = 0; f < fields.length; f++) {
      fields[f] = orIdentity(converterOf(type.getTypeAt(f)));
    }
    return value -> {
      Object[] values = (Object[]) value;
      Row row = new Row(values.length);
      for (int f = 0; f < values.length; f++) {
        row.setField(f, values[f] == null ? null : fields[f].convert(values[f]));
      }
      return row;
    };
  }

  private static Converter mapConverter(TypeInformation<?> keys, TypeInformation<?> values) {
    Converter key = orIdentity(converterOf(keys));
    Converter mapValue = orIdentity(converterOf(values));
    return value -> {
      Map<Object, Object> out = new LinkedHashMap<>();
      for (Map.Entry<?, ?> e : ((Map<?, ?>) value).entrySet()) {
        out.put(
            key.convert(e.getKey()), e.getValue() == null ? null : mapValue.convert(e.getValue()));
      }
      return out;
    };
  }

  private static Converter arrayConverter(TypeInformation<?> elementType) {
    Converter element = orIdentity(converterOf(elementType));
    Class<?> elementClass = elementType.getTypeClass();
    return value -> {
      List<?> list = (List<?>) value;
      Object array = Array.newInstance(elementClass, list.size());
      for (int i = 0; i < list.size(); i++) {
        Object e = list.get(i);
        Array.set(array, i, e == null ? null : element.convert(e));
      }
      return array;
    };
  }
}
