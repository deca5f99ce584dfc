/**
 * Stream-stream joins with Structured Streaming's semantics: build with {@link
 * io.lakestream.operators.join.StreamJoinBuilder} (inner, left/right/full outer, append output), on
 * equal key columns plus an {@link io.lakestream.operators.join.EventTimeRange}; output rows are
 * {@link io.lakestream.operators.join.JoinedRow}s. See {@link
 * io.lakestream.operators.join.StreamJoinOperator} for which rows are late, when rows leave state
 * and when unmatched outer rows are emitted, and {@link io.lakestream.operators.state.StateMetrics}
 * for the metrics.
 */
package io.lakestream.operators.join;
