package io.lakestream.bench.delta;

import io.delta.kernel.data.ColumnVector;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.types.DataType;
import io.delta.kernel.types.DoubleType;
import io.delta.kernel.types.LongType;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.StructType;
import io.delta.kernel.types.TimestampType;

/**
 * The peer's in-memory batch of narrow rows: one primitive array per column, as a hand-written
 * Parquet loop would hold them (no boxing, no per-row objects). Filled by {@link #fill}.
 */
final class ArrayBatch implements ColumnarBatch {
  private final StructType schema;
  private final long[] ids;
  private final long[] ts;
  private final String[] categories;
  private final double[] amounts;
  private int size;

  ArrayBatch(StructType schema, int capacity) {
    this.schema = schema;
    this.ids = new long[capacity];
    this.ts = new long[capacity];
    this.categories = new String[capacity];
    this.amounts = new double[capacity];
  }

  /** Refills the batch with rows {@code from} (inclusive) to {@code to} (exclusive). */
  ArrayBatch fill(long from, long to) {
    size = (int) (to - from);
    for (int r = 0; r < size; r++) {
      long i = from + r;
      ids[r] = i;
      ts[r] = NarrowRows.tsMicros(i);
      categories[r] = NarrowRows.category(i);
      amounts[r] = NarrowRows.amount(i);
    }
    return this;
  }

  @Override
  public StructType getSchema() {
    return schema;
  }

  @Override
  public int getSize() {
    return size;
  }

  @Override
  public ColumnVector getColumnVector(int ordinal) {
    return switch (ordinal) {
      case 0 ->
          new Vector(LongType.LONG) {
            @Override
            public long getLong(int rowId) {
              return ids[rowId];
            }
          };
      case 1 ->
          new Vector(TimestampType.TIMESTAMP) {
            @Override
            public long getLong(int rowId) {
              return ts[rowId];
            }
          };
      case 2 ->
          new Vector(StringType.STRING) {
            @Override
            public String getString(int rowId) {
              return categories[rowId];
            }
          };
      case 3 ->
          new Vector(DoubleType.DOUBLE) {
            @Override
            public double getDouble(int rowId) {
              return amounts[rowId];
            }
          };
      default -> throw new IndexOutOfBoundsException("column " + ordinal);
    };
  }

  private abstract class Vector implements ColumnVector {
    private final DataType type;

    Vector(DataType type) {
      this.type = type;
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
      return false;
    }

    @Override
    public void close() {}
  }
}
