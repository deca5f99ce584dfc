package io.lakestream.runtime;

import io.lakestream.api.annotation.Internal;
import io.lakestream.api.error.LakestreamException;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses durations the way Spark users write them: {@code 30s}, {@code 500 ms}, {@code 5 minutes},
 * {@code 1h}, {@code 2 days}, or ISO-8601 {@code PT30S}. Months and years are refused (not a fixed
 * length).
 */
@Internal
public final class DurationText {
  private static final Pattern FORM = Pattern.compile("(?i)\\s*(\\d+(?:\\.\\d+)?)\\s*([a-z]*)\\s*");

  private DurationText() {}

  /**
   * Parses {@code text}; fails with a {@link LakestreamException} ({@code QUERY_INVALID_TRIGGER})
   * naming the valid units.
   */
  public static Duration parse(String text) {
    if (text == null) {
      throw new LakestreamException(QueryErrorClass.QUERY_INVALID_TRIGGER, "duration is missing");
    }
    if (text.trim().toUpperCase(Locale.ROOT).startsWith("P")) {
      return Duration.parse(text.trim().toUpperCase(Locale.ROOT));
    }
    Matcher m = FORM.matcher(text);
    if (!m.matches()) {
      throw new LakestreamException(
          QueryErrorClass.QUERY_INVALID_TRIGGER,
          "cannot read duration '" + text + "'; write e.g. 30s, 500ms, 5 minutes, 1h");
    }
    double amount = Double.parseDouble(m.group(1));
    String unit = m.group(2).toLowerCase(Locale.ROOT);
    long nanosPerUnit;
    switch (unit) {
      case "us":
      case "micro":
      case "micros":
      case "microsecond":
      case "microseconds":
        nanosPerUnit = 1_000L;
        break;
      case "ms":
      case "milli":
      case "millis":
      case "millisecond":
      case "milliseconds":
        nanosPerUnit = 1_000_000L;
        break;
      case "":
      case "s":
      case "sec":
      case "secs":
      case "second":
      case "seconds":
        nanosPerUnit = 1_000_000_000L;
        break;
      case "m":
      case "min":
      case "mins":
      case "minute":
      case "minutes":
        nanosPerUnit = 60_000_000_000L;
        break;
      case "h":
      case "hour":
      case "hours":
        nanosPerUnit = 3_600_000_000_000L;
        break;
      case "d":
      case "day":
      case "days":
        nanosPerUnit = 86_400_000_000_000L;
        break;
      case "w":
      case "week":
      case "weeks":
        nanosPerUnit = 7 * 86_400_000_000_000L;
        break;
      case "month":
      case "months":
      case "y":
      case "year":
      case "years":
        throw new LakestreamException(
            QueryErrorClass.QUERY_INVALID_TRIGGER,
            "duration '" + text + "': months and years have no fixed length; use days");
      default:
        throw new LakestreamException(
            QueryErrorClass.QUERY_INVALID_TRIGGER,
            "duration '"
                + text
                + "': unknown unit '"
                + unit
                + "'; use us, ms, s, m (minutes), h, d or their long names");
    }
    return Duration.ofNanos(Math.round(amount * nanosPerUnit));
  }
}
