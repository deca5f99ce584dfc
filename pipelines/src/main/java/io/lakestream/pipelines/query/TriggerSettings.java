package io.lakestream.pipelines.query;

import java.time.Duration;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.core.execution.CheckpointingMode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Maps a {@link Trigger} onto Flink settings: the checkpoint interval is the commit cadence (one
 * epoch per checkpoint), checkpoints are exactly-once and aligned.
 */
public final class TriggerSettings {
  private static final Logger LOG = LoggerFactory.getLogger(TriggerSettings.class);

  /** Checkpoint interval for the unspecified trigger: as often as Flink sensibly allows. */
  static final Duration AS_OFTEN_AS_POSSIBLE = Duration.ofMillis(100);

  /** Network buffer timeout in realTime mode. */
  static final Duration REAL_TIME_BUFFER_TIMEOUT = Duration.ofMillis(1);

  private TriggerSettings() {}

  /**
   * Writes the settings for {@code trigger} into {@code conf}.
   *
   * @throws UnsupportedOperationException for triggers this runner cannot honour
   */
  public static void apply(Trigger trigger, Configuration conf) {
    conf.set(CheckpointingOptions.CHECKPOINTING_CONSISTENCY_MODE, CheckpointingMode.EXACTLY_ONCE);
    conf.set(CheckpointingOptions.ENABLE_UNALIGNED, false);
    conf.set(CheckpointingOptions.ENABLE_CHECKPOINTS_AFTER_TASKS_FINISH, true);
    if (trigger instanceof Trigger.ProcessingTime p) {
      conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, p.interval());
    } else if (trigger instanceof Trigger.RealTime r) {
      conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, r.checkpointInterval());
      conf.set(ExecutionOptions.BUFFER_TIMEOUT, REAL_TIME_BUFFER_TIMEOUT);
    } else if (trigger instanceof Trigger.Unspecified) {
      LOG.warn(
          "No trigger given: committing every {} ms, as often as possible. This is for"
              + " prototyping only: each commit costs object-store requests and small files."
              + " Choose a trigger, e.g. --trigger processingTime=30s or --trigger availableNow.",
          AS_OFTEN_AS_POSSIBLE.toMillis());
      conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, AS_OFTEN_AS_POSSIBLE);
      conf.set(CheckpointingOptions.MIN_PAUSE_BETWEEN_CHECKPOINTS, Duration.ZERO);
    } else {
      throw new UnsupportedOperationException(
          "trigger "
              + trigger
              + " needs the availableNow controller, which this runner does not have yet;"
              + " use --trigger processingTime=<duration>");
    }
  }
}
