package io.lakestream.connectors.delta.kernel;

import io.delta.kernel.data.ArrayValue;
import io.delta.kernel.data.ColumnVector;
import io.delta.kernel.data.MapValue;
import io.delta.kernel.types.ArrayType;
import io.delta.kernel.types.DataType;
import io.delta.kernel.types.MapType;
import io.delta.kernel.types.StructType;
import io.lakestream.api.annotation.Internal;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/**
 * A read-only Kernel {@link ColumnVector} over values held as objects, one per row, {@code null}
 * for a null row: Kernel's in-memory values (Boolean, Byte, Short, Integer (also days of a date),
 * Long (also microseconds of a timestamp), Float, Double, String, BigDecimal, byte[]), a {@link
 * List} of element values for an array, a {@link Map} for a map and an {@code Object[]} of field
 * values for a struct, nested to any depth. Kernel's Parquet writer reads nested columns through
 * {@link #getArray}, {@link #getMap} and {@link #getChild}, which this vector answers with views of
 * the same values.
 *
 * <p>A getter for another type than the vector's fails with a {@link ClassCastException}, as a
 * value of the wrong class does; the values are not copied, so they must not change while the
 * vector is in use.
 */
@Internal
public final class KernelValueVector implements ColumnVector {
  private final DataType type;
  private final int size;
  private final Object[] values;
  private ColumnVector[] children; // of a struct, made on first use

  /** A vector of {@code type} over {@code values[0, size)}. */
  public KernelValueVector(DataType type, int size, Object[] values) {
    this.type = type;
    this.size = size;
    this.values = values;
  }

  @Override
  public DataType getDataType() {
    return type;
  }

  @Override
  public int getSize() {
    return size;
  }

  @Override
  public boolean isNullAt(int rowId) {
    return values[rowId] == null;
  }

  @Override
  public boolean getBoolean(int rowId) {
    return (Boolean) values[rowId];
  }

  @Override
  public byte getByte(int rowId) {
    return (Byte) values[rowId];
  }

  @Override
  public short getShort(int rowId) {
    return (Short) values[rowId];
  }

  @Override
  public int getInt(int rowId) {
    return (Integer) values[rowId];
  }

  @Override
  public long getLong(int rowId) {
    return (Long) values[rowId];
  }

  @Override
  public float getFloat(int rowId) {
    return (Float) values[rowId];
  }

  @Override
  public double getDouble(int rowId) {
    return (Double) values[rowId];
  }

  @Override
  public String getString(int rowId) {
    return (String) values[rowId];
  }

  @Override
  public BigDecimal getDecimal(int rowId) {
    return (BigDecimal) values[rowId];
  }

  @Override
  public byte[] getBinary(int rowId) {
    return (byte[]) values[rowId];
  }

  @Override
  public ArrayValue getArray(int rowId) {
    List<?> elements = (List<?>) values[rowId];
    ColumnVector vector =
        new KernelValueVector(
            ((ArrayType) type).getElementType(), elements.size(), elements.toArray());
    return new ArrayValue() {
      @Override
      public int getSize() {
        return vector.getSize();
      }

      @Override
      public ColumnVector getElements() {
        return vector;
      }
    };
  }

  @Override
  public MapValue getMap(int rowId) {
    Map<?, ?> map = (Map<?, ?>) values[rowId];
    MapType mapType = (MapType) type;
    ColumnVector keys =
        new KernelValueVector(mapType.getKeyType(), map.size(), map.keySet().toArray());
    ColumnVector mapValues =
        new KernelValueVector(mapType.getValueType(), map.size(), map.values().toArray());
    return new MapValue() {
      @Override
      public int getSize() {
        return keys.getSize();
      }

      @Override
      public ColumnVector getKeys() {
        return keys;
      }

      @Override
      public ColumnVector getValues() {
        return mapValues;
      }
    };
  }

  /** Field {@code ordinal} of a struct vector: null where the struct or the field is null. */
  @Override
  public ColumnVector getChild(int ordinal) {
    if (children == null) {
      children = new ColumnVector[((StructType) type).length()];
    }
    if (children[ordinal] == null) {
      Object[] fieldValues = new Object[size];
      for (int row = 0; row < size; row++) {
        if (values[row] != null) {
          fieldValues[row] = ((Object[]) values[row])[ordinal];
        }
      }
      children[ordinal] =
          new KernelValueVector(((StructType) type).at(ordinal).getDataType(), size, fieldValues);
    }
    return children[ordinal];
  }

  @Override
  public void close() {}
}
