/**
 * The Lakebase sink's writers: {@link
 * io.lakestream.connectors.lakebase.sink.writer.LakebaseSinkWriter} buffers a subtask's rows and
 * flushes them in the task thread (by size, age and at every checkpoint, so a slow database
 * backpressures the source); {@link
 * io.lakestream.connectors.lakebase.sink.writer.PostgresBatchWriter} commits each batch (upserts,
 * and deletes by key from a changelog) in one transaction, retries transient errors on a new
 * connection and otherwise fails with a {@code LakebaseWriteException} naming the first failing
 * row's key; {@link io.lakestream.connectors.lakebase.sink.writer.SharedConnections} lets tasks
 * share a connection ({@code tasksPerConnection}). Internal to the sink.
 */
package io.lakestream.connectors.lakebase.sink.writer;
