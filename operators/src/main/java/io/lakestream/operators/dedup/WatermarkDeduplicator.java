package io.lakestream.operators.dedup;

import io.lakestream.api.annotation.Internal;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.operators.OperatorErrorClass;
import io.lakestream.operators.row.Values;
import io.lakestream.operators.row.ValuesSerializer;
import io.lakestream.operators.state.StateMetrics;
import java.util.ArrayList;
import java.util.List;
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
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.util.OutputTag;

/**
 * {@code dropDuplicatesWithinWatermark(keys)}: on a stream keyed by the key columns, the first row
 * of a key passes and sets the key's bound = its event time + delay; later rows with the same key
 * are dropped while the bound is above the watermark; once the watermark reaches the bound, the
 * next row with that key passes again. State per key: one {@code long} (the bound) in a {@link
 * ValueState} with {@link LongSerializer}.
 *
 * <p>Expired keys are freed at the end of each epoch (before the checkpoint barrier), as Spark
 * evicts at the end of each micro-batch: a scan of the keys runs only when the watermark has passed
 * the smallest bound held, and removes every key whose bound it passed; the final watermark of a
 * bounded input frees every key at once. No timer per key: a RocksDB timer per key cost more than
 * the deduplication itself. (Timers restored from savepoints of earlier versions still fire and
 * free their keys.) A job without checkpointing has no epoch ends: there the operator falls back to
 * one event-time timer per key at its bound, so the state stays bounded either way.
 *
 * <p>With checkpointing, a Bloom filter of the keys held ({@link AdmittedKeys}, on the heap, never
 * stored) spares the state lookup for a key the state certainly does not hold, which is most rows:
 * it is filled from the state on open (a restore included) and on every admission, grows by layers
 * as keys come (no walk of the state for that), and is rebuilt from the keys left by each sweep.
 *
 * <p>Rows behind the watermark on arrival (event time &lt; watermark) are late: dropped and counted
 * in {@value StateMetrics#NUM_ROWS_DROPPED_BY_WATERMARK}, or sent to the late-row side output if
 * one was given. Dropped duplicates are counted in {@value #NUM_DUPLICATES_DROPPED}. Metrics: see
 * {@link StateMetrics} (rows = keys held).
 *
 * <p>Fails the task with an {@link LakestreamException} ({@code EVENT_TIME_MISSING}) if a row
 * carries no event time (no watermark assigner upstream), which the builder also checks before the
 * job runs.
 */
@Internal
public final class WatermarkDeduplicator<T> extends AbstractStreamOperator<T>
    implements OneInputStreamOperator<T, T>, Triggerable<Values, VoidNamespace> {
  private static final long serialVersionUID = 1L;

  /** Counter of rows dropped as duplicates, next to the {@link StateMetrics}. */
  public static final String NUM_DUPLICATES_DROPPED = "numDuplicatesDropped";

  static final String STATE_NAME = "dedup-bound";

  private final long delayMillis;
  private final String uid;
  private final OutputTag<T> lateRows;
  private final int filterCapacity;
  private transient ValueState<Long> bound;
  private transient InternalTimerService<VoidNamespace> timers;
  private transient StateMetrics metrics;
  private transient Counter duplicates;

  /** The smallest bound this subtask may hold (Long.MAX_VALUE: none). */
  private transient long minLiveBound;

  /** No checkpoints, so no epoch ends to free keys at: a timer per key frees them instead. */
  private transient boolean timerPerKey;

  /** The keys the state may hold (null without checkpointing: no epoch ends to rebuild it at). */
  private transient AdmittedKeys admitted;

  /**
   * @param delayMillis the watermark delay added to a key's first event time
   * @param uid the operator's uid, names its metric group
   * @param lateRows side output for late rows, or null to drop them (counted)
   */
  public WatermarkDeduplicator(long delayMillis, String uid, OutputTag<T> lateRows) {
    this(delayMillis, uid, lateRows, AdmittedKeys.INITIAL_CAPACITY);
  }

  /** With the key filter first sized for {@code filterCapacity} keys (tests fill it). */
  WatermarkDeduplicator(long delayMillis, String uid, OutputTag<T> lateRows, int filterCapacity) {
    if (delayMillis < 0) {
      throw new IllegalArgumentException("delay must be >= 0, was " + delayMillis);
    }
    this.delayMillis = delayMillis;
    this.uid = uid;
    this.lateRows = lateRows;
    this.filterCapacity = filterCapacity;
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
    timerPerKey = !getOperatorConfig().isCheckpointingEnabled();
    admitted = timerPerKey ? null : new AdmittedKeys(filterCapacity);
    metrics.restoredRows(sweep(Long.MIN_VALUE)); // counts the keys and their smallest bound
  }

  @Override
  public void processElement(StreamRecord<T> element) throws Exception {
    if (!element.hasTimestamp()) {
      throw new LakestreamException(
          OperatorErrorClass.EVENT_TIME_MISSING,
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
    Values key = (Values) getCurrentKey();
    Long current = admitted == null || admitted.mightContain(key) ? bound.value() : null;
    if (current != null && current > watermark) {
      duplicates.inc();
      return;
    }
    long newBound = ts > Long.MAX_VALUE - delayMillis ? Long.MAX_VALUE : ts + delayMillis;
    bound.update(newBound);
    if (admitted != null && current == null) {
      admitted.add(key);
    }
    minLiveBound = Math.min(minLiveBound, newBound);
    if (timerPerKey) {
      timers.registerEventTimeTimer(VoidNamespace.INSTANCE, newBound);
    }
    if (current == null) {
      metrics.rowAdded(key, ValuesSerializer.INSTANCE, newBound, LongSerializer.INSTANCE);
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

  /** The final watermark of a bounded input frees every key, as the timers did. */
  @Override
  public void processWatermark(Watermark mark) throws Exception {
    super.processWatermark(mark);
    if (mark.getTimestamp() == Long.MAX_VALUE && minLiveBound != Long.MAX_VALUE) {
      sweep(Long.MAX_VALUE);
    }
  }

  @Override
  public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
    super.prepareSnapshotPreBarrier(checkpointId);
    long watermark = timers.currentWatermark();
    if (watermark >= minLiveBound) {
      sweep(watermark);
    }
    metrics.epochEnded(checkpointId);
  }

  /**
   * Walks every key of this subtask: frees those whose bound {@code watermark} reached, keeps the
   * smallest bound left in {@code minLiveBound}, refills the key filter with the keys left, and
   * returns how many keys are left. The expired keys are collected first and freed after the walk
   * (a heap backend's key set must not change under its iterator).
   */
  private long sweep(long watermark) throws Exception {
    List<Values> expired = new ArrayList<>();
    long[] liveAndMin = {0, Long.MAX_VALUE};
    AdmittedKeys live = admitted == null ? null : admitted.emptyNext();
    getKeyedStateBackend()
        .applyToAllKeys(
            VoidNamespace.INSTANCE,
            VoidNamespaceSerializer.INSTANCE,
            descriptor(),
            (key, state) -> {
              Long held = state.value();
              if (held == null) {
                return;
              }
              if (held <= watermark) {
                expired.add((Values) key);
              } else {
                liveAndMin[0]++;
                liveAndMin[1] = Math.min(liveAndMin[1], held);
                if (live != null) {
                  live.add(key);
                }
              }
            });
    for (Values key : expired) {
      setCurrentKey(key);
      bound.clear();
      metrics.rowRemoved();
    }
    minLiveBound = liveAndMin[1];
    admitted = live;
    return liveAndMin[0];
  }

  /** This subtask's state metrics. */
  public StateMetrics metrics() {
    return metrics;
  }
}
