package io.lakestream.api.value;

import io.lakestream.api.annotation.Internal;
import java.time.Instant;
import java.time.LocalDate;

/**
 * The dates and timestamps a Delta table holds: years 0001 to 9999 (UTC), Spark's and Delta's
 * range. Beyond it a Delta writer fails, and a value such as {@code +1000000000-01-01T00:00:00Z}
 * overflows epoch milliseconds, so parsers treat such a value as bad input.
 */
@Internal
public final class TimestampRange {
  /** The first instant in range: {@code 0001-01-01T00:00:00Z}. */
  public static final Instant MIN = Instant.parse("0001-01-01T00:00:00Z");

  /** The last instant in range: {@code 9999-12-31T23:59:59.999999999Z}. */
  public static final Instant MAX = Instant.parse("9999-12-31T23:59:59.999999999Z");

  /** How error messages name the range. */
  public static final String DESCRIPTION = "0001-01-01 to 9999-12-31 (UTC)";

  private TimestampRange() {}

  /** Whether {@code instant} is in range. */
  public static boolean contains(Instant instant) {
    return !instant.isBefore(MIN) && !instant.isAfter(MAX);
  }

  /** Whether {@code date} is in range. */
  public static boolean contains(LocalDate date) {
    return date.getYear() >= 1 && date.getYear() <= 9999;
  }
}
