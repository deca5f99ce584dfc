package io.lakestream.connectors.sink;

import io.lakestream.api.annotation.Internal;
import java.io.IOException;
import java.io.Serializable;
import java.util.List;

/**
 * Makes one epoch's results visible, atomically and idempotently. Free of Flink so table logic can
 * be tested without a cluster.
 *
 * <p>Contract: {@link #commit} may be called again for an epoch that is already committed (after a
 * restore from a checkpoint taken before the commit was acknowledged); it must then change nothing
 * and report {@link EpochCommitOutcome.Status#ALREADY_COMMITTED}. It is called for epochs in
 * increasing order. An exception fails the query; the epoch is retried whole after restore.
 *
 * @param <R> what a writer produced for the epoch
 */
@Internal
public interface EpochCommitAction<R> extends Serializable {

  /** Called once per committer instance before the first commit. */
  default void open() throws IOException {}

  /**
   * Called once per committer instance before the first commit, instead of {@link #open()}, with
   * the parallelism of the sink: the threads the action may use for its own per-epoch work (for
   * example a MERGE rewriting files in parallel). By default {@link #open()}.
   */
  default void open(int parallelism) throws IOException {
    open();
  }

  /** Commits all results of {@code epoch} as one unit. */
  EpochCommitOutcome commit(long epoch, List<R> results) throws IOException;

  /** Releases resources. */
  default void close() throws IOException {}
}
