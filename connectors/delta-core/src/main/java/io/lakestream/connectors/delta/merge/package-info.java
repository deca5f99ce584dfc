/**
 * MERGE into a Delta table, with Delta Lake's semantics: declare it as a {@link
 * io.lakestream.connectors.delta.merge.DeltaMerge} (key columns, {@link
 * io.lakestream.connectors.delta.merge.MergeCondition}s and {@link
 * io.lakestream.connectors.delta.merge.MergeAssignment}s per clause) and run a batch per epoch with
 * {@link io.lakestream.connectors.delta.merge.DeltaMergeCommit}, typically from a foreachBatch
 * function: ONE copy-on-write version per epoch, exactly once per {@code txn(appId, epoch)}, with
 * change data files on tables whose change data feed is on. Several source rows with one key fail
 * with {@link io.lakestream.connectors.delta.merge.DuplicateMergeKeyException} unless an ordering
 * column is named; a conflicting concurrent commit with a {@code DeltaCommitConflictException}.
 */
package io.lakestream.connectors.delta.merge;
