package io.lakestream.connectors.delta.cdf.source.split;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.delta.cdf.DeltaChangeFile;
import io.lakestream.connectors.delta.source.split.DeltaFileSplit;

/**
 * One change file of a Delta table's change data feed to read, and how many of its rows a reader
 * has already emitted (a restored reader skips them). Its id is the file's position in the feed,
 * e.g. {@code cdf-5-0} for the first change file of version 5.
 *
 * @param file the change file and its position
 * @param rowsToSkip rows of the file already emitted before the checkpoint this split comes from
 */
@Internal
public record DeltaCdfSplit(DeltaChangeFile file, long rowsToSkip)
    implements DeltaFileSplit<DeltaChangeFile, DeltaCdfSplit> {

  public DeltaCdfSplit {
    DeltaFileSplit.check(file, rowsToSkip);
  }

  /** A split that reads {@code file} from its first row. */
  public static DeltaCdfSplit of(DeltaChangeFile file) {
    return new DeltaCdfSplit(file, 0);
  }

  @Override
  public DeltaCdfSplit withRowsToSkip(long rowsToSkip) {
    return new DeltaCdfSplit(file, rowsToSkip);
  }
}
