package io.lakestream.runtime;

import io.lakestream.api.annotation.Experimental;
import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.LakestreamException;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * When a query commits: the Structured Streaming trigger menu mapped onto Flink checkpoints. One
 * epoch (micro-batch) is the work between two completed checkpoints.
 *
 * <p>{@link #parse(String)} accepts what a Databricks user writes, e.g. {@code processingTime=30
 * seconds}, {@code processingTime:30s}, {@code availableNow}, {@code once}, {@code realTime=5
 * minutes}; invalid text fails with a {@link LakestreamException} ({@code QUERY_INVALID_TRIGGER})
 * listing the accepted forms.
 */
@PublicEvolving
public sealed interface Trigger {

  /** Help text listing the accepted forms, used in errors and CLI help. */
  String FORMS =
      "default, processingTime=<duration>, availableNow, once, realTime=<duration>"
          + " (durations like 30s, 500ms, 5m, '30 seconds')";

  /** No trigger given: commit as often as possible (prototyping only; costly). */
  record Unspecified() implements Trigger {}

  /** One epoch per interval. */
  record ProcessingTime(Duration interval) implements Trigger {
    public ProcessingTime {
      requirePositive(interval, "processingTime");
    }
  }

  /** Process what is available at start, in as many epochs as rate limits need, then stop. */
  record AvailableNow() implements Trigger {}

  /** Deprecated: availableNow in one epoch, ignoring rate limits. */
  record Once() implements Trigger {}

  /** Low latency: records flow immediately, commits every {@code checkpointInterval}. */
  @Experimental
  record RealTime(Duration checkpointInterval) implements Trigger {
    public RealTime {
      requirePositive(checkpointInterval, "realTime");
    }
  }

  static Trigger unspecified() {
    return new Unspecified();
  }

  static Trigger processingTime(Duration interval) {
    return new ProcessingTime(interval);
  }

  static Trigger availableNow() {
    return new AvailableNow();
  }

  static Trigger once() {
    return new Once();
  }

  @Experimental
  static Trigger realTime(Duration checkpointInterval) {
    return new RealTime(checkpointInterval);
  }

  /**
   * Spark's continuous processing is not offered.
   *
   * @throws LakestreamException ({@code QUERY_UNSUPPORTED_TRIGGER}) always, pointing to {@link
   *     #realTime(Duration)}
   */
  static Trigger continuous(Duration interval) {
    throw new LakestreamException(
        QueryErrorClass.QUERY_UNSUPPORTED_TRIGGER,
        "trigger continuous("
            + interval
            + ") is not supported: Spark's continuous mode is experimental and at-least-once."
            + " Use realTime(<checkpoint interval>) for low latency with exactly-once commits,"
            + " e.g. --trigger realTime=5m");
  }

  /** Parses a trigger as written on the command line or in a config file. */
  static Trigger parse(String text) {
    if (text == null || text.isBlank() || text.trim().equalsIgnoreCase("default")) {
      return unspecified();
    }
    String t = text.trim();
    Matcher m =
        Pattern.compile("(?i)([a-z]+)\\s*(?:[=:(]\\s*['\"]?(.*?)['\"]?\\s*\\)?)?").matcher(t);
    if (!m.matches()) {
      throw new LakestreamException(
          QueryErrorClass.QUERY_INVALID_TRIGGER, "unknown trigger '" + text + "'; valid: " + FORMS);
    }
    String kind = m.group(1).toLowerCase(Locale.ROOT);
    String arg = m.group(2);
    switch (kind) {
      case "availablenow":
        noArgument(kind, arg);
        return availableNow();
      case "once":
        noArgument(kind, arg);
        return once();
      case "processingtime":
        return processingTime(DurationText.parse(requireArgument(kind, arg)));
      case "realtime":
        return realTime(DurationText.parse(requireArgument(kind, arg)));
      case "continuous":
        return continuous(DurationText.parse(requireArgument(kind, arg)));
      default:
        throw new LakestreamException(
            QueryErrorClass.QUERY_INVALID_TRIGGER,
            "unknown trigger '" + text + "'; valid: " + FORMS);
    }
  }

  private static void noArgument(String kind, String arg) {
    if (arg != null && !arg.isEmpty()) {
      throw new LakestreamException(
          QueryErrorClass.QUERY_INVALID_TRIGGER,
          "trigger " + kind + " takes no argument, got '" + arg + "'");
    }
  }

  private static String requireArgument(String kind, String arg) {
    if (arg == null || arg.isEmpty()) {
      throw new LakestreamException(
          QueryErrorClass.QUERY_INVALID_TRIGGER,
          "trigger " + kind + " needs a duration, e.g. " + kind + "=30s; valid: " + FORMS);
    }
    return arg;
  }

  private static void requirePositive(Duration d, String kind) {
    if (d == null || d.isNegative() || d.isZero()) {
      throw new LakestreamException(
          QueryErrorClass.QUERY_INVALID_TRIGGER, kind + " needs a positive duration, got " + d);
    }
  }
}
