/**
 * Metrics of stateful operators ({@link io.lakestream.operators.state.StateMetrics}), read by the
 * progress reporter as Structured Streaming's {@code stateOperators}.
 */
package io.lakestream.operators.state;
