package io.lakestream.connectors.delta.maintenance;

import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Delta table property's duration, in Delta's interval form ({@code interval 1 week}, {@code
 * interval 168 hours}, {@code 7 days}): a number and a unit from microseconds to weeks.
 */
final class RetentionText {
  private static final Pattern INTERVAL =
      Pattern.compile("(?:interval\\s+)?(\\d+)\\s*([a-z]+?)s?", Pattern.CASE_INSENSITIVE);

  private RetentionText() {}

  /** The duration of {@code text}, or empty if it is not of that form. */
  static Optional<Duration> parse(String text) {
    Matcher m = INTERVAL.matcher(text.trim());
    if (!m.matches()) {
      return Optional.empty();
    }
    long n = Long.parseLong(m.group(1));
    return switch (m.group(2).toLowerCase(Locale.ROOT)) {
      case "week" -> Optional.of(Duration.ofDays(7 * n));
      case "day" -> Optional.of(Duration.ofDays(n));
      case "hour" -> Optional.of(Duration.ofHours(n));
      case "minute" -> Optional.of(Duration.ofMinutes(n));
      case "second" -> Optional.of(Duration.ofSeconds(n));
      case "millisecond" -> Optional.of(Duration.ofMillis(n));
      case "microsecond" -> Optional.of(Duration.ofNanos(n * 1000));
      default -> Optional.empty();
    };
  }
}
