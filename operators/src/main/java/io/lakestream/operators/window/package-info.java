/**
 * Windowed aggregation with Structured Streaming's output modes: build with {@link
 * io.lakestream.operators.window.WindowAggregationBuilder}; windows are {@link
 * io.lakestream.operators.window.WindowSpec}s, results {@link
 * io.lakestream.operators.window.WindowAggregate}s. See {@link
 * io.lakestream.operators.window.WindowAggregationOperator} for when each mode emits and which rows
 * are late, and {@link io.lakestream.operators.state.StateMetrics} for the metrics.
 */
package io.lakestream.operators.window;
