/**
 * {@code dropDuplicatesWithinWatermark} and {@code dropDuplicates}: build with {@link
 * io.lakestream.operators.dedup.DeduplicationBuilder}. See {@link
 * io.lakestream.operators.dedup.WatermarkDeduplicator} for the rule and {@link
 * io.lakestream.operators.state.StateMetrics} for the metrics.
 */
package io.lakestream.operators.dedup;
