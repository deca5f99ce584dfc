package io.lakestream.connectors.lakebase.sink.writer;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.sink.CommitRecordListener;
import io.lakestream.connectors.sink.EpochCommitOutcome;
import java.io.Serializable;

/**
 * What one Lakebase sink subtask wrote in an epoch, recorded in the query's checkpoint location
 * ({@code commits/N/<sink>.subtask-<i>}) for the query's progress: the runner adds up a sink's
 * subtasks into {@code sink.numOutputRows} and shows {@code sink.description}, which names the
 * table and the delivery guarantee. The exactly-once committer records an epoch once it is applied;
 * the at-least-once writer once the epoch's rows are flushed (at the barrier). A record that cannot
 * be written is logged and skipped ({@link CommitRecordListener}): the rows are written regardless.
 */
@Internal
public final class LakebaseCommitRecords implements Serializable {
  private static final long serialVersionUID = 1L;

  private final String checkpointLocation;
  private final String sinkName;
  private final String description;

  /**
   * @param checkpointLocation the query's checkpoint location
   * @param sinkName the sink's name in the records, e.g. {@code lakebase-public.orders}
   * @param description the sink for people, e.g. {@code LakebaseSink[public.orders, exactly-once]}
   */
  public LakebaseCommitRecords(String checkpointLocation, String sinkName, String description) {
    this.checkpointLocation = checkpointLocation;
    this.sinkName = sinkName;
    this.description = description;
  }

  /** The sink for people, as progress shows it. */
  public String description() {
    return description;
  }

  /** Records that {@code subtask} wrote {@code rows} rows in {@code epoch}. */
  public void record(long epoch, int subtask, long rows) {
    EpochCommitOutcome outcome =
        rows == 0
            ? EpochCommitOutcome.empty(epoch)
            : new EpochCommitOutcome(epoch, EpochCommitOutcome.Status.COMMITTED, rows, 0, 0, "");
    new CommitRecordListener(
            checkpointLocation, sinkName, description, sinkName + ".subtask-" + subtask)
        .onEpochCommitted(outcome, Long.MIN_VALUE);
  }
}
