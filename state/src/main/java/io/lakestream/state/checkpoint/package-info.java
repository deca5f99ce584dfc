/**
 * The checkpoint location, the directory that is the query: {@link
 * io.lakestream.state.checkpoint.CheckpointLocation} (its layout: metadata, lease, Flink snapshots,
 * per-epoch records), the lease that keeps two runs off one location ({@link
 * io.lakestream.state.checkpoint.QueryLease}, refused with {@link
 * io.lakestream.state.checkpoint.QueryAlreadyRunningException}) and the per-epoch offsets, commits
 * and progress ({@link io.lakestream.state.checkpoint.EpochLog}), which are for people and progress
 * only, except that a rewind replays from them. A location that cannot be used as asked fails with
 * a {@link io.lakestream.state.checkpoint.CheckpointLocationException} whose {@code
 * CHECKPOINT_LOCATION_*} class says why.
 */
package io.lakestream.state.checkpoint;
