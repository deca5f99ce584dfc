package io.lakestream.connectors.delta.source;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.options.Option;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;

/**
 * The options the Delta source and the Delta change data feed source declare alike (the same keys,
 * types, defaults and checks; the descriptions name what each source admits). Each source's own
 * options class holds the constants users refer to; this only builds them once.
 */
@Internal
public final class DeltaStreamOptions {
  private DeltaStreamOptions() {}

  /** {@code startingVersion}: a version number >= 0 or {@code latest}. */
  public static Option<String> startingVersion(String description) {
    return Option.key("startingVersion")
        .stringType()
        .noDefaultValue()
        .check(DeltaStreamOptions::isVersionOrLatest, "be a version number >= 0 or 'latest'")
        .withDescription(description);
  }

  /** {@code startingTimestamp}: an ISO-8601 instant, or a date (its start in UTC). */
  public static Option<String> startingTimestamp(String what) {
    return Option.key("startingTimestamp")
        .stringType()
        .noDefaultValue()
        .check(
            DeltaStreamOptions::isTimestamp,
            "be an ISO-8601 instant such as 2024-05-01T10:00:00Z or a date such as 2024-05-01")
        .withDescription(
            "Read "
                + what
                + " from the first version committed at or after this instant (ISO-8601, e.g."
                + " 2024-05-01T10:00:00Z; a date such as 2024-05-01 is its start in UTC), with no"
                + " initial snapshot. Before the first available commit: from that commit; after"
                + " the latest one: an error (use startingVersion 'latest'). Not with"
                + " startingVersion. Applies to a new query only.");
  }

  /**
   * The instant of a {@code startingTimestamp} value (checked by the option).
   *
   * @throws java.time.format.DateTimeParseException for text that is neither an instant nor a date
   */
  public static Instant parseTimestamp(String text) {
    String trimmed = text.trim();
    if (trimmed.length() == 10) {
      return LocalDate.parse(trimmed).atStartOfDay(ZoneOffset.UTC).toInstant();
    }
    return Instant.parse(trimmed);
  }

  private static boolean isTimestamp(String text) {
    try {
      parseTimestamp(text);
      return true;
    } catch (DateTimeParseException e) {
      return false;
    }
  }

  /** {@code maxFilesPerTrigger}, 1000 by default, at least 1. */
  public static Option<Integer> maxFilesPerTrigger(String files) {
    return Option.key("maxFilesPerTrigger")
        .intType()
        .defaultValue(1000)
        .atLeast(1)
        .withDescription("At most this many " + files + " are admitted per epoch (>= 1).");
  }

  /** {@code maxBytesPerTrigger}, a soft byte limit per epoch. */
  public static Option<Long> maxBytesPerTrigger(String files) {
    return Option.key("maxBytesPerTrigger")
        .byteSizeType()
        .noDefaultValue()
        .check(bytes -> bytes >= 1, "be at least 1 byte")
        .withDescription(
            "Soft limit of "
                + files
                + " bytes admitted per epoch (the file that crosses it is still admitted), e.g."
                + " '512m'. With maxFilesPerTrigger, whichever is hit first ends the epoch's"
                + " admission.");
  }

  /** {@code pollInterval}, 1 s by default. */
  public static Option<Duration> pollInterval() {
    return Option.key("pollInterval")
        .durationType()
        .defaultValue(Duration.ofSeconds(1))
        .check(d -> d.toMillis() >= 1, "be >= 1 ms")
        .withDescription("How often the Delta log is checked for new versions.");
  }

  private static boolean isVersionOrLatest(String text) {
    if (text.equals("latest")) {
      return true;
    }
    try {
      return Long.parseLong(text) >= 0;
    } catch (NumberFormatException e) {
      return false;
    }
  }
}
