package io.lakestream.connectors.delta;

import io.delta.kernel.data.ColumnVector;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.types.DataType;
import io.delta.kernel.types.StructType;
import io.lakestream.connectors.delta.kernel.KernelColumnarBatch;
import io.lakestream.connectors.delta.kernel.KernelValueVector;
import io.lakestream.connectors.schema.Column;
import io.lakestream.connectors.schema.ColumnType;
import java.util.Arrays;
import java.util.List;

/**
 * Rows of one partition held column by column, the way Kernel's Parquet writer reads them: numbers,
 * dates, timestamps and booleans in primitive arrays (no boxed value per cell is kept; bytes and
 * shorts in int arrays, as Parquet stores them), strings, decimals, binaries and nested values as
 * references. {@link #append} validates and converts a row as {@link DeltaValues#toKernelValue}
 * does; a row that fails leaves the buffer unchanged.
 *
 * <p>Not thread-safe.
 */
final class DeltaColumnBuffer {
  private static final int INITIAL_CAPACITY = 1024;

  private final List<Column> columns;
  private final ColumnType.Kind[] kinds;
  private final Object[] data; // per column: long[], int[], double[], float[], boolean[], Object[]
  private final boolean[][] nulls; // per column; null for NOT NULL columns
  private int capacity = INITIAL_CAPACITY;
  private int size;
  private long variableBytes; // characters of strings, digits of decimals

  DeltaColumnBuffer(List<Column> columns) {
    this.columns = columns;
    this.kinds = new ColumnType.Kind[columns.size()];
    this.data = new Object[columns.size()];
    this.nulls = new boolean[columns.size()][];
    for (int c = 0; c < kinds.length; c++) {
      kinds[c] = columns.get(c).type().kind();
      data[c] = newArray(kinds[c], INITIAL_CAPACITY);
      if (columns.get(c).nullable()) {
        nulls[c] = new boolean[INITIAL_CAPACITY];
      }
    }
  }

  int size() {
    return size;
  }

  /**
   * Column {@code c}'s values: a {@code long[]}, {@code int[]}, {@code double[]}, {@code float[]},
   * {@code boolean[]} or {@code Object[]} (strings, decimals, binaries, nested values) with at
   * least {@link #size()} entries.
   */
  Object values(int c) {
    return data[c];
  }

  /** Whether row {@code row} of column {@code c} is null. */
  boolean isNull(int c, int row) {
    return nulls[c] != null && nulls[c][row];
  }

  /** A rough in-memory size of the buffered values: 8 bytes per fixed-width cell plus text. */
  long estimatedBytes() {
    return (long) size * kinds.length * 8 + variableBytes;
  }

  /**
   * Appends a row of values in declared column order.
   *
   * @throws io.lakestream.api.error.LakestreamException ({@code DELTA_INVALID_ROW}) if a value does
   *     not fit its column (names the column)
   */
  void append(Object[] row) {
    if (size == capacity) {
      grow();
    }
    long added = 0;
    for (int c = 0; c < kinds.length; c++) {
      Object value = row[c];
      if (value == null) {
        DeltaValues.toKernelValue(columns.get(c), null); // throws for a NOT NULL column
        nulls[c][size] = true;
        continue;
      }
      if (nulls[c] != null) {
        nulls[c][size] = false;
      }
      added += store(c, value);
    }
    variableBytes += added;
    size++;
  }

  /**
   * Stores a non-null value in row {@code size} of column {@code c}; returns its variable bytes.
   */
  private long store(int c, Object value) {
    switch (kinds[c]) {
      case LONG, TIMESTAMP, TIMESTAMP_NTZ ->
          ((long[]) data[c])[size] = value instanceof Long l ? l : (Long) kernelValue(c, value);
      case INT, DATE ->
          ((int[]) data[c])[size] =
              value instanceof Integer i ? i : (Integer) kernelValue(c, value);
      case SHORT -> ((int[]) data[c])[size] = (Short) kernelValue(c, value);
      case BYTE -> ((int[]) data[c])[size] = (Byte) kernelValue(c, value);
      case DOUBLE ->
          ((double[]) data[c])[size] =
              value instanceof Double d ? d : (Double) kernelValue(c, value);
      case FLOAT -> ((float[]) data[c])[size] = (Float) kernelValue(c, value);
      case BOOLEAN -> ((boolean[]) data[c])[size] = (Boolean) kernelValue(c, value);
      case STRING -> {
        String s = value instanceof String str ? str : (String) kernelValue(c, value);
        ((Object[]) data[c])[size] = s;
        return s.length();
      }
      case BINARY -> {
        byte[] bytes = (byte[]) kernelValue(c, value);
        ((Object[]) data[c])[size] = bytes;
        return bytes.length;
      }
      default -> {
        ((Object[]) data[c])[size] = kernelValue(c, value); // decimals and nested values
        return 16;
      }
    }
    return 0;
  }

  private Object kernelValue(int c, Object value) {
    return DeltaValues.toKernelValue(columns.get(c), value);
  }

  /**
   * The buffered rows as a Kernel batch of {@code schema} (the declared columns). The batch views
   * this buffer's arrays: {@link #clear()} only after the batch has been written.
   */
  ColumnarBatch toBatch(StructType schema) {
    ColumnVector[] vectors = new ColumnVector[kinds.length];
    for (int c = 0; c < vectors.length; c++) {
      DataType type = schema.at(c).getDataType();
      vectors[c] =
          data[c] instanceof Object[] refs
              ? new KernelValueVector(type, size, refs) // a null row holds a null reference
              : new Vector(type, size, data[c], nulls[c]);
    }
    return KernelColumnarBatch.of(size, schema, vectors);
  }

  /** Forgets the rows; keeps the arrays (references are dropped so strings can be collected). */
  void clear() {
    for (int c = 0; c < kinds.length; c++) {
      if (data[c] instanceof Object[] refs) {
        Arrays.fill(refs, 0, size, null);
      }
    }
    size = 0;
    variableBytes = 0;
  }

  private void grow() {
    int newCapacity = capacity * 2;
    for (int c = 0; c < kinds.length; c++) {
      Object old = data[c];
      Object bigger = newArray(kinds[c], newCapacity);
      System.arraycopy(old, 0, bigger, 0, size);
      data[c] = bigger;
      if (nulls[c] != null) {
        nulls[c] = Arrays.copyOf(nulls[c], newCapacity);
      }
    }
    capacity = newCapacity;
  }

  private static Object newArray(ColumnType.Kind kind, int capacity) {
    return switch (kind) {
      case LONG, TIMESTAMP, TIMESTAMP_NTZ -> new long[capacity];
      case INT, DATE, SHORT, BYTE -> new int[capacity];
      case DOUBLE -> new double[capacity];
      case FLOAT -> new float[capacity];
      case BOOLEAN -> new boolean[capacity];
      case JSON -> throw new IllegalStateException("the Delta writer has no buffer for " + kind);
      default -> new Object[capacity]; // strings, decimals, binaries, nested values
    };
  }

  /** A read-only view of the first {@code size} values of a column in a primitive array. */
  private static final class Vector implements ColumnVector {
    private final DataType type;
    private final int size;
    private final Object values;
    private final boolean[] nulls;

    Vector(DataType type, int size, Object values, boolean[] nulls) {
      this.type = type;
      this.size = size;
      this.values = values;
      this.nulls = nulls;
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
      return nulls != null && nulls[rowId];
    }

    @Override
    public long getLong(int rowId) {
      return ((long[]) values)[rowId];
    }

    @Override
    public int getInt(int rowId) {
      return ((int[]) values)[rowId];
    }

    @Override
    public double getDouble(int rowId) {
      return ((double[]) values)[rowId];
    }

    @Override
    public boolean getBoolean(int rowId) {
      return ((boolean[]) values)[rowId];
    }

    @Override
    public short getShort(int rowId) {
      return (short) ((int[]) values)[rowId];
    }

    @Override
    public byte getByte(int rowId) {
      return (byte) ((int[]) values)[rowId];
    }

    @Override
    public float getFloat(int rowId) {
      return ((float[]) values)[rowId];
    }

    @Override
    public void close() {}
  }
}
