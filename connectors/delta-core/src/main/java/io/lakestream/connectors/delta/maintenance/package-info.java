/**
 * Table maintenance, as Delta users run it: {@link
 * io.lakestream.connectors.delta.maintenance.DeltaOptimize} (bin-packing small files, {@code
 * dataChange=false}, also as the sink's auto-compaction), {@link
 * io.lakestream.connectors.delta.maintenance.DeltaVacuum} (removing files no version within the
 * retention needs). Their commits are written put-if-absent like MERGE's, record Spark's operation
 * names, parameters and metrics, and never win over another writer's commit: a maintenance commit
 * whose input files another commit removed loses and can run again later. Free of Flink.
 */
package io.lakestream.connectors.delta.maintenance;
