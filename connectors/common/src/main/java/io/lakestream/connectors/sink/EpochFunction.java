package io.lakestream.connectors.sink;

import io.lakestream.api.annotation.PublicEvolving;
import java.io.Serializable;
import java.util.List;

/**
 * User code run once per epoch at commit time, as Spark's {@code foreachBatch}: it gets the epoch
 * id and all rows the query emitted in the epoch ({@code Object[]} in the declared column order),
 * as an in-memory list it may pass over several times (for example a MERGE into one table and an
 * append into another) without re-reading the source.
 *
 * <p>At-least-once: after a failure the epoch is run again whole with the same rows, so the
 * function must be idempotent per epoch, typically by committing with {@code txn(appId, epoch)}
 * ({@link io.lakestream.connectors.delta.merge.DeltaMergeCommit} and {@link
 * io.lakestream.connectors.delta.DeltaAppendCommit} skip an epoch they already committed). An
 * exception fails the query; the epoch is retried after the restore from the last checkpoint, never
 * locally.
 */
@PublicEvolving
@FunctionalInterface
public interface EpochFunction extends Serializable {
  /**
   * Called once before the first epoch of a sink instance with the sink's parallelism: the threads
   * the function may use for one epoch's work ({@link
   * io.lakestream.connectors.delta.merge.DeltaMergeCommit#asEpochFunction()} rewrites that many
   * files at once). By default nothing.
   */
  default void open(int parallelism) throws Exception {}

  /** Processes the rows of {@code epoch}. */
  void call(long epoch, List<Object[]> rows) throws Exception;
}
