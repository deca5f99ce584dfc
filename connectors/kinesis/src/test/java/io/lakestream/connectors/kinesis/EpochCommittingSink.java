package io.lakestream.connectors.kinesis;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.functions.sink.RichSinkFunction;

/**
 * A test sink that commits each epoch's lines when its checkpoint completes, idempotently per
 * (subtask, checkpoint) — like a transactional sink — so the committed lines are exactly what an
 * exactly-once writer would leave, whatever the restarts. Run it with parallelism 1 to keep order.
 */
@SuppressWarnings("deprecation")
final class EpochCommittingSink extends RichSinkFunction<String>
    implements CheckpointedFunction, CheckpointListener {
  private static final Map<String, Map<Long, List<String>>> COMMITTED = new ConcurrentHashMap<>();

  private final String name;
  private transient List<String> open;
  private transient TreeMap<Long, List<String>> staged;
  private transient ListState<Tuple2<Long, List<String>>> state;

  EpochCommittingSink(String name) {
    this.name = name;
  }

  /** The committed lines of sink {@code name}, in epoch order. */
  static List<String> committed(String name) {
    List<String> lines = new ArrayList<>();
    new TreeMap<>(COMMITTED.getOrDefault(name, Map.of())).values().forEach(lines::addAll);
    return lines;
  }

  /** The committed lines of sink {@code name}, per epoch in epoch order. */
  static List<List<String>> committedEpochs(String name) {
    return new ArrayList<>(new TreeMap<>(COMMITTED.getOrDefault(name, Map.of())).values());
  }

  @Override
  public void invoke(String line, Context context) {
    open.add(line);
  }

  @Override
  public void snapshotState(FunctionSnapshotContext context) throws Exception {
    staged.put(context.getCheckpointId(), open);
    open = new ArrayList<>();
    state.clear();
    for (Map.Entry<Long, List<String>> e : staged.entrySet()) {
      state.add(Tuple2.of(e.getKey(), e.getValue()));
    }
  }

  @Override
  public void initializeState(FunctionInitializationContext context) throws Exception {
    open = new ArrayList<>();
    staged = new TreeMap<>();
    state =
        context
            .getOperatorStateStore()
            .getListState(
                new ListStateDescriptor<>(
                    "staged", Types.TUPLE(Types.LONG, Types.LIST(Types.STRING))));
    for (Tuple2<Long, List<String>> epoch : state.get()) {
      staged.put(epoch.f0, epoch.f1);
    }
    commitUpTo(Long.MAX_VALUE); // staged in the restored checkpoint, so part of it
  }

  @Override
  public void notifyCheckpointComplete(long checkpointId) {
    commitUpTo(checkpointId);
  }

  private void commitUpTo(long checkpointId) {
    Map<Long, List<String>> done = staged.headMap(checkpointId, true);
    Map<Long, List<String>> committed =
        COMMITTED.computeIfAbsent(name, n -> new ConcurrentHashMap<>());
    done.forEach((epoch, lines) -> committed.putIfAbsent(epoch, List.copyOf(lines)));
    done.clear();
  }
}
