package io.lakestream.connectors.source;

import io.lakestream.api.annotation.Internal;
import io.lakestream.state.query.ReplayPlan;
import java.util.Map;
import java.util.NavigableSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reader-side half of a rewind (see {@link ReplayPlan}): after a restore from an older snapshot,
 * each replayed epoch must hold the same input rows as the original epoch with that id, because
 * sinks skip epoch ids they already committed.
 *
 * <p>A reader that uses it emits a replayed epoch's rows in one {@code pollNext} call (so no
 * checkpoint can cut into it), up to {@link #nextEpochEnds()}, and then waits for the next
 * checkpoint. {@link #onSnapshot} checks that the epochs a sink last committed ended exactly where
 * they did originally; if not (a checkpoint was skipped at that point), it throws {@link
 * ReplayAlignmentException} rather than let rows be committed twice or never.
 *
 * <p>Not thread-safe; used from the reader's task thread only.
 */
@Internal
public final class ReplayedEpochs {
  private static final Logger LOG = LoggerFactory.getLogger(ReplayedEpochs.class);

  private final ReplayPlan plan;
  private final String source;
  private long epoch = -1;

  /**
   * @param plan the query's replay plan ({@link ReplayPlan#NONE} when not rewinding)
   * @param source the source's name (its uid), as recorded in {@code offsets/N}
   */
  public ReplayedEpochs(ReplayPlan plan, String source) {
    this.plan = plan == null ? ReplayPlan.NONE : plan;
    this.source = source;
  }

  /** Notes the epoch a restored split was snapshotted in ({@code < 0}: never snapshotted). */
  public void restoredAt(long snapshotEpoch) {
    if (snapshotEpoch > epoch) {
      epoch = snapshotEpoch;
      if (isReplaying()) {
        LOG.info(
            "Source {} replays epochs {}..{} exactly as they were committed ({})",
            source,
            epoch + 1,
            plan.lastEpoch(),
            plan);
      }
    }
  }

  /** The last epoch this reader was snapshotted in, or -1. */
  public long epoch() {
    return epoch;
  }

  /** Whether the next epoch replays an original epoch (rate limits do not apply then). */
  public boolean isReplaying() {
    return epoch >= 0 && plan.replays(epoch + 1);
  }

  /** Where each split must stop in the next epoch; a split without an entry has nothing to add. */
  public Map<String, Long> nextEpochEnds() {
    return plan.endOf(source, epoch + 1);
  }

  /**
   * Called when the reader is snapshotted for checkpoint {@code checkpointId} with its splits at
   * {@code positions}.
   *
   * @throws ReplayAlignmentException if a sink's last committed epoch would not hold exactly its
   *     original rows
   */
  public void onSnapshot(long checkpointId, Map<String, Long> positions) {
    if (epoch >= 0 && !plan.isEmpty()) {
      NavigableSet<Long> critical = plan.criticalBetween(epoch, checkpointId);
      for (long mustEnd : critical) {
        if (mustEnd != checkpointId) {
          throw misaligned(checkpointId, mustEnd, "checkpoint " + mustEnd + " was skipped");
        }
        Map<String, Long> ends = plan.endOf(source, mustEnd);
        for (Map.Entry<String, Long> split : positions.entrySet()) {
          Long end = ends.get(split.getKey());
          if (end != null && !end.equals(split.getValue())) {
            throw misaligned(
                checkpointId,
                mustEnd,
                split.getKey() + " is at " + split.getValue() + " instead of " + end);
          }
        }
      }
    }
    if (checkpointId > epoch) {
      epoch = checkpointId;
    }
  }

  private ReplayAlignmentException misaligned(long checkpointId, long mustEnd, String why) {
    return new ReplayAlignmentException(
        "Source "
            + source
            + " could not replay epoch "
            + mustEnd
            + " exactly as it was committed ("
            + why
            + ", at checkpoint "
            + checkpointId
            + "): continuing would write rows twice or lose them. Stop the query and restore the"
            + " same snapshot again; if this repeats, restore the newest snapshot instead.");
  }
}
