package io.lakestream.operators.dedup;

import io.lakestream.operators.row.Values;
import io.lakestream.operators.row.ValuesSerializer;
import io.lakestream.operators.state.StateMetrics;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeutils.base.LongSerializer;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.state.VoidNamespace;
import org.apache.flink.runtime.state.VoidNamespaceSerializer;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.InternalTimer;
import org.apache.flink.streaming.api.operators.InternalTimerService;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.operators.Triggerable;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.util.OutputTag;

/**
 * {@code dropDuplicatesWithinWatermark(keys)}: on a stream keyed by the key columns, the first row
 * of a key passes and sets the key's bound = its event time + delay; later rows with the same key
 * are dropped while the bound is above the watermark. An event-time timer at the bound frees the
 * key's state when the watermark reaches it; the next row with that key then passes again. State
 * per key: one {@code long} (the bound) in a {@link ValueState} with {@link LongSerializer}.
 *
 * <p>Rows behind the watermark on arrival (event time &lt; watermark) are late: dropped and counted
 * in {@value StateMetrics#NUM_ROWS_DROPPED_BY_WATERMARK}, or sent to the late-row side output if
 * one was given. Dropped duplicates are counted in {@value #NUM_DUPLICATES_DROPPED}. Metrics: see
 * {@link StateMetrics} (rows = keys held).
 *
 * <p>Fails the task with an {@link IllegalStateException} if a row carries no event time (no
 * watermark assigner upstream), which the builder also checks before the job runs.
 */
public final class WatermarkDeduplicator<T> extends AbstractStreamOperator<T>
    implements OneInputStreamOperator<T, T>, Triggerable<Values, VoidNamespace> {
  private static final long serialVersionUID = 1L;

  /** Counter of rows dropped as duplicates, next to the {@link StateMetrics}. */
  public static final String NUM_DUPLICATES_DROPPED = "numDuplicatesDropped";

  static final String STATE_NAME = "dedup-bound";

  private final long delayMillis;
  private final String uid;
  private final OutputTag<T> lateRows;
  private transient ValueState<Long> bound;
  private transient InternalTimerService<VoidNamespace> timers;
  private transient StateMetrics metrics;
  private transient Counter duplicates;

  /**
   * @param delayMillis the watermark delay added to a key's first event time
   * @param uid the operator's uid, names its metric group
   * @param lateRows side output for late rows, or null to drop them (counted)
   */
  public WatermarkDeduplicator(long delayMillis, String uid, OutputTag<T> lateRows) {
    if (delayMillis < 0) {
      throw new IllegalArgumentException("delay must be >= 0, was " + delayMillis);
    }
    this.delayMillis = delayMillis;
    this.uid = uid;
    this.lateRows = lateRows;
  }

  static ValueStateDescriptor<Long> descriptor() {
    return new ValueStateDescriptor<>(STATE_NAME, LongSerializer.INSTANCE);
  }

  @Override
  public void open() throws Exception {
    super.open();
    bound = getPartitionedState(descriptor());
    timers = getInternalTimerService("dedup-expiry", VoidNamespaceSerializer.INSTANCE, this);
    metrics = StateMetrics.register(getMetricGroup(), uid);
    duplicates = metrics.group().counter(NUM_DUPLICATES_DROPPED);
    long[] rows = {0};
    getKeyedStateBackend()
        .applyToAllKeys(
            VoidNamespace.INSTANCE,
            VoidNamespaceSerializer.INSTANCE,
            descriptor(),
            (key, state) -> rows[0]++);
    metrics.restoredRows(rows[0]);
  }

  @Override
  public void processElement(StreamRecord<T> element) throws Exception {
    if (!element.hasTimestamp()) {
      throw new IllegalStateException(
          "dropDuplicatesWithinWatermark ("
              + uid
              + ") received a row without an event time. Add Watermarks.withWatermark(stream,"
              + " eventTime, delay, uid) before it.");
    }
    long ts = element.getTimestamp();
    long watermark = timers.currentWatermark();
    if (ts < watermark) {
      metrics.droppedByWatermark();
      if (lateRows != null) {
        output.collect(lateRows, element);
      }
      return;
    }
    Long current = bound.value();
    if (current != null && current > watermark) {
      duplicates.inc();
      return;
    }
    long newBound = ts > Long.MAX_VALUE - delayMillis ? Long.MAX_VALUE : ts + delayMillis;
    bound.update(newBound);
    timers.registerEventTimeTimer(VoidNamespace.INSTANCE, newBound);
    if (current == null) {
      metrics.rowAdded(
          (Values) getCurrentKey(), ValuesSerializer.INSTANCE, newBound, LongSerializer.INSTANCE);
    } else {
      metrics.rowUpdated();
    }
    output.collect(element);
  }

  @Override
  public void onEventTime(InternalTimer<Values, VoidNamespace> timer) throws Exception {
    Long current = bound.value();
    if (current != null && current <= timer.getTimestamp()) {
      bound.clear();
      metrics.rowRemoved();
    }
  }

  @Override
  public void onProcessingTime(InternalTimer<Values, VoidNamespace> timer) {}

  @Override
  public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
    super.prepareSnapshotPreBarrier(checkpointId);
    metrics.epochEnded(checkpointId);
  }

  /** This subtask's state metrics. */
  public StateMetrics metrics() {
    return metrics;
  }
}
