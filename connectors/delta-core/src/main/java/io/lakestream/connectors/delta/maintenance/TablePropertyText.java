package io.lakestream.connectors.delta.maintenance;

import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The text forms of Delta table properties maintenance reads: durations in Delta's interval form
 * ({@code interval 1 week}, {@code interval 168 hours}, {@code 7 days}) and sizes ({@code 128mb},
 * {@code 1gb}, {@code 134217728}).
 */
final class TablePropertyText {
  private static final Pattern INTERVAL =
      Pattern.compile("(?:interval\\s+)?(\\d+)\\s*([a-z]+?)s?", Pattern.CASE_INSENSITIVE);

  private static final Pattern SIZE =
      Pattern.compile("(\\d+)\\s*([kmgt]?)b?", Pattern.CASE_INSENSITIVE);

  private TablePropertyText() {}

  /** The bytes of a size text, or empty if it is null or not a size. */
  static Optional<Long> bytes(String text) {
    if (text == null) {
      return Optional.empty();
    }
    Matcher m = SIZE.matcher(text.trim());
    if (!m.matches()) {
      return Optional.empty();
    }
    int shift =
        switch (m.group(2).toLowerCase(Locale.ROOT)) {
          case "k" -> 10;
          case "m" -> 20;
          case "g" -> 30;
          case "t" -> 40;
          default -> 0;
        };
    return Optional.of(Long.parseLong(m.group(1)) << shift);
  }

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
