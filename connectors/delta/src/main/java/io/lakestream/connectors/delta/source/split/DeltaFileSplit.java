package io.lakestream.connectors.delta.source.split;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.delta.DeltaStreamFile;
import org.apache.flink.api.connector.source.SourceSplit;

/**
 * A split of the Delta sources: one file of the table to read, and how many of its rows a reader
 * has already emitted (a restored reader skips them). Its id is the file's position in the stream
 * ({@link DeltaStreamFile#positionId()}).
 *
 * @param <F> the file type
 * @param <S> the split type itself
 */
@Internal
public interface DeltaFileSplit<F extends DeltaStreamFile, S extends DeltaFileSplit<F, S>>
    extends SourceSplit {
  /** The file and its position. */
  F file();

  /** Rows of the file already emitted before the checkpoint this split comes from. */
  long rowsToSkip();

  /** The same file with {@code rowsToSkip} rows emitted. */
  S withRowsToSkip(long rowsToSkip);

  @Override
  default String splitId() {
    return file().positionId();
  }

  /**
   * Checks a split's fields.
   *
   * @throws NullPointerException if {@code file} is null
   * @throws IllegalArgumentException if {@code rowsToSkip} is negative
   */
  static void check(DeltaStreamFile file, long rowsToSkip) {
    if (file == null) {
      throw new NullPointerException("file");
    }
    if (rowsToSkip < 0) {
      throw new IllegalArgumentException("rowsToSkip must be >= 0, was " + rowsToSkip);
    }
  }
}
