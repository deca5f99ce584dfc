package io.lakestream.connectors.sink;

import io.lakestream.api.annotation.Internal;
import java.io.Serializable;

/**
 * Told about every committed epoch, on the committer's task. Implementations must be quick and must
 * not throw: a listener failure is logged by the caller's logger and would otherwise fail the
 * query.
 */
@Internal
@FunctionalInterface
public interface EpochListener extends Serializable {

  /**
   * Called after an epoch's commit returned.
   *
   * @param watermark the sink's event-time watermark at the end of the epoch ({@code
   *     Long.MIN_VALUE} if none)
   */
  void onEpochCommitted(EpochCommitOutcome outcome, long watermark);

  /**
   * Called after an epoch's commit returned, with how long the commit took; by default {@link
   * #onEpochCommitted(EpochCommitOutcome, long)}.
   *
   * @param commitMillis the time the sink's commit of the epoch took, measured around it
   */
  default void onEpochCommitted(EpochCommitOutcome outcome, long watermark, long commitMillis) {
    onEpochCommitted(outcome, watermark);
  }

  /** A listener that does nothing. */
  static EpochListener none() {
    return (outcome, watermark) -> {};
  }
}
