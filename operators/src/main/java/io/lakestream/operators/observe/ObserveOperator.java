package io.lakestream.operators.observe;

import io.lakestream.api.annotation.Internal;
import io.lakestream.state.checkpoint.CheckpointLocation;
import io.lakestream.state.checkpoint.ObservationRecord;
import io.lakestream.state.query.QueryContext;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.ChainingStrategy;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * Passes rows through and adds each to its aggregates' shares; when a checkpoint's barrier arrives
 * (every row of the epoch before it has been added, as checkpoints are aligned) it writes the
 * shares to {@code observed/N/} in the checkpoint location, named by observation, subtask, run and
 * attempt, and starts the next epoch from zero. It keeps no state: after a failure the restored run
 * re-reads the epoch's rows and counts them afresh, and the runner uses only the shares of the
 * attempt that completed the epoch.
 *
 * <p>Every subtask writes at every checkpoint, also without rows (the runner needs each subtask's
 * attempt). A failed write fails the checkpoint, which Flink retries: values are never published
 * from a part of the subtasks.
 */
@Internal
public final class ObserveOperator<T> extends AbstractStreamOperator<T>
    implements OneInputStreamOperator<T, T> {
  private static final long serialVersionUID = 1L;

  private final QueryContext query;
  private final String name;
  private final List<ObservedAggregate<T>> aggregates;
  private transient List<ObservedShare> shares;
  private transient CheckpointLocation location;

  ObserveOperator(QueryContext query, String name, List<ObservedAggregate<T>> aggregates) {
    this.query = query;
    this.name = name;
    this.aggregates = List.copyOf(aggregates);
    setChainingStrategy(ChainingStrategy.ALWAYS); // runs in its input's task, as a map would
  }

  @Override
  public void open() throws Exception {
    super.open();
    location = new CheckpointLocation(URI.create(query.checkpointLocation()));
    shares = freshShares();
  }

  @Override
  public void processElement(StreamRecord<T> element) throws Exception {
    T row = element.getValue();
    for (int i = 0; i < aggregates.size(); i++) {
      aggregates.get(i).add(row, shares.get(i));
    }
    output.collect(element);
  }

  @Override
  public void snapshotState(StateSnapshotContext context) throws Exception {
    super.snapshotState(context);
    long epoch = context.getCheckpointId();
    var task = getRuntimeContext().getTaskInfo();
    Map<String, Object> values = new LinkedHashMap<>();
    for (int i = 0; i < aggregates.size(); i++) {
      ObservedAggregate<T> aggregate = aggregates.get(i);
      Map<String, Object> share = shares.get(i).toRecord(aggregate.kind());
      if (aggregate.kind() == ObservedAggregate.Kind.RATIO) {
        share.put("numerator", aggregate.numerator());
        share.put("denominator", aggregate.denominator());
      }
      values.put(aggregate.name(), share);
    }
    new ObservationRecord(
            name,
            query.runId(),
            task.getIndexOfThisSubtask(),
            task.getNumberOfParallelSubtasks(),
            task.getAttemptNumber())
        .write(location.epochs(), epoch, values);
    shares = freshShares();
  }

  private List<ObservedShare> freshShares() {
    List<ObservedShare> fresh = new ArrayList<>(aggregates.size());
    for (int i = 0; i < aggregates.size(); i++) {
      fresh.add(new ObservedShare());
    }
    return fresh;
  }
}
