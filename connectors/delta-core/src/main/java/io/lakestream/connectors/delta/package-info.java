/**
 * The Delta table layer, on Delta Kernel and free of Flink: a table at a path ({@link
 * io.lakestream.connectors.delta.DeltaTable}, declared by a {@link
 * io.lakestream.connectors.delta.DeltaTableSchema}), Parquet files written uncommitted ({@link
 * io.lakestream.connectors.delta.DeltaTableWriter}) and committed as ONE version per epoch, once
 * per {@code txn(appId, epoch)} ({@link io.lakestream.connectors.delta.DeltaAppendCommit}), reads
 * ({@link io.lakestream.connectors.delta.DeltaTableReader}) and what streaming sources admit
 * ({@link io.lakestream.connectors.delta.DeltaTableChanges}). Failures are unchecked {@link
 * io.lakestream.connectors.delta.DeltaTableException}s with a {@link
 * io.lakestream.connectors.delta.DeltaErrorClass}; subclasses name the cases callers catch.
 */
package io.lakestream.connectors.delta;
