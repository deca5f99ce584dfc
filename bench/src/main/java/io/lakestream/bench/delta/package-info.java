/**
 * {@code delta-sink} ({@link io.lakestream.bench.delta.DeltaSinkBench}): rows per second of the
 * Delta sink in a Flink job against plain Parquet writer loops on the same data ({@link
 * io.lakestream.bench.delta.NarrowRows}), the local physical limit.
 */
package io.lakestream.bench.delta;
