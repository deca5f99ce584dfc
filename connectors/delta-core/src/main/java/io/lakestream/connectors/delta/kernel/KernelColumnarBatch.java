package io.lakestream.connectors.delta.kernel;

import io.delta.kernel.data.ColumnVector;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.defaults.internal.data.DefaultColumnarBatch;
import io.delta.kernel.types.StructType;
import io.lakestream.api.annotation.Internal;

/**
 * A columnar batch of given vectors. Wraps Kernel's {@code
 * defaults.internal.data.DefaultColumnarBatch}: the public {@link ColumnarBatch} is only an
 * interface whose {@code withNewColumn}, {@code withDeletedColumnAt} and {@code withNewSchema}
 * throw, and the default engine's Parquet writer and data transforms, which are handed batches of
 * lakestream's own vectors, may call them; Kernel's own batch implements them.
 */
@Internal
public final class KernelColumnarBatch {
  private KernelColumnarBatch() {}

  /**
   * A batch of {@code size} rows with {@code schema}, column {@code i} being {@code vectors[i]}.
   */
  public static ColumnarBatch of(int size, StructType schema, ColumnVector[] vectors) {
    return new DefaultColumnarBatch(size, schema, vectors);
  }
}
