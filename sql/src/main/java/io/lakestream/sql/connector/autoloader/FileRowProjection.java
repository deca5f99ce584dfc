package io.lakestream.sql.connector.autoloader;

import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.table.connector.RuntimeConverter;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.data.RowData;
import org.apache.flink.types.Row;

/** Picks a table's columns out of the Auto Loader's rows, by position, into the planner's rows. */
final class FileRowProjection extends RichMapFunction<Row, RowData> {
  private static final long serialVersionUID = 1L;

  private final int[] positions;
  private final DynamicTableSource.DataStructureConverter converter;

  FileRowProjection(int[] positions, DynamicTableSource.DataStructureConverter converter) {
    this.positions = positions.clone();
    this.converter = converter;
  }

  @Override
  public void open(OpenContext openContext) {
    converter.open(RuntimeConverter.Context.create(getRuntimeContext().getUserCodeClassLoader()));
  }

  @Override
  public RowData map(Row in) {
    Row out = new Row(positions.length);
    for (int i = 0; i < positions.length; i++) {
      out.setField(i, in.getField(positions[i]));
    }
    return (RowData) converter.toInternal(out);
  }
}
