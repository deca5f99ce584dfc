package io.lakestream.state;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.ErrorClass;

/**
 * The error classes of the state module: the checkpoint location, its lease, restarts and replays,
 * and the state settings. The exceptions of {@code io.lakestream.state.checkpoint} and {@code
 * io.lakestream.state.query} carry one.
 */
@PublicEvolving
public enum StateErrorClass implements ErrorClass {
  /** Another run holds the checkpoint location's lease; stop it first. */
  QUERY_ALREADY_RUNNING,
  /** The query changed in a way its checkpoint location cannot follow; undo it or start anew. */
  INCOMPATIBLE_RESTART,
  /**
   * An older snapshot cannot be restored exactly once: what replaying later epochs needs is gone.
   */
  REPLAY_NOT_POSSIBLE,
  /** The checkpoint location's files are unreadable, missing or not written by lakestream. */
  CHECKPOINT_LOCATION_CORRUPT,
  /** The checkpoint location is, or is inside, a table or directory the query reads or writes. */
  CHECKPOINT_LOCATION_OVERLAPS_DATA,
  /** The checkpoint location is not an absolute URI. */
  CHECKPOINT_LOCATION_INVALID_PATH,
  /** The snapshot to restore is not a completed savepoint or checkpoint. */
  CHECKPOINT_LOCATION_SNAPSHOT_NOT_FOUND,
  /** A snapshot was to be restored into a checkpoint location that belongs to no query yet. */
  CHECKPOINT_LOCATION_NO_QUERY,
  /** Epochs were committed but no snapshot is left: running would silently start from scratch. */
  CHECKPOINT_LOCATION_SNAPSHOTS_MISSING,
  /**
   * The checkpoint location is on a file system where its lease cannot be created only if absent
   * (an object store without a conditional write lakestream can use).
   */
  CHECKPOINT_LOCATION_LEASE_UNSUPPORTED,
  /** The checkpoint location could not be read or written (the cause says why). */
  CHECKPOINT_LOCATION_UNAVAILABLE,
  /** A state setting (backend, max parallelism, checkpoint directory) cannot be used. */
  INVALID_STATE_SETTING,
  /** An output mode other than append, update or complete. */
  INVALID_OUTPUT_MODE
}
