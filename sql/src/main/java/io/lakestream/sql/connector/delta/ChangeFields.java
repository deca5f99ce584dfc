package io.lakestream.sql.connector.delta;

import io.lakestream.connectors.schema.RowFields;
import io.lakestream.sql.types.RowDataFields;
import java.util.Arrays;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;

/**
 * A changelog row as a staged change ({@link DeltaUpsertFunction}): the row's columns, whether it
 * deletes its key, and its number in this writer. Each writer has its own copy, so the numbers grow
 * in the order the writer sees the rows; a key's changes all reach one writer ({@link
 * RowDataFields#byKey}).
 */
final class ChangeFields implements RowFields<RowData> {
  private static final long serialVersionUID = 1L;

  private final RowDataFields fields;
  private long sequence;

  ChangeFields(RowType rowType) {
    this.fields = RowDataFields.of(rowType);
  }

  @Override
  public Object[] toRow(RowData row) {
    Object[] columns = fields.toRow(row);
    Object[] staged = Arrays.copyOf(columns, columns.length + 2);
    RowKind kind = row.getRowKind();
    staged[columns.length] = kind == RowKind.DELETE || kind == RowKind.UPDATE_BEFORE;
    staged[columns.length + 1] = sequence++;
    return staged;
  }
}
