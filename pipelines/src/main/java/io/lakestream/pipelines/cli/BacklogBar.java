package io.lakestream.pipelines.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.lakestream.runtime.QueryProgress;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The backlog of a bounded run (availableNow, once) as one line redrawn in place on a terminal:
 * rows done of the backlog the sources captured at the run's start, the rate, and the time left,
 * e.g. {@code demo [##########..........] 50% 10,000/20,000 rows 3,210 rows/s ETA 3s}.
 *
 * <p>Rows done are the epochs' input rows; rows left are, per source, its run's end positions
 * ({@code latestOffset}) minus the epoch's {@code endOffset}, for sources whose positions are
 * counts of rows (Kafka, the rate source). A source that reports files outstanding instead (Delta,
 * Auto Loader) adds them to the line; without a count of rows left the line shows no percentage or
 * ETA rather than a guessed one.
 */
final class BacklogBar {
  private static final int WIDTH = 20;

  private long rowsDone;
  private Instant firstEpochStart;

  /**
   * Adds {@code progress} (an epoch of this run) and returns the line that shows the backlog after
   * it.
   *
   * @param now the time the line is drawn, for the rate
   */
  String add(QueryProgress progress, Instant now) {
    JsonNode p = progress.json();
    rowsDone += progress.numInputRows();
    if (firstEpochStart == null && p.path("timestamp").isTextual()) {
      firstEpochStart = Instant.parse(p.path("timestamp").asText());
    }
    OptionalLong rowsLeft = rowsLeft(p.path("sources"));
    long filesLeft = filesOutstanding(p.path("sources"));
    double rate = rate(now);
    StringBuilder line = new StringBuilder(p.path("name").asText()).append(' ');
    if (rowsLeft.isPresent()) {
      long total = rowsDone + rowsLeft.getAsLong();
      double done = total == 0 ? 1.0 : (double) rowsDone / total;
      line.append(bar(done))
          .append(String.format(Locale.ROOT, " %3d%% ", (int) Math.floor(done * 100)))
          .append(String.format(Locale.ROOT, "%,d/%,d rows", rowsDone, total));
    } else {
      line.append(String.format(Locale.ROOT, "%,d rows", rowsDone));
    }
    if (filesLeft > 0) {
      line.append(String.format(Locale.ROOT, ", %,d files outstanding", filesLeft));
    }
    line.append(String.format(Locale.ROOT, " %,d rows/s", Math.round(rate)));
    if (rowsLeft.isPresent()) {
      line.append(" ETA ").append(eta(rowsLeft.getAsLong(), rate));
    }
    return line.toString();
  }

  private double rate(Instant now) {
    if (firstEpochStart == null) {
      return 0;
    }
    long millis = Duration.between(firstEpochStart, now).toMillis();
    return millis <= 0 ? 0 : rowsDone * 1000.0 / millis;
  }

  private static String bar(double done) {
    int filled = (int) Math.floor(done * WIDTH);
    return "[" + "#".repeat(filled) + ".".repeat(WIDTH - filled) + "]";
  }

  private static String eta(long rowsLeft, double rate) {
    if (rowsLeft == 0) {
      return "0s";
    }
    if (rate <= 0) {
      return "-";
    }
    long seconds = (long) Math.ceil(rowsLeft / rate);
    return seconds < 60
        ? seconds + "s"
        : String.format(Locale.ROOT, "%dm%02ds", seconds / 60, seconds % 60);
  }

  /**
   * The rows left of all sources, or empty when a source's positions are not row counts (not flat
   * or nested maps of numbers with the same keys in both).
   */
  static OptionalLong rowsLeft(JsonNode sources) {
    long left = 0;
    for (JsonNode source : sources) {
      if (source.path("metrics").has("numFilesOutstanding")) {
        return OptionalLong.empty(); // its backlog is files, of rows unknown
      }
      OptionalLong latest = sumOfCounts(source.path("latestOffset"));
      OptionalLong end = sumOfCounts(source.path("endOffset"));
      if (latest.isEmpty() || end.isEmpty() || !sameKeys(source)) {
        return OptionalLong.empty();
      }
      left += Math.max(0, latest.getAsLong() - end.getAsLong());
    }
    return OptionalLong.of(left);
  }

  private static long filesOutstanding(JsonNode sources) {
    long files = 0;
    for (JsonNode source : sources) {
      files += source.path("metrics").path("numFilesOutstanding").asLong(0);
    }
    return files;
  }

  private static boolean sameKeys(JsonNode source) {
    JsonNode latest = source.path("latestOffset");
    JsonNode end = source.path("endOffset");
    for (Iterator<String> it = latest.fieldNames(); it.hasNext(); ) {
      if (!end.has(it.next())) {
        return false;
      }
    }
    return latest.size() == end.size();
  }

  /** The sum of a position's counts (numbers, possibly nested by topic), empty otherwise. */
  private static OptionalLong sumOfCounts(JsonNode offsets) {
    if (!offsets.isObject() || offsets.isEmpty()) {
      return OptionalLong.empty();
    }
    long sum = 0;
    for (Iterator<Map.Entry<String, JsonNode>> it = offsets.fields(); it.hasNext(); ) {
      JsonNode value = it.next().getValue();
      if (value.isIntegralNumber()) {
        sum += value.asLong();
      } else if (value.isObject()) {
        OptionalLong nested = sumOfCounts(value);
        if (nested.isEmpty()) {
          return OptionalLong.empty();
        }
        sum += nested.getAsLong();
      } else {
        return OptionalLong.empty();
      }
    }
    return OptionalLong.of(sum);
  }
}
