package io.lakestream.bench;

import java.util.Objects;

/**
 * What one side of a bench did: how many rows in how long, and the resources it peaked at.
 *
 * @param side who ran, e.g. {@code lakestream} or the peer's name
 * @param rows rows processed (checked against the output by the bench)
 * @param nanos elapsed time the rate is computed from
 * @param cpuNanos CPU time of the whole process (all threads) over the same section, -1 if unknown
 * @param peakRssBytes the process's peak resident set size during the run, -1 if unknown
 * @param peakHeapBytes the JVM heap's peak use during the run (sum of pool peaks), -1 if unknown
 * @param detail how the time was taken and what was written, for the report
 */
public record Measurement(
    String side,
    long rows,
    long nanos,
    long cpuNanos,
    long peakRssBytes,
    long peakHeapBytes,
    String detail) {

  public Measurement {
    Objects.requireNonNull(side, "side");
    Objects.requireNonNull(detail, "detail");
    if (rows <= 0 || nanos <= 0) {
      throw new IllegalArgumentException(
          side + ": a measurement needs rows > 0 and time > 0, got " + rows + " rows in " + nanos);
    }
  }

  public double rowsPerSecond() {
    return rows / (nanos / 1e9);
  }

  /** Rows per CPU-second of the whole process: less sensitive to other load than the rate. */
  public double rowsPerCpuSecond() {
    return cpuNanos <= 0 ? Double.NaN : rows / (cpuNanos / 1e9);
  }

  public double seconds() {
    return nanos / 1e9;
  }
}
