package io.lakestream.pipelines.autoloader;

import io.lakestream.connectors.autoloader.schema.AutoLoaderSchema;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableException;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.schema.Column;
import io.lakestream.connectors.schema.ColumnType;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.java.typeutils.RowTypeInfo;
import org.apache.flink.types.Row;

/**
 * The bronze Delta table's columns for an Auto Loader schema: the columns the table already has, in
 * the table's order, then the Auto Loader columns it lacks (a column {@code addNewColumns} added),
 * so that {@code mergeSchema} sees an additive change (new nullable columns at the end). All
 * columns are nullable: a JSON file may omit any field.
 *
 * <p>A table column the Auto Loader schema does not have is kept in the declaration; the Delta sink
 * then fails with its schema mismatch error naming it (a schema location that does not belong to
 * the table).
 */
final class BronzeTableLayout implements Serializable {
  private static final long serialVersionUID = 1L;

  private final DeltaTableSchema schema;

  /** For each Delta column, the index of its field in the Auto Loader row, or -1. */
  private final int[] rowIndex;

  private BronzeTableLayout(DeltaTableSchema schema, int[] rowIndex) {
    this.schema = schema;
    this.rowIndex = rowIndex;
  }

  /**
   * The layout of {@code table} (existing or not) for rows of {@code loaderSchema}.
   *
   * @throws DeltaTableException if the existing table's log cannot be read
   */
  static BronzeTableLayout of(
      AutoLoaderSchema loaderSchema, String table, Map<String, String> hadoopConf) {
    RowTypeInfo rowType = loaderSchema.rowType();
    Map<String, ColumnType> loaderColumns = new LinkedHashMap<>();
    for (Column c : loaderSchema.columns()) {
      loaderColumns.put(c.name(), c.type()); // one type model: Auto Loader's types are Delta's
    }
    for (String name : rowType.getFieldNames()) {
      loaderColumns.putIfAbsent(name, ColumnType.STRING); // partition, _rescued_data
    }
    DeltaTable delta = DeltaTable.forPath(table, hadoopConf);
    List<String> order = new ArrayList<>();
    if (delta.latestSnapshot().isPresent()) {
      order.addAll(new DeltaTableReader(delta).columnNames());
    }
    for (String name : loaderColumns.keySet()) {
      if (!order.contains(name)) {
        order.add(name);
      }
    }
    DeltaTableSchema.Builder builder = DeltaTableSchema.builder();
    int[] index = new int[order.size()];
    for (int i = 0; i < order.size(); i++) {
      String name = order.get(i);
      builder.column(name, loaderColumns.getOrDefault(name, ColumnType.STRING), true);
      index[i] = rowType.getFieldIndex(name);
    }
    return new BronzeTableLayout(builder.build(), index);
  }

  DeltaTableSchema schema() {
    return schema;
  }

  /** The row's values in the table's column order (null for a column the row lacks). */
  Object[] toDeltaRow(Row row) {
    Object[] values = new Object[rowIndex.length];
    for (int i = 0; i < rowIndex.length; i++) {
      values[i] = rowIndex[i] < 0 ? null : row.getField(rowIndex[i]);
    }
    return values;
  }
}
