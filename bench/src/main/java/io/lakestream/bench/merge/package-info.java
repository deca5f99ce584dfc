/**
 * {@code merge} ({@link io.lakestream.bench.merge.MergeBench}): a streaming foreachBatch MERGE into
 * a silver table with change data feed, {@code DeltaMergeCommit} ({@link
 * io.lakestream.bench.merge.LakestreamMergeMain}) against Spark with delta-spark's {@code
 * DeltaTable.merge}, on the same tables ({@link io.lakestream.bench.merge.MergeTables}, data of a
 * {@link io.lakestream.bench.merge.MergeWorkload}); the merged table is checked row by row against
 * the workload's model ({@link io.lakestream.bench.merge.MergeTableCheck}). {@code merge-dv} is the
 * same bench on tables with deletion vectors, both sides merging on read ({@link
 * io.lakestream.bench.merge.MergeMode}).
 */
package io.lakestream.bench.merge;
