package io.lakestream.runtime;

import io.lakestream.api.annotation.Internal;
import java.time.Duration;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Maps a {@link Trigger} onto Flink settings. One epoch = the work between two checkpoints, so the
 * checkpoint interval is the commit cadence. Checkpoints are exactly-once and aligned (the sinks'
 * epoch commits rely on aligned barriers).
 */
@Internal
public final class TriggerSettings {
  private static final Logger LOG = LoggerFactory.getLogger(TriggerSettings.class);

  /** Interval for the unspecified trigger: as often as sensible. */
  static final Duration AS_OFTEN_AS_POSSIBLE = Duration.ofMillis(100);

  /**
   * Interval while an availableNow run drains through a source with per-epoch limits: back-to-back
   * epochs, as in Spark (such a reader waits for the next checkpoint once its epoch is full).
   */
  static final Duration AVAILABLE_NOW_INTERVAL = Duration.ofMillis(200);

  /**
   * Interval while an availableNow run drains through sources without per-epoch limits: Spark reads
   * such a backlog in one batch; long epochs give the same few commits and large files, and the
   * final savepoint commits the rest. Bounded so a failure redoes at most this much work and a
   * transactional sink's transaction stays short.
   */
  static final Duration AVAILABLE_NOW_UNLIMITED_INTERVAL = Duration.ofSeconds(10);

  /** No periodic checkpoint in a once run: its only epoch ends with the final savepoint. */
  static final Duration NEVER = Duration.ofDays(365);

  /** Network buffer timeout in realTime mode: records are shipped almost at once. */
  static final Duration REAL_TIME_BUFFER_TIMEOUT = Duration.ofMillis(1);

  private TriggerSettings() {}

  /**
   * Writes the settings for {@code trigger} into {@code conf}, logging the warnings it deserves.
   */
  public static void apply(Trigger trigger, Configuration conf) {
    conf.set(CheckpointingOptions.CHECKPOINTING_CONSISTENCY_MODE, CheckpointingMode.EXACTLY_ONCE);
    conf.set(CheckpointingOptions.ENABLE_UNALIGNED, false);
    if (trigger instanceof Trigger.ProcessingTime p) {
      conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, p.interval());
    } else if (trigger instanceof Trigger.RealTime r) {
      conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, r.checkpointInterval());
      conf.set(ExecutionOptions.BUFFER_TIMEOUT, REAL_TIME_BUFFER_TIMEOUT);
    } else if (trigger instanceof Trigger.AvailableNow) {
      conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, AVAILABLE_NOW_INTERVAL);
    } else if (trigger instanceof Trigger.Once) {
      LOG.warn(
          "Trigger once is deprecated (as in Databricks since DBR 11.3): it processes everything"
              + " in one epoch and ignores rate limits. Use --trigger availableNow, which drains the"
              + " same data in rate-limited epochs.");
      conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, NEVER);
    } else {
      LOG.warn(
          "No trigger given: committing every {} ms, as often as possible. This is for"
              + " prototyping only: every commit costs object-store requests and small files."
              + " Choose a trigger, e.g. --trigger processingTime=30s or --trigger availableNow.",
          AS_OFTEN_AS_POSSIBLE.toMillis());
      conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, AS_OFTEN_AS_POSSIBLE);
      conf.set(CheckpointingOptions.MIN_PAUSE_BETWEEN_CHECKPOINTS, Duration.ZERO);
    }
  }

  /**
   * The epoch cadence of an availableNow run once its sources are known: long epochs when no source
   * limits its epochs ({@code maxOffsetsPerTrigger}, {@code maxFilesPerTrigger}), else back-to-back
   * ones. Other triggers keep what {@link #apply} set.
   */
  static void adaptToSources(
      Trigger trigger, boolean sourcesLimitEpochs, StreamExecutionEnvironment env) {
    if (trigger instanceof Trigger.AvailableNow && !sourcesLimitEpochs) {
      LOG.info(
          "availableNow: no source limits its epochs (maxOffsetsPerTrigger, maxFilesPerTrigger),"
              + " so the backlog is read in epochs of up to {} s and the final savepoint commits"
              + " the rest",
          AVAILABLE_NOW_UNLIMITED_INTERVAL.toSeconds());
      env.getCheckpointConfig().setCheckpointInterval(AVAILABLE_NOW_UNLIMITED_INTERVAL.toMillis());
    }
  }

  /** Whether the trigger bounds a run to the data available at start. */
  public static boolean bounded(Trigger trigger) {
    return trigger instanceof Trigger.AvailableNow || trigger instanceof Trigger.Once;
  }

  /** How often the runner looks for new epochs. */
  static Duration pollInterval(Trigger trigger) {
    if (trigger instanceof Trigger.ProcessingTime p && p.interval().toMillis() < 1000) {
      return p.interval();
    }
    return trigger instanceof Trigger.ProcessingTime || trigger instanceof Trigger.RealTime
        ? Duration.ofSeconds(1)
        : Duration.ofMillis(200);
  }
}
