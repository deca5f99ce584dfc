package io.lakestream.connectors.jdbc;

import io.lakestream.api.annotation.PublicEvolving;
import java.io.Serializable;

/**
 * What the JDBC source emits: a row of a partition, or the end of a partition after its last row.
 * Rows are {@code Object[]} in the column order of {@link
 * io.lakestream.connectors.jdbc.source.JdbcSource#schema()}, holding the Java values of {@link
 * io.lakestream.connectors.schema.ColumnType} (so a Delta writer takes them as they are). A
 * partition's rows all come before its end, from one reader, in one attempt: after a restore the
 * partition is emitted again from its first row.
 */
@PublicEvolving
public final class JdbcRecord implements Serializable {
  private static final long serialVersionUID = 1L;

  private final int partition;
  private final int partitions;
  private final Object[] values;
  private final long rows;

  private JdbcRecord(int partition, int partitions, Object[] values, long rows) {
    this.partition = partition;
    this.partitions = partitions;
    this.values = values;
    this.rows = rows;
  }

  /** A row of {@code partition} (of {@code partitions}). */
  public static JdbcRecord row(int partition, int partitions, Object[] values) {
    return new JdbcRecord(partition, partitions, values, -1);
  }

  /** The end of {@code partition}, after its {@code rows} rows. */
  public static JdbcRecord partitionEnd(int partition, int partitions, long rows) {
    return new JdbcRecord(partition, partitions, null, rows);
  }

  /** The partition index, {@code 0..partitions-1}. */
  public int partition() {
    return partition;
  }

  /** How many partitions the read has. */
  public int partitions() {
    return partitions;
  }

  /** Whether this is the end of the partition rather than a row. */
  public boolean isPartitionEnd() {
    return values == null;
  }

  /** The row's values; throws for a partition end. */
  public Object[] values() {
    if (values == null) {
      throw new IllegalStateException("partition " + partition + " ended: no values");
    }
    return values;
  }

  /** For a partition end, how many rows the partition had; -1 for a row. */
  public long rows() {
    return rows;
  }

  @Override
  public String toString() {
    return isPartitionEnd()
        ? "JdbcRecord[end of partition " + partition + "/" + partitions + ", " + rows + " rows]"
        : "JdbcRecord[partition "
            + partition
            + "/"
            + partitions
            + ", "
            + values.length
            + " values]";
  }
}
