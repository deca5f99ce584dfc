/**
 * The Lakebase sink as a Flink Sink V2 ({@link
 * io.lakestream.connectors.lakebase.sink.LakebaseSink}, built by {@link
 * io.lakestream.connectors.lakebase.LakebaseSinkBuilder}): each subtask writes batches of upserts
 * through one connection, and everything before a completed checkpoint is committed in PostgreSQL.
 * Delivery is at-least-once; with an upsert key the replayed rows overwrite themselves, so the
 * table's final state is exactly-once, while plain inserts (no key) may be repeated after a
 * failure. The writers are in {@link io.lakestream.connectors.lakebase.sink.writer}.
 */
package io.lakestream.connectors.lakebase.sink;
