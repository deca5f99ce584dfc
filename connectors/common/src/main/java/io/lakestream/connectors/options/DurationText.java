package io.lakestream.connectors.options;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Durations written as text the way Flink writes them: a whole number and an optional unit ({@code
 * 15 min}, {@code 500ms}, {@code 2 s}, {@code 30 d}); without a unit the number is milliseconds.
 */
final class DurationText {
  private static final Map<String, ChronoUnit> UNITS = new LinkedHashMap<>();

  static {
    label(ChronoUnit.DAYS, "d", "day", "days");
    label(ChronoUnit.HOURS, "h", "hour", "hours");
    label(ChronoUnit.MINUTES, "min", "m", "minute", "minutes");
    label(ChronoUnit.SECONDS, "s", "sec", "secs", "second", "seconds");
    label(ChronoUnit.MILLIS, "ms", "milli", "millis", "millisecond", "milliseconds");
    label(ChronoUnit.MICROS, "µs", "micro", "micros", "microsecond", "microseconds");
    label(ChronoUnit.NANOS, "ns", "nano", "nanos", "nanosecond", "nanoseconds");
  }

  /** Units for {@link #format}, largest first. */
  private static final List<Map.Entry<ChronoUnit, String>> FORMAT_UNITS =
      List.of(
          Map.entry(ChronoUnit.DAYS, "d"),
          Map.entry(ChronoUnit.HOURS, "h"),
          Map.entry(ChronoUnit.MINUTES, "min"),
          Map.entry(ChronoUnit.SECONDS, "s"),
          Map.entry(ChronoUnit.MILLIS, "ms"));

  private DurationText() {}

  private static void label(ChronoUnit unit, String... labels) {
    for (String label : labels) {
      UNITS.put(label, unit);
    }
  }

  /**
   * Parses {@code text}.
   *
   * @throws IllegalArgumentException saying what a duration looks like
   */
  static Duration parse(String text) {
    String trimmed = text.trim();
    int end = 0;
    while (end < trimmed.length() && isAsciiDigit(trimmed.charAt(end))) {
      end++;
    }
    String unit = trimmed.substring(end).trim().toLowerCase(Locale.ROOT);
    ChronoUnit chrono = unit.isEmpty() ? ChronoUnit.MILLIS : UNITS.get(unit);
    if (end == 0 || chrono == null) {
      throw new IllegalArgumentException(
          "must be a duration: a whole number and a unit (d, h, min, s, ms), e.g. 15 min or"
              + " 500 ms; a number alone is milliseconds");
    }
    try {
      return Duration.of(Long.parseLong(trimmed.substring(0, end)), chrono);
    } catch (ArithmeticException | NumberFormatException e) {
      throw new IllegalArgumentException("must be a duration that fits in a long of nanoseconds");
    }
  }

  private static boolean isAsciiDigit(char c) {
    return c >= '0' && c <= '9';
  }

  /** {@code duration} in its largest whole unit, e.g. {@code 15 min}; parses back to itself. */
  static String format(Duration duration) {
    for (Map.Entry<ChronoUnit, String> unit : FORMAT_UNITS) {
      Duration one = unit.getKey().getDuration();
      if (!duration.isZero() && duration.toNanos() % one.toNanos() == 0) {
        return duration.toNanos() / one.toNanos() + " " + unit.getValue();
      }
    }
    return duration.isZero() ? "0 ms" : duration.toNanos() + " ns";
  }
}
