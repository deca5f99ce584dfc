package io.lakestream.connectors.delta;

import io.lakestream.api.annotation.Internal;
import java.io.Closeable;

/**
 * The rows of one Delta file (a data file or a change file), in file order, read batch by batch.
 * Not thread-safe. Reading fails with {@link DeltaTableException} naming the file.
 */
@Internal
public interface DeltaFileRows extends Closeable {
  /**
   * Whether another row follows (may read the next Parquet batch).
   *
   * @throws DeltaTableException if the file cannot be read
   */
  boolean hasNext();

  /**
   * The next row.
   *
   * @throws DeltaTableException if the file cannot be read
   */
  Object[] next();
}
