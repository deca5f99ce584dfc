package io.lakestream.connectors.delta.sink;

import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.DeltaTableWriter;
import io.lakestream.connectors.delta.DeltaWrittenFile;
import io.lakestream.connectors.schema.RowFields;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.apache.flink.api.connector.sink2.CommittingSinkWriter;

/**
 * Converts each row at once into the table writer's column buffers and writes them as Parquet data
 * files (uncommitted) when the buffer reaches {@code maxRowsPerFile} rows or {@code
 * maxBufferedBytes}, and at every checkpoint; the files of an epoch go to the committer, which
 * makes them one Delta version.
 */
final class DeltaSinkWriter<T> implements CommittingSinkWriter<T, DeltaWrittenFile> {
  private final RowFields<T> fields;
  private final DeltaTableWriter writer;
  private final int maxRowsPerFile;
  private final long maxBufferedBytes;
  private final List<DeltaWrittenFile> written = new ArrayList<>();
  private int sinceSizeCheck;

  DeltaSinkWriter(
      DeltaTable table,
      DeltaTableSchema schema,
      RowFields<T> fields,
      int maxRowsPerFile,
      long maxBufferedBytes,
      boolean mergeSchema) {
    this.fields = fields;
    this.writer = new DeltaTableWriter(table, schema, mergeSchema);
    this.maxRowsPerFile = maxRowsPerFile;
    this.maxBufferedBytes = maxBufferedBytes;
  }

  DeltaSinkWriter(
      DeltaTable table, DeltaTableSchema schema, RowFields<T> fields, int maxRowsPerFile) {
    this(table, schema, fields, maxRowsPerFile, DeltaSinkBuilder.DEFAULT_MAX_BUFFERED_BYTES, false);
  }

  @Override
  public void write(T element, Context context) {
    writer.append(fields.toRow(element));
    if (writer.bufferedRows() >= maxRowsPerFile) {
      writeBuffer();
    } else if (++sinceSizeCheck >= 1024) { // the size estimate walks the partitions: not per row
      sinceSizeCheck = 0;
      if (writer.bufferedBytes() >= maxBufferedBytes) {
        writeBuffer();
      }
    }
  }

  @Override
  public void flush(boolean endOfInput) {
    writeBuffer();
  }

  private void writeBuffer() {
    written.addAll(writer.flush());
    sinceSizeCheck = 0;
  }

  @Override
  public Collection<DeltaWrittenFile> prepareCommit() {
    List<DeltaWrittenFile> out = new ArrayList<>(written);
    written.clear();
    return out;
  }

  @Override
  public void close() {
    writer.discardBuffered();
  }
}
