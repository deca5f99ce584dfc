package io.lakestream.pipelines.gold;

import io.lakestream.api.annotation.Internal;
import io.lakestream.state.query.DeclaresStateSchema;
import java.util.TreeSet;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.ChainingStrategy;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * The gold aggregate, keyed by day, in update output mode: applies each {@link OrderChange} to the
 * day's {@link DailyTotals} (keyed {@code ValueState}, POJO-serialized, so RocksDB stores it
 * without Kryo) and, just before each checkpoint barrier, emits the new absolute totals of every
 * day that changed in the epoch, once. So an epoch's output is one row per changed day (a nightly
 * run over a million changes to a week of orders stages a handful of rows), not one per change.
 *
 * <p>Consistency: the days changed since the last barrier are held in memory only and emitted (then
 * forgotten) in {@link #prepareSnapshotPreBarrier}, so every snapshot is taken with nothing
 * pending: the totals emitted for epoch N are exactly the state checkpoint N holds, and after a
 * restore the replayed changes mark their days again. End of input (a bounded run) emits too. The
 * state of a day is kept when its orders drop to zero, so {@link DailyTotals#changeRows} never goes
 * back.
 */
@Internal
public final class DailyTotalsOperator extends AbstractStreamOperator<DailyTotals>
    implements OneInputStreamOperator<OrderChange, DailyTotals>, DeclaresStateSchema {
  private static final long serialVersionUID = 1L;

  /** The state's type information: Flink's POJO type (asserted by a test, never generic). */
  public static final TypeInformation<DailyTotals> STATE_TYPE =
      TypeInformation.of(DailyTotals.class);

  private final boolean emitEachChange;
  private transient ValueState<DailyTotals> totals;
  private transient TreeSet<Long> changedDays;

  /** Emits the changed days' totals once per epoch, at the checkpoint barrier. */
  public DailyTotalsOperator() {
    this(false);
  }

  /**
   * @param emitEachChange emit a day's new totals right after each change (realTime: latency of a
   *     record, not of an epoch; {@link DailyTotals#changeRows} grows with every row emitted for a
   *     day, so a sink can refuse a replayed, older one), else once per epoch at the barrier
   */
  public DailyTotalsOperator(boolean emitEachChange) {
    this.emitEachChange = emitEachChange;
    chainingStrategy = ChainingStrategy.ALWAYS;
  }

  @Override
  public void open() throws Exception {
    super.open();
    totals = getPartitionedState(new ValueStateDescriptor<>("daily-totals", STATE_TYPE));
    changedDays = new TreeSet<>();
  }

  @Override
  public void processElement(StreamRecord<OrderChange> element) throws Exception {
    OrderChange change = element.getValue();
    DailyTotals current = totals.value();
    if (current == null) {
      current = new DailyTotals();
      current.epochDay = change.epochDay;
    }
    DailyTotals updated = current.apply(change);
    totals.update(updated);
    if (emitEachChange) {
      output.collect(new StreamRecord<>(updated));
    } else {
      changedDays.add(change.epochDay);
    }
  }

  @Override
  public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
    super.prepareSnapshotPreBarrier(checkpointId);
    emitChangedDays();
  }

  @Override
  public void finish() throws Exception {
    emitChangedDays();
    super.finish();
  }

  private void emitChangedDays() throws Exception {
    for (Long day : changedDays) {
      setCurrentKey(day);
      output.collect(new StreamRecord<>(totals.value()));
    }
    changedDays.clear();
  }

  @Override
  public String stateSchema() {
    return "daily-totals: ValueState<DailyTotals(epochDay, orders, totalAmount, lastCommitVersion,"
        + " changeRows)>; v1";
  }
}
