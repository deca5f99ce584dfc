package io.lakestream.bench.spark;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;

/** What the Spark child JVM reports about itself: CPU time, peak RSS and peak heap. */
final class ProcessResources {
  private ProcessResources() {}

  /** CPU time of this JVM (all threads) so far. */
  static long cpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  /** Linux's VmHWM: the peak resident set size of this JVM so far, -1 if unknown. */
  static long peakRssBytes() {
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

  /** The heap pools' peak use summed. */
  static long peakHeapBytes() {
    long sum = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        sum += pool.getPeakUsage().getUsed();
      }
    }
    return sum;
  }
}
