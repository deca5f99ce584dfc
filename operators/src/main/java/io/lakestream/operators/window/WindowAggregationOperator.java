package io.lakestream.operators.window;

import io.lakestream.api.annotation.Internal;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.operators.OperatorErrorClass;
import io.lakestream.operators.row.Values;
import io.lakestream.operators.row.ValuesSerializer;
import io.lakestream.operators.state.StateMetrics;
import io.lakestream.state.query.OutputMode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.typeutils.base.LongSerializer;
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
 * A windowed aggregation on a stream keyed by the group's key columns ({@link Values}). State per
 * key: a {@link MapState} from window start (microseconds, {@link LongSerializer}) to its {@link
 * WindowAccumulator} ({@link WindowAccumulatorSerializer}).
 *
 * <p>A window {@code [start, end)} is <em>closed</em> once the watermark reaches its end ({@code
 * watermark >= end}). Emission by {@link OutputMode}:
 *
 * <ul>
 *   <li>APPEND: each window once, when it closes (event-time timer at its end); its state is then
 *       dropped.
 *   <li>UPDATE: the windows changed since the last emission, at each checkpoint barrier ({@link
 *       #prepareSnapshotPreBarrier}, so they belong to that epoch) and at end of input; a window
 *       that closes first is emitted as it closes. Closed windows are dropped from state.
 *   <li>COMPLETE: every window of every group at each checkpoint barrier and at end of input. No
 *       window ever closes and no row is late: state is never dropped.
 * </ul>
 *
 * <p>Late rows: in APPEND and UPDATE mode a row contributes only to its windows that are still
 * open. A row all of whose windows are closed is late: counted in {@value
 * StateMetrics#NUM_ROWS_DROPPED_BY_WATERMARK} and dropped, or sent to the late-row side output if
 * one was given. (For tumbling windows this means event time &lt; watermark and its window already
 * closed; a sliding-window row keeps counting in its open windows.) Metrics: {@link StateMetrics},
 * with one row per open (window, group).
 *
 * <p>Fails the task with an {@link LakestreamException} ({@code EVENT_TIME_MISSING}) if a row
 * carries no event time and no {@link EventTimeMicros} was given.
 */
@Internal
public final class WindowAggregationOperator<T> extends AbstractStreamOperator<WindowAggregate>
    implements OneInputStreamOperator<T, WindowAggregate>, Triggerable<Values, VoidNamespace> {
  private static final long serialVersionUID = 1L;

  static final String STATE_NAME = "window-aggregates";

  private final WindowSpec windows;
  private final ValueColumn<T> column;
  private final EventTimeMicros<T> eventTimeMicros;
  private final OutputMode mode;
  private final String uid;
  private final OutputTag<T> lateRows;
  private transient MapState<Long, WindowAccumulator> state;
  private transient InternalTimerService<VoidNamespace> timers;
  private transient StateMetrics metrics;
  private transient Map<Values, TreeSet<Long>> changed;
  private transient boolean finished;

  /**
   * @param column the aggregated column, or null for {@code count(*)} only
   * @param eventTimeMicros the event time in microseconds, or null to use the record timestamp
   * @param lateRows side output for late rows, or null to drop them (counted)
   */
  public WindowAggregationOperator(
      WindowSpec windows,
      ValueColumn<T> column,
      EventTimeMicros<T> eventTimeMicros,
      OutputMode mode,
      String uid,
      OutputTag<T> lateRows) {
    this.windows = windows;
    this.column = column;
    this.eventTimeMicros = eventTimeMicros;
    this.mode = mode;
    this.uid = uid;
    this.lateRows = lateRows;
  }

  static MapStateDescriptor<Long, WindowAccumulator> descriptor() {
    return new MapStateDescriptor<>(
        STATE_NAME, LongSerializer.INSTANCE, WindowAccumulatorSerializer.INSTANCE);
  }

  @Override
  public void open() throws Exception {
    super.open();
    state = getPartitionedState(descriptor());
    timers = getInternalTimerService("window-close", VoidNamespaceSerializer.INSTANCE, this);
    metrics = StateMetrics.register(getMetricGroup(), uid);
    changed = new LinkedHashMap<>();
    long[] rows = {0};
    getKeyedStateBackend()
        .applyToAllKeys(
            VoidNamespace.INSTANCE,
            VoidNamespaceSerializer.INSTANCE,
            descriptor(),
            (key, windowsOfKey) -> windowsOfKey.keys().forEach(start -> rows[0]++));
    metrics.restoredRows(rows[0]);
  }

  @Override
  public void processElement(StreamRecord<T> element) throws Exception {
    T row = element.getValue();
    long ts = eventTimeMicros(element);
    long watermark = toMicros(timers.currentWatermark());
    Double value = column == null ? null : column.value(row);
    Values key = (Values) getCurrentKey();
    boolean counted = false;
    for (long start : windows.windowStarts(ts)) {
      long end = start + windows.sizeMicros();
      if (mode != OutputMode.COMPLETE && end <= watermark) {
        continue; // this window is closed
      }
      counted = true;
      WindowAccumulator acc = state.get(start);
      boolean added = acc == null;
      if (added) {
        acc = new WindowAccumulator();
      }
      acc.add(value);
      state.put(start, acc);
      if (added) {
        metrics.rowAdded(key, ValuesSerializer.INSTANCE, acc, WindowAccumulatorSerializer.INSTANCE);
        if (mode != OutputMode.COMPLETE) {
          timers.registerEventTimeTimer(VoidNamespace.INSTANCE, closingMillis(end));
        }
      } else {
        metrics.rowUpdated();
      }
      if (mode == OutputMode.UPDATE) {
        changed.computeIfAbsent(key, k -> new TreeSet<>()).add(start);
      }
    }
    if (!counted) {
      metrics.droppedByWatermark();
      if (lateRows != null) {
        output.collect(lateRows, element);
      }
    }
  }

  private long eventTimeMicros(StreamRecord<T> element) {
    if (eventTimeMicros != null) {
      return eventTimeMicros.eventTimeMicros(element.getValue());
    }
    if (!element.hasTimestamp()) {
      throw new LakestreamException(
          OperatorErrorClass.EVENT_TIME_MISSING,
          "window aggregation ("
              + uid
              + ") received a row without an event time. Add Watermarks.withWatermark(stream,"
              + " eventTime, delay, uid) before it, or set"
              + " WindowAggregationBuilder.eventTimeMicros(...).");
    }
    return toMicros(element.getTimestamp());
  }

  /** Watermark or timestamp in ms to µs, keeping the MIN/MAX sentinels. */
  static long toMicros(long millis) {
    if (millis <= Long.MIN_VALUE / 1_000) {
      return Long.MIN_VALUE;
    }
    if (millis >= Long.MAX_VALUE / 1_000) {
      return Long.MAX_VALUE;
    }
    return millis * 1_000;
  }

  /** The first watermark (ms) at which a window ending at {@code endMicros} is closed. */
  static long closingMillis(long endMicros) {
    return -Math.floorDiv(-endMicros, 1_000L);
  }

  @Override
  public void onEventTime(InternalTimer<Values, VoidNamespace> timer) throws Exception {
    long watermark = toMicros(timers.currentWatermark());
    List<Long> closed = new ArrayList<>();
    for (Long start : state.keys()) {
      if (start + windows.sizeMicros() <= watermark) {
        closed.add(start);
      }
    }
    closed.sort(null);
    Values key = timer.getKey();
    TreeSet<Long> pending = changed.get(key);
    for (long start : closed) {
      if (mode == OutputMode.APPEND || (pending != null && pending.remove(start))) {
        emit(key, start, state.get(start));
      }
      state.remove(start);
      metrics.rowRemoved();
    }
    if (pending != null && pending.isEmpty()) {
      changed.remove(key);
    }
  }

  @Override
  public void onProcessingTime(InternalTimer<Values, VoidNamespace> timer) {}

  private void emit(Values key, long start, WindowAccumulator acc) {
    long end = start + windows.sizeMicros();
    output.collect(
        new StreamRecord<>(WindowAggregate.of(key, start, end, acc), closingMillis(end) - 1));
  }

  @Override
  public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
    super.prepareSnapshotPreBarrier(checkpointId);
    if (!finished) {
      emitEpoch();
    }
    metrics.epochEnded(checkpointId);
  }

  @Override
  public void finish() throws Exception {
    emitEpoch();
    finished = true;
    super.finish();
  }

  /** Emits what the mode emits at an epoch end. */
  private void emitEpoch() throws Exception {
    if (mode == OutputMode.UPDATE) {
      for (Map.Entry<Values, TreeSet<Long>> e : changed.entrySet()) {
        setCurrentKey(e.getKey());
        for (long start : e.getValue()) {
          WindowAccumulator acc = state.get(start);
          if (acc != null) {
            emit(e.getKey(), start, acc);
          }
        }
      }
      changed.clear();
    } else if (mode == OutputMode.COMPLETE) {
      getKeyedStateBackend()
          .applyToAllKeys(
              VoidNamespace.INSTANCE,
              VoidNamespaceSerializer.INSTANCE,
              descriptor(),
              (key, windowsOfKey) -> {
                List<Long> starts = new ArrayList<>();
                windowsOfKey.keys().forEach(starts::add);
                starts.sort(null);
                for (long start : starts) {
                  emit((Values) key, start, windowsOfKey.get(start));
                }
              });
    }
  }

  /** This subtask's state metrics. */
  public StateMetrics metrics() {
    return metrics;
  }
}
