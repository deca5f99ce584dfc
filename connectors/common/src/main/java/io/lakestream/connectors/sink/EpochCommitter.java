package io.lakestream.connectors.sink;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import org.apache.flink.api.connector.sink2.Committer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits epochs, oldest first, through an {@link EpochCommitAction}, and reports each outcome to
 * the query's {@link EpochListener}. Only committer subtask 0 ever receives epochs.
 *
 * <p>A failing commit is not retried here: the exception fails the job, which restores from the
 * last checkpoint and commits the epoch again (the action is idempotent). Local retries would hide
 * a broken sink behind a hanging query.
 */
final class EpochCommitter<R> implements Committer<EpochCommittable<R>> {
  private static final Logger LOG = LoggerFactory.getLogger(EpochCommitter.class);

  private final EpochCommitAction<R> action;
  private final EpochListener listener;
  private final int parallelism;
  private boolean opened;

  /**
   * @param parallelism the sink's parallelism, passed to {@link EpochCommitAction#open(int)}
   */
  EpochCommitter(EpochCommitAction<R> action, EpochListener listener, int parallelism) {
    this.action = action;
    this.listener = listener;
    this.parallelism = parallelism;
  }

  @Override
  public void commit(Collection<CommitRequest<EpochCommittable<R>>> requests)
      throws IOException, InterruptedException {
    if (!opened) {
      action.open(parallelism);
      opened = true;
    }
    List<CommitRequest<EpochCommittable<R>>> ordered = new ArrayList<>(requests);
    ordered.sort(Comparator.comparingLong(r -> r.getCommittable().epoch()));
    for (CommitRequest<EpochCommittable<R>> request : ordered) {
      EpochCommittable<R> committable = request.getCommittable();
      long started = System.nanoTime();
      EpochCommitOutcome outcome = action.commit(committable.epoch(), committable.results());
      long tookMillis = (System.nanoTime() - started) / 1_000_000;
      LOG.debug("epoch {} -> {} in {} ms", committable.epoch(), outcome, tookMillis);
      listener.onEpochCommitted(outcome, committable.watermark(), tookMillis);
    }
  }

  @Override
  public void close() throws Exception {
    if (opened) {
      action.close();
    }
  }
}
