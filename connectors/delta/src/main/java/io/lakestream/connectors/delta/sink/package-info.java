/**
 * The Delta sinks, on the epoch-commit sink framework. {@link
 * io.lakestream.connectors.delta.sink.DeltaSinkBuilder}: exactly once, ONE Delta version per epoch
 * carrying {@code txn(appId, epoch)}, so a replayed epoch is skipped; output mode append adds the
 * epoch's files, complete replaces the table's contents, update is refused. {@link
 * io.lakestream.connectors.delta.sink.ForeachBatchSinkBuilder}: foreachBatch, staging each epoch's
 * rows and calling an {@code EpochFunction} with all of them once the checkpoint completed. Options
 * are Spark's ({@link io.lakestream.connectors.delta.sink.DeltaSinkOptions}); unknown keys and bad
 * values fail at {@code build()} naming the option.
 */
package io.lakestream.connectors.delta.sink;
