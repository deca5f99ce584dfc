package io.lakestream.pipelines.soak;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The live heap of a soak process: after {@code jcmd <pid> GC.run} (a full collection), the heap in
 * use that the JVM's GC log ({@code -Xlog:gc}) reports for it, and the rule that says whether a
 * series of such samples stayed flat.
 */
final class HeapSamples {
  /**
   * {@code ... Pause Full (Diagnostic Command) 201M->57M(256M) 80.1ms} (from {@code jcmd GC.run};
   * {@code System.gc()} where that is the cause): the MiB in use after it.
   */
  private static final Pattern FULL_GC =
      Pattern.compile(
          "Pause Full \\((?:Diagnostic Command|System\\.gc\\(\\))\\) (\\d+)M->(\\d+)M\\(");

  /** The slack of {@link #flat}: what a healthy process's live heap may wander by. */
  static final double GROWTH = 1.25;

  static final long SLACK_MIB = 24;

  private HeapSamples() {}

  /**
   * The full collections asked for (jcmd, {@code System.gc()}) in {@code gcLog}: how many, and the
   * live heap (MiB) after the last one (-1 if none).
   */
  record FullCollections(int count, long lastMib) {}

  static FullCollections fullCollections(Path gcLog) throws IOException {
    int count = 0;
    long last = -1;
    if (Files.exists(gcLog)) {
      for (String line : Files.readAllLines(gcLog)) {
        Matcher m = FULL_GC.matcher(line);
        if (m.find()) {
          count++;
          last = Long.parseLong(m.group(2));
        }
      }
    }
    return new FullCollections(count, last);
  }

  /**
   * Whether {@code mib} (samples in time order) stayed flat: the mean of the last third is at most
   * {@link #GROWTH} times the mean of the first third plus {@link #SLACK_MIB}. A leak that grows
   * the live heap by a fixed amount per epoch fails it once the run is long enough for the growth
   * to exceed the slack; fewer than three samples are flat.
   */
  static boolean flat(List<Long> mib) {
    if (mib.size() < 3) {
      return true;
    }
    return mean(lastThird(mib)) <= mean(firstThird(mib)) * GROWTH + SLACK_MIB;
  }

  static List<Long> firstThird(List<Long> samples) {
    return samples.subList(0, Math.max(1, samples.size() / 3));
  }

  static List<Long> lastThird(List<Long> samples) {
    return samples.subList(samples.size() - Math.max(1, samples.size() / 3), samples.size());
  }

  static double mean(List<Long> samples) {
    return samples.stream().mapToLong(Long::longValue).average().orElse(0);
  }
}
