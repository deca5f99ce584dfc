package io.lakestream.connectors.sink;

import java.io.Serializable;

/**
 * Told about every committed epoch, on the committer's task. Implementations must be quick and must
 * not throw: a listener failure is logged by the caller's logger and would otherwise fail the
 * query.
 */
@FunctionalInterface
public interface EpochListener extends Serializable {

  /** Called after an epoch's commit returned. */
  void onEpochCommitted(EpochCommitOutcome outcome);

  /** A listener that does nothing. */
  static EpochListener none() {
    return outcome -> {};
  }
}
