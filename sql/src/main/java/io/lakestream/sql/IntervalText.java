package io.lakestream.sql;

import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The length of a SQL day-time interval literal, {@code INTERVAL '<text>' <qualifier>}, as the
 * planner prints a watermark delay: one unit ({@code '90' SECOND}, {@code '1.5' MINUTE}, {@code '2'
 * HOUR(2)}, {@code '1' DAY}) or a range ({@code '0 01:00:00.000' DAY TO SECOND(3)}, {@code '01:30'
 * HOUR TO MINUTE}, {@code '01:00:00' HOUR TO SECOND}, {@code '10:00' MINUTE TO SECOND}). Year-month
 * intervals have no fixed length and give nothing.
 */
final class IntervalText {
  private static final Pattern QUALIFIER =
      Pattern.compile("([A-Z]+)(?:\\(\\d+\\))?(?:\\s+TO\\s+([A-Z]+)(?:\\(\\d+\\))?)?");
  private static final Pattern NUMBER = Pattern.compile("[+-]?\\d+(?:\\.\\d+)?");

  private IntervalText() {}

  /** The interval's length, or empty for a form this does not read. */
  static Optional<Duration> parse(String text, String qualifier) {
    Matcher units = QUALIFIER.matcher(qualifier.strip().toUpperCase(Locale.ROOT));
    if (!units.matches()) {
      return Optional.empty();
    }
    String from = units.group(1);
    String to = units.group(2) == null ? from : units.group(2);
    String[] fields = text.strip().split("[ :]");
    String[] unitsUsed = range(from, to);
    if (unitsUsed == null || fields.length != unitsUsed.length) {
      return Optional.empty();
    }
    Duration total = Duration.ZERO;
    for (int i = 0; i < fields.length; i++) {
      if (!NUMBER.matcher(fields[i]).matches()) {
        return Optional.empty();
      }
      double nanos = Double.parseDouble(fields[i]) * nanosPer(unitsUsed[i]);
      total = total.plusNanos(Math.round(nanos));
    }
    return Optional.of(total);
  }

  /** The units from {@code from} to {@code to}, largest first, or null if not day-time. */
  private static String[] range(String from, String to) {
    String[] all = {"DAY", "HOUR", "MINUTE", "SECOND"};
    int start = java.util.Arrays.asList(all).indexOf(from);
    int end = java.util.Arrays.asList(all).indexOf(to);
    return start < 0 || end < start ? null : java.util.Arrays.copyOfRange(all, start, end + 1);
  }

  private static double nanosPer(String unit) {
    return switch (unit) {
      case "DAY" -> 86_400e9;
      case "HOUR" -> 3_600e9;
      case "MINUTE" -> 60e9;
      default -> 1e9;
    };
  }
}
