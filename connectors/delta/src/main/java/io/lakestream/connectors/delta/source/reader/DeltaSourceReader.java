package io.lakestream.connectors.delta.source.reader;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.delta.DeltaDataFileReader;
import io.lakestream.connectors.delta.source.split.DeltaSourceSplit;
import io.lakestream.state.query.InputRowCount;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.types.Row;

/**
 * Reads its Delta data files one after the other and emits their rows as {@link Row}s in the
 * table's column order (partition columns included). Asks the enumerator for a file whenever it has
 * none. Its checkpoint holds the files it has not finished and, for the current one, how many rows
 * it emitted: a restored reader reopens that file and skips them, so no row is lost or repeated.
 *
 * <p>Reads happen in the task thread, one Parquet batch at a time, so a checkpoint waits at most
 * for one batch. A read failure fails the task (the message names the file).
 */
@Internal
public final class DeltaSourceReader extends DeltaFileSplitReader<DeltaSourceSplit> {
  public DeltaSourceReader(
      SourceReaderContext context,
      DeltaDataFileReader files,
      NestedRowValues nested,
      InputRowCount inputRows) {
    super(context, split -> files.open(split.file()), nested, inputRows);
  }
}
