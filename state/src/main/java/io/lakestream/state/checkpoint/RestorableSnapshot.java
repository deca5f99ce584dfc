package io.lakestream.state.checkpoint;

import io.lakestream.api.annotation.Internal;

/**
 * A completed Flink checkpoint or savepoint in a checkpoint location that a run can restore from.
 *
 * @param path the snapshot directory (holding {@code _metadata})
 * @param checkpointId its checkpoint id, which is also the id of the last epoch it contains
 * @param kind checkpoint or savepoint
 */
@Internal
public record RestorableSnapshot(String path, long checkpointId, Kind kind) {

  /** Where a snapshot came from. */
  public enum Kind {
    CHECKPOINT,
    SAVEPOINT
  }
}
