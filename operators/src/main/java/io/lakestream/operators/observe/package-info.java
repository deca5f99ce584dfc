/**
 * Structured Streaming's {@code observe(name, aggregates...)} on Flink streams: {@link
 * io.lakestream.operators.observe.Observe#observe} passes a stream through unchanged and computes
 * the {@link io.lakestream.operators.observe.ObservedAggregate}s (count, count of matching rows,
 * sum, min, max, avg) of each epoch's rows, which the query's progress shows under {@code
 * observedMetrics} once the epoch has committed. Each subtask records its share per checkpoint in
 * the checkpoint location ({@link io.lakestream.operators.observe.ObserveOperator}); the query's
 * runner merges the shares of the attempt that completed the epoch, so an epoch replayed after a
 * failure reports the values of its rows once.
 */
package io.lakestream.operators.observe;
