package io.lakestream.connectors.jdbc;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.connectors.schema.Column;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.connectors.schema.RowSchema;
import io.lakestream.connectors.schema.flink.FlinkTypes;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.types.Row;

/**
 * What the JDBC source emits, as Flink {@link Row}s typed by {@link #typeInfo(RowSchema)} (Flink's
 * own row serializer, never Kryo): a row of a partition, or the end of a partition after its last
 * row. Fields: {@code partition} (int), {@code partitions} (int), {@code partition_rows} (long: the
 * partition's row count on its end, null on a row), then the read's columns with the Java values of
 * {@link ColumnType}. Read one with {@link #of(Row)}.
 *
 * <p>A partition's rows all come before its end, from one reader, in one attempt: after a restore
 * the partition is emitted again from its first row.
 */
@PublicEvolving
public final class JdbcRecord {
  private static final int COLUMNS = 3;

  private final Row row;

  private JdbcRecord(Row row) {
    this.row = row;
  }

  /** A view of {@code row}, emitted by the JDBC source. */
  public static JdbcRecord of(Row row) {
    return new JdbcRecord(row);
  }

  /** The Flink type of the source's rows for a read of {@code schema}. */
  public static TypeInformation<Row> typeInfo(RowSchema schema) {
    List<String> names = new ArrayList<>(List.of("partition", "partitions", "partition_rows"));
    List<TypeInformation<?>> types = new ArrayList<>(List.of(Types.INT, Types.INT, Types.LONG));
    for (Column column : schema.columns()) {
      names.add(column.name());
      types.add(FlinkTypes.of(column.type()));
    }
    return Types.ROW_NAMED(names.toArray(new String[0]), types.toArray(new TypeInformation<?>[0]));
  }

  /** A row of {@code partition} (of {@code partitions}). */
  public static Row row(int partition, int partitions, Object[] values) {
    Row row = new Row(COLUMNS + values.length);
    row.setField(0, partition);
    row.setField(1, partitions);
    for (int i = 0; i < values.length; i++) {
      row.setField(COLUMNS + i, values[i]);
    }
    return row;
  }

  /** The end of {@code partition}, after its {@code rows} rows, for a read of {@code columns}. */
  public static Row partitionEnd(int partition, int partitions, long rows, int columns) {
    Row row = new Row(COLUMNS + columns);
    row.setField(0, partition);
    row.setField(1, partitions);
    row.setField(2, rows);
    return row;
  }

  /** The partition index, {@code 0..partitions-1}. */
  public int partition() {
    return (Integer) row.getField(0);
  }

  /** How many partitions the read has. */
  public int partitions() {
    return (Integer) row.getField(1);
  }

  /** Whether this is the end of the partition rather than a row. */
  public boolean isPartitionEnd() {
    return row.getField(2) != null;
  }

  /** The row's values in column order (a copy); empty values for a partition end. */
  public Object[] values() {
    Object[] values = new Object[row.getArity() - COLUMNS];
    for (int i = 0; i < values.length; i++) {
      values[i] = row.getField(COLUMNS + i);
    }
    return values;
  }

  /** For a partition end, how many rows the partition had; -1 for a row. */
  public long rows() {
    Object rows = row.getField(2);
    return rows == null ? -1 : (Long) rows;
  }

  @Override
  public String toString() {
    return isPartitionEnd()
        ? "JdbcRecord[end of partition "
            + partition()
            + "/"
            + partitions()
            + ", "
            + rows()
            + " rows]"
        : "JdbcRecord[partition " + partition() + "/" + partitions() + ", " + row + "]";
  }
}
