package io.lakestream.sql.connector.delta;

import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.connector.RuntimeConverter;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.data.RowData;
import org.apache.flink.types.Row;
import org.apache.flink.types.RowKind;

/**
 * Turns the rows a Delta source emits (the table's columns in table order, for the change data feed
 * followed by its metadata columns) into Flink's internal rows of the declared columns: picks them
 * by position, and for a change feed gives each row the kind its {@code _change_type} names ({@code
 * insert} {@code +I}, {@code update_preimage} {@code -U}, {@code update_postimage} {@code +U},
 * {@code delete} {@code -D}).
 */
final class RowConversion extends RichMapFunction<Row, RowData> {
  private static final long serialVersionUID = 1L;
  private static final int NO_CHANGE_TYPE = -1;

  private final int[] positions;
  private final int changeType;
  private final DynamicTableSource.DataStructureConverter converter;

  private RowConversion(
      int[] positions, int changeType, DynamicTableSource.DataStructureConverter converter) {
    this.positions = positions;
    this.changeType = changeType;
    this.converter = converter;
  }

  /** Inserts of the columns at {@code positions}. */
  static RowConversion inserts(int[] positions, DynamicTableSource.DataStructureConverter to) {
    return new RowConversion(positions, NO_CHANGE_TYPE, to);
  }

  /** Changes of the columns at {@code positions}, their kind at {@code changeType}. */
  static RowConversion changes(
      int[] positions, int changeType, DynamicTableSource.DataStructureConverter to) {
    return new RowConversion(positions, changeType, to);
  }

  @Override
  public void open(Configuration parameters) {
    converter.open(RuntimeConverter.Context.create(getRuntimeContext().getUserCodeClassLoader()));
  }

  @Override
  public RowData map(Row in) {
    RowKind kind =
        changeType == NO_CHANGE_TYPE ? RowKind.INSERT : kindOf((String) in.getField(changeType));
    Row row = new Row(kind, positions.length);
    for (int i = 0; i < positions.length; i++) {
      row.setField(i, in.getField(positions[i]));
    }
    return (RowData) converter.toInternal(row);
  }

  private static RowKind kindOf(String changeType) {
    return switch (changeType) {
      case "insert" -> RowKind.INSERT;
      case "update_preimage" -> RowKind.UPDATE_BEFORE;
      case "update_postimage" -> RowKind.UPDATE_AFTER;
      case "delete" -> RowKind.DELETE;
      default -> throw new IllegalStateException("Unknown _change_type '" + changeType + "'");
    };
  }
}
