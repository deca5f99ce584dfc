package io.lakestream.bench.e2;

import io.lakestream.bench.Measurement;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The one line a bench child JVM prints on stdout when its side checked out: {@code BENCH-RESULT
 * rows=N nanos=N cpuNanos=N peakRss=N peakHeap=N detail=text}. Peaks are the child JVM's own (Linux
 * {@code VmHWM} since the JVM started, heap pools' peaks), read right after the measured section
 * and before any verification, so they belong to that side alone.
 */
public final class ChildReport {
  static final String PREFIX = "BENCH-RESULT ";

  private ChildReport() {}

  /** Prints the line for a measured section of this JVM. */
  public static void print(
      long rows, long nanos, long cpuNanos, long peakRss, long peakHeap, String d) {
    System.out.printf(
        Locale.ROOT,
        "%srows=%d nanos=%d cpuNanos=%d peakRss=%d peakHeap=%d detail=%s%n",
        PREFIX,
        rows,
        nanos,
        cpuNanos,
        peakRss,
        peakHeap,
        d.replace('\n', ' '));
    System.out.flush();
  }

  /**
   * Parses a result line into a measurement of {@code side}.
   *
   * @throws IllegalArgumentException if the line is not a result line
   */
  static Measurement parse(String side, String line) {
    if (!line.startsWith(PREFIX)) {
      throw new IllegalArgumentException("not a " + PREFIX.trim() + " line: " + line);
    }
    String body = line.substring(PREFIX.length());
    int d = body.indexOf(" detail=");
    String detail = d < 0 ? "" : body.substring(d + " detail=".length());
    long rows = -1;
    long nanos = -1;
    long cpu = -1;
    long rss = -1;
    long heap = -1;
    for (String kv : (d < 0 ? body : body.substring(0, d)).split(" ")) {
      String[] p = kv.split("=", 2);
      long v = Long.parseLong(p[1]);
      switch (p[0]) {
        case "rows" -> rows = v;
        case "nanos" -> nanos = v;
        case "cpuNanos" -> cpu = v;
        case "peakRss" -> rss = v;
        case "peakHeap" -> heap = v;
        default -> throw new IllegalArgumentException("unknown field " + p[0] + " in " + line);
      }
    }
    return new Measurement(side, rows, nanos, cpu, rss, heap, detail);
  }

  public static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  /** Linux's VmHWM: this JVM's peak resident set size since it started, -1 if unknown. */
  public static long peakRssBytes() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("VmHWM:")) {
          return Long.parseLong(line.substring(6).replace("kB", "").trim()) * 1024;
        }
      }
    } catch (Exception e) {
      return -1;
    }
    return -1;
  }

  /** Sum of the heap pools' peaks since the JVM started (an upper bound of the heap peak). */
  public static long peakHeapBytes() {
    long sum = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        sum += pool.getPeakUsage().getUsed();
      }
    }
    return sum;
  }
}
