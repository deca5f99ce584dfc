package io.lakestream.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * CPU time and peak memory of this process over a measured section: the resident set size from
 * Linux's {@code VmHWM} (reset through {@code /proc/self/clear_refs}) and the heap pools' peak use.
 * Where Linux's files are missing the RSS peak reads -1; the peak is then unknown, never guessed.
 */
public final class ResourcePeaks {
  private final boolean rssResettable;
  private final long cpuStart;

  private ResourcePeaks(boolean rssResettable) {
    this.rssResettable = rssResettable;
    this.cpuStart = processCpuNanos();
  }

  /** CPU time of this process (all threads) since {@link #start()}, -1 if unknown. */
  public long cpuNanos() {
    long now = processCpuNanos();
    return now < 0 || cpuStart < 0 ? -1 : now - cpuStart;
  }

  private static long processCpuNanos() {
    if (ManagementFactory.getOperatingSystemMXBean()
        instanceof com.sun.management.OperatingSystemMXBean os) {
      return os.getProcessCpuTime();
    }
    return -1;
  }

  /** Collects garbage and resets both peaks: call right before the measured section. */
  public static ResourcePeaks start() {
    System.gc();
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      pool.resetPeakUsage();
    }
    boolean reset;
    try {
      Files.writeString(Path.of("/proc/self/clear_refs"), "5");
      reset = true;
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      reset = false;
    }
    return new ResourcePeaks(reset);
  }

  /** Peak RSS in bytes since {@link #start()}, or -1 if it cannot be read or was not reset. */
  public long peakRssBytes() {
    if (!rssResettable) {
      return -1;
    }
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("VmHWM:")) {
          String kb = line.substring("VmHWM:".length()).replace("kB", "").trim();
          return Long.parseLong(kb) * 1024;
        }
      }
    } catch (IOException | NumberFormatException e) {
      return -1;
    }
    return -1;
  }

  /** Sum of the heap pools' peak use since {@link #start()} (an upper bound of the heap peak). */
  public long peakHeapBytes() {
    long sum = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        sum += pool.getPeakUsage().getUsed();
      }
    }
    return sum;
  }

  /** The system load average over the last minute, -1 if unavailable. */
  public static double loadAverage() {
    return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
  }
}
