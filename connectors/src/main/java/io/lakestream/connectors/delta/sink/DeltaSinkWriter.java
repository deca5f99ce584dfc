package io.lakestream.connectors.delta.sink;

import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.DeltaTableWriter;
import io.lakestream.connectors.delta.DeltaWrittenFile;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.apache.flink.api.connector.sink2.CommittingSinkWriter;

/**
 * Buffers rows and writes them as Parquet data files (uncommitted) when the buffer is full and at
 * every checkpoint; the files of an epoch go to the committer, which makes them one Delta version.
 */
final class DeltaSinkWriter<T> implements CommittingSinkWriter<T, DeltaWrittenFile> {
  private final RowFields<T> fields;
  private final DeltaTableWriter writer;
  private final int maxRowsPerFile;
  private final List<Object[]> buffer = new ArrayList<>();
  private final List<DeltaWrittenFile> written = new ArrayList<>();

  DeltaSinkWriter(
      DeltaTable table, DeltaTableSchema schema, RowFields<T> fields, int maxRowsPerFile) {
    this(table, schema, fields, maxRowsPerFile, false);
  }

  DeltaSinkWriter(
      DeltaTable table,
      DeltaTableSchema schema,
      RowFields<T> fields,
      int maxRowsPerFile,
      boolean mergeSchema) {
    this.fields = fields;
    this.writer = new DeltaTableWriter(table, schema, mergeSchema);
    this.maxRowsPerFile = maxRowsPerFile;
  }

  @Override
  public void write(T element, Context context) throws IOException {
    buffer.add(fields.toRow(element));
    if (buffer.size() >= maxRowsPerFile) {
      writeBuffer();
    }
  }

  @Override
  public void flush(boolean endOfInput) throws IOException {
    writeBuffer();
  }

  private void writeBuffer() throws IOException {
    if (!buffer.isEmpty()) {
      written.addAll(writer.write(buffer));
      buffer.clear();
    }
  }

  @Override
  public Collection<DeltaWrittenFile> prepareCommit() {
    List<DeltaWrittenFile> out = new ArrayList<>(written);
    written.clear();
    return out;
  }

  @Override
  public void close() {
    buffer.clear();
  }
}
