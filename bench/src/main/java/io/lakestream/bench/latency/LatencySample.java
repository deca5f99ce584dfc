package io.lakestream.bench.latency;

import java.util.Arrays;
import java.util.Locale;

/**
 * The latencies of one run, in microseconds, sorted; percentiles by the nearest-rank method.
 * Immutable; a sample without values cannot be built.
 */
final class LatencySample {
  private final long[] sortedMicros;

  /** Sorts a copy of {@code micros}; fails if it is empty. */
  LatencySample(long[] micros) {
    if (micros.length == 0) {
      throw new IllegalArgumentException("a latency sample needs at least one value");
    }
    this.sortedMicros = micros.clone();
    Arrays.sort(sortedMicros);
  }

  int count() {
    return sortedMicros.length;
  }

  /** The {@code p} quantile (0 < p <= 1) in milliseconds. */
  double millis(double p) {
    int i = (int) Math.min(sortedMicros.length - 1, Math.ceil(p * sortedMicros.length) - 1);
    return sortedMicros[Math.max(0, i)] / 1000.0;
  }

  double maxMillis() {
    return sortedMicros[sortedMicros.length - 1] / 1000.0;
  }

  /** {@code p50 x ms, p99 x ms}. */
  String percentiles() {
    return String.format(Locale.ROOT, "p50 %.1f ms, p99 %.1f ms", millis(0.50), millis(0.99));
  }

  /** {@code p50 x ms, p90 x ms, p99 x ms, max x ms}. */
  String summary() {
    return String.format(
        Locale.ROOT,
        "p50 %.1f ms, p90 %.1f ms, p99 %.1f ms, max %.1f ms",
        millis(0.50),
        millis(0.90),
        millis(0.99),
        maxMillis());
  }
}
