/**
 * {@code dedup-state} ({@link io.lakestream.bench.dedup.DedupStateBench}): whether {@code
 * dropDuplicatesWithinWatermark} keeps its state bounded, measured on jobs over a deterministic
 * event stream ({@link io.lakestream.bench.dedup.DedupWorkload}) whose results are checked against
 * a {@link io.lakestream.bench.dedup.ReferenceModel}; state metrics are sampled live ({@link
 * io.lakestream.bench.dedup.CapturingReporter}, {@link io.lakestream.bench.dedup.StateSample}).
 */
package io.lakestream.bench.dedup;
