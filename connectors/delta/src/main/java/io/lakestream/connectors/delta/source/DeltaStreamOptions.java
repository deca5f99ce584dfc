package io.lakestream.connectors.delta.source;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.options.Option;
import java.time.Duration;

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
