package io.lakestream.connectors.rate.source.split;

import io.lakestream.api.annotation.Internal;
import org.apache.flink.api.connector.source.SourceSplit;

/**
 * One partition of a sequence source and the next offset to read in it, like a Kafka partition.
 * Partition {@code p} of {@code P} holds the rows {@code p, p+P, p+2P, ...}; offset {@code k} is
 * row {@code k*P + p}.
 *
 * @param partition the partition number
 * @param nextOffset the next offset to read
 * @param epoch the checkpoint id this split was snapshotted in, or -1 (never snapshotted)
 */
@Internal
public record SequenceSplit(int partition, long nextOffset, long epoch) implements SourceSplit {

  /** A split that was never snapshotted. */
  public SequenceSplit(int partition, long nextOffset) {
    this(partition, nextOffset, -1);
  }

  @Override
  public String splitId() {
    return "partition-" + partition;
  }

  /** The row index of {@code offset} in a source of {@code partitions} partitions. */
  public static long rowIndex(long offset, int partition, int partitions) {
    return offset * partitions + partition;
  }

  /** How many rows of the first {@code rows} rows fall into {@code partition}. */
  public static long endOffset(long rows, int partition, int partitions) {
    if (rows == Long.MAX_VALUE) {
      return Long.MAX_VALUE;
    }
    // ceil((rows - partition) / partitions) without overflowing for rows near Long.MAX_VALUE
    return rows <= partition ? 0 : (rows - partition - 1) / partitions + 1;
  }
}
