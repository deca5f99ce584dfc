package io.lakestream.connectors.jdbc.source.split;

import io.lakestream.api.annotation.Internal;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.connector.source.SourceSplit;

/**
 * One partition of a JDBC read: a range of the partition column, cut as Spark's {@code
 * JDBCRelation.columnPartition} cuts it. Partition 0 holds {@code column < upper OR column IS
 * NULL}, the last one {@code column >= lower}, the others {@code column >= lower AND column <
 * upper}; a read of one partition has no condition. So every row is in exactly one partition,
 * whatever the bounds.
 *
 * @param partition the partition index, {@code 0..partitions-1}
 * @param partitions how many partitions the read has
 * @param lower the inclusive lower bound (unused for partition 0)
 * @param upper the exclusive upper bound (unused for the last partition)
 */
@Internal
public record JdbcPartitionSplit(int partition, int partitions, long lower, long upper)
    implements SourceSplit, Serializable {

  @Override
  public String splitId() {
    return "partition-" + partition;
  }

  /** The SQL condition selecting this partition's rows of {@code column}, or null for all rows. */
  public String condition(String column) {
    if (partitions == 1) {
      return null;
    }
    if (partition == 0) {
      return column + " < " + upper + " OR " + column + " IS NULL";
    }
    if (partition == partitions - 1) {
      return column + " >= " + lower;
    }
    return column + " >= " + lower + " AND " + column + " < " + upper;
  }

  /** The one split of an unpartitioned read. */
  public static List<JdbcPartitionSplit> whole() {
    return List.of(new JdbcPartitionSplit(0, 1, 0, 0));
  }

  /**
   * The partitions of the range {@code [lowerBound, upperBound]} in {@code numPartitions} strides,
   * as Spark cuts them: fewer partitions when the range has fewer values than {@code
   * numPartitions}; one partition when {@code numPartitions <= 1} or the bounds are equal.
   *
   * @throws IllegalArgumentException if {@code lowerBound > upperBound}
   */
  public static List<JdbcPartitionSplit> of(long lowerBound, long upperBound, int numPartitions) {
    if (lowerBound > upperBound) {
      throw new IllegalArgumentException(
          "lowerBound " + lowerBound + " is greater than upperBound " + upperBound);
    }
    if (numPartitions <= 1 || lowerBound == upperBound) {
      return whole();
    }
    long span = upperBound - lowerBound; // negative when it overflows, as in Spark
    long n = span >= numPartitions || span < 0 ? numPartitions : span;
    long stride = upperBound / n - lowerBound / n;
    List<JdbcPartitionSplit> splits = new ArrayList<>();
    long current = lowerBound;
    for (int i = 0; i < n; i++) {
      long lower = current;
      current += stride;
      splits.add(new JdbcPartitionSplit(i, (int) n, lower, current));
    }
    return splits;
  }
}
