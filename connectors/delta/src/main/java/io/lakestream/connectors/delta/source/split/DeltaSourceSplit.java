package io.lakestream.connectors.delta.source.split;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.delta.DeltaAddedFile;

/**
 * One data file of a Delta table to read, and how many of its rows a reader has already emitted (a
 * restored reader skips them). Its id is the file's position in the table's history, e.g. {@code
 * v-5-0} for the first file version 5 added.
 *
 * @param file the data file and its position
 * @param rowsToSkip rows of the file already emitted before the checkpoint this split comes from
 */
@Internal
public record DeltaSourceSplit(DeltaAddedFile file, long rowsToSkip)
    implements DeltaFileSplit<DeltaAddedFile, DeltaSourceSplit> {

  public DeltaSourceSplit {
    DeltaFileSplit.check(file, rowsToSkip);
  }

  /** A split that reads {@code file} from its first row. */
  public static DeltaSourceSplit of(DeltaAddedFile file) {
    return new DeltaSourceSplit(file, 0);
  }

  @Override
  public DeltaSourceSplit withRowsToSkip(long rowsToSkip) {
    return new DeltaSourceSplit(file, rowsToSkip);
  }
}
