package io.lakestream.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.OptionalLong;

/**
 * One epoch's {@code durationMs} and rates in Structured Streaming's names, each measured where it
 * happens (Flink cuts epochs with checkpoint barriers while the data flows, so the phases overlap
 * with the neighbouring epochs' instead of following each other as in a micro-batch):
 *
 * <ul>
 *   <li>{@code latestOffset}: the longest of the sources' look-ups of the latest available
 *       positions that bounded the epoch (recorded by the source as {@code latestOffsetMs}; sources
 *       look up in parallel). Left out when no source measures one.
 *   <li>{@code addBatch}: from the epoch's start to its cut (the checkpoint trigger before the
 *       barrier that ends it), the span in which its rows were read and processed.
 *   <li>{@code walCommit}: from the cut to the checkpoint's completion, when the epoch's positions
 *       and state are durable. Left out when Flink did not report the completion (a checkpoint
 *       subsumed before its notification). Flink notifies the runner and the sinks of the
 *       completion concurrently, so the runner may hear of it after a sink started committing: the
 *       completion is then the earliest sink commit's start, which cannot precede it.
 *   <li>{@code commitOffsets}: the longest of the sinks' commits of the epoch (recorded by the sink
 *       as {@code commitDurationMs}; sinks commit in parallel).
 *   <li>{@code triggerExecution}: from the epoch's start to the end of its last sink commit; also
 *       Spark's {@code batchDuration}.
 * </ul>
 *
 * {@code inputRowsPerSecond} is the rows over {@code addBatch} (the time from this epoch's start to
 * the next one's, in which its rows arrived), {@code processedRowsPerSecond} the rows over {@code
 * triggerExecution}. Without the epoch's times (cut before the runner started) the durations and
 * rates measured from them are left out rather than guessed. Start and cut are the JobManager's
 * clock, the sinks' commit ends the TaskManager's: on a cluster they differ by the clock skew.
 */
final class EpochDurations {
  private final OptionalLong latestOffset;
  private final OptionalLong addBatch;
  private final OptionalLong walCommit;
  private final OptionalLong commitOffsets;
  private final OptionalLong triggerExecution;

  EpochDurations(
      OptionalLong latestOffset,
      OptionalLong addBatch,
      OptionalLong walCommit,
      OptionalLong commitOffsets,
      OptionalLong triggerExecution) {
    this.latestOffset = latestOffset;
    this.addBatch = addBatch;
    this.walCommit = walCommit;
    this.commitOffsets = commitOffsets;
    this.triggerExecution = triggerExecution;
  }

  /**
   * The durations of an epoch with {@code times} (null: unknown) and the sinks' commit records and
   * sources' offsets records.
   */
  static EpochDurations of(
      EpochClock.EpochTimes times, Map<String, JsonNode> commits, Map<String, JsonNode> offsets) {
    OptionalLong latest = longest(offsets, "latestOffsetMs");
    OptionalLong commit = longest(commits, "commitDurationMs");
    if (times == null) {
      return new EpochDurations(
          latest, OptionalLong.empty(), OptionalLong.empty(), commit, OptionalLong.empty());
    }
    Instant committed = newest(commits, "committedAt");
    Instant checkpointed = earliest(times.checkpointed(), firstCommitStart(commits));
    return new EpochDurations(
        latest,
        OptionalLong.of(between(times.start(), times.cut())),
        times.checkpointed() == null
            ? OptionalLong.empty()
            : OptionalLong.of(between(times.cut(), checkpointed)),
        commit,
        committed == null
            ? OptionalLong.empty()
            : OptionalLong.of(between(times.start(), committed)));
  }

  OptionalLong batchDuration() {
    return triggerExecution;
  }

  /** Writes the measured durations into {@code durationMs}. */
  void write(ObjectNode durationMs) {
    latestOffset.ifPresent(ms -> durationMs.put("latestOffset", ms));
    addBatch.ifPresent(ms -> durationMs.put("addBatch", ms));
    walCommit.ifPresent(ms -> durationMs.put("walCommit", ms));
    commitOffsets.ifPresent(ms -> durationMs.put("commitOffsets", ms));
    triggerExecution.ifPresent(ms -> durationMs.put("triggerExecution", ms));
  }

  /** Puts {@code inputRowsPerSecond} and {@code processedRowsPerSecond} of {@code rows}. */
  void rates(ObjectNode target, long rows) {
    addBatch.ifPresent(ms -> target.put("inputRowsPerSecond", rate(rows, ms)));
    triggerExecution.ifPresent(ms -> target.put("processedRowsPerSecond", rate(rows, ms)));
  }

  static double rate(long rows, long millis) {
    return millis <= 0 ? 0.0 : rows * 1000.0 / millis;
  }

  private static long between(Instant from, Instant to) {
    return Math.max(0, Duration.between(from, to).toMillis());
  }

  /** The largest numeric {@code field} of the records, empty when none has it. */
  private static OptionalLong longest(Map<String, JsonNode> records, String field) {
    return records.values().stream()
        .filter(r -> r.path(field).isNumber())
        .mapToLong(r -> r.path(field).asLong())
        .max();
  }

  /** When the first sink commit of the epoch started, or null if no record says. */
  private static Instant firstCommitStart(Map<String, JsonNode> commits) {
    Instant first = null;
    for (JsonNode record : commits.values()) {
      if (record.path("committedAt").isTextual() && record.path("commitDurationMs").isNumber()) {
        Instant start =
            Instant.parse(record.path("committedAt").asText())
                .minusMillis(record.path("commitDurationMs").asLong());
        first = earliest(first, start);
      }
    }
    return first;
  }

  private static Instant earliest(Instant a, Instant b) {
    return a == null ? b : b == null || a.isBefore(b) ? a : b;
  }

  /** The newest instant in {@code field} of the records, or null if none has it. */
  private static Instant newest(Map<String, JsonNode> records, String field) {
    Instant newest = null;
    for (JsonNode record : records.values()) {
      if (record.path(field).isTextual()) {
        Instant at = Instant.parse(record.path(field).asText());
        newest = newest == null || at.isAfter(newest) ? at : newest;
      }
    }
    return newest;
  }
}
