/**
 * The benchmarks behind {@code bin/bench <id>} ({@link io.lakestream.bench.BenchMain}): each {@link
 * io.lakestream.bench.Bench} runs lakestream and a peer on the same workload and returns both
 * {@link io.lakestream.bench.Measurement}s (rows, time, CPU and peak memory from {@link
 * io.lakestream.bench.ResourcePeaks}) as a {@link io.lakestream.bench.BenchResult}; a bench throws
 * when a side did not produce what it claims. Options are strict ({@link
 * io.lakestream.bench.BenchOptions}); benches are listed in {@link
 * io.lakestream.bench.BenchRegistry}. Exit codes: 0 success, 1 the bench failed, 2 bad usage.
 */
package io.lakestream.bench;
