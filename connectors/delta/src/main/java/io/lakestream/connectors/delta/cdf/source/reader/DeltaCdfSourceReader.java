package io.lakestream.connectors.delta.cdf.source.reader;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.delta.cdf.DeltaChangeFileReader;
import io.lakestream.connectors.delta.cdf.source.split.DeltaCdfSplit;
import io.lakestream.connectors.delta.source.reader.DeltaFileSplitReader;
import io.lakestream.connectors.delta.source.reader.NestedRowValues;
import io.lakestream.state.query.InputRowCount;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.types.Row;

/**
 * Reads its change files one after the other and emits their change rows as {@link Row}s (the
 * table's columns, then {@code _change_type}, {@code _commit_version}, {@code _commit_timestamp}).
 * Asks the enumerator for a file whenever it has none. Its checkpoint holds the files it has not
 * finished and, for the current one, how many rows it emitted: a restored reader reopens that file
 * and skips them, so no change row is lost or repeated.
 *
 * <p>Reads happen in the task thread, one Parquet batch at a time. A read failure fails the task
 * (the message names the file).
 */
@Internal
public final class DeltaCdfSourceReader extends DeltaFileSplitReader<DeltaCdfSplit> {
  public DeltaCdfSourceReader(
      SourceReaderContext context,
      DeltaChangeFileReader files,
      NestedRowValues nested,
      InputRowCount inputRows) {
    super(context, split -> files.open(split.file()), nested, inputRows);
  }

  @Override
  public void notifyNoMoreSplits() {
    // an unbounded stream: the enumerator never signals the end
  }
}
