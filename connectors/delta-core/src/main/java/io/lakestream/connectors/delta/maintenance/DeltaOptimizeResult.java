package io.lakestream.connectors.delta.maintenance;

import io.lakestream.api.annotation.PublicEvolving;

/**
 * What one OPTIMIZE run did.
 *
 * @param status whether it committed, found nothing to compact, or lost to another commit
 * @param version the version it committed, or -1
 * @param readVersion the version it read
 * @param filesRemoved small files replaced
 * @param filesAdded files written in their place
 * @param bytesRemoved sizes of the files replaced
 * @param bytesAdded sizes of the files written
 * @param partitions partitions compacted
 */
@PublicEvolving
public record DeltaOptimizeResult(
    Status status,
    long version,
    long readVersion,
    int filesRemoved,
    int filesAdded,
    long bytesRemoved,
    long bytesAdded,
    int partitions) {

  /** The outcome of a run. */
  public enum Status {
    /** The compaction is a new version of the table. */
    COMMITTED,
    /** No partition had enough small files to compact. */
    NOTHING_TO_COMPACT,
    /**
     * Another writer's commit removed an input file (or changed the table's metadata) first: that
     * commit stands, this run wrote files no version references (VACUUM removes them), and a later
     * run compacts what is then small.
     */
    LOST_TO_CONCURRENT_COMMIT
  }

  static DeltaOptimizeResult nothing(long readVersion) {
    return new DeltaOptimizeResult(Status.NOTHING_TO_COMPACT, -1, readVersion, 0, 0, 0, 0, 0);
  }
}
