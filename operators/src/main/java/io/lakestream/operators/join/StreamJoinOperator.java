package io.lakestream.operators.join;

import io.lakestream.api.annotation.Internal;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.operators.OperatorErrorClass;
import io.lakestream.operators.row.Values;
import io.lakestream.operators.row.ValuesSerializer;
import io.lakestream.operators.state.StateMetrics;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.base.ListSerializer;
import org.apache.flink.api.common.typeutils.base.LongSerializer;
import org.apache.flink.runtime.state.VoidNamespace;
import org.apache.flink.runtime.state.VoidNamespaceSerializer;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.InternalTimer;
import org.apache.flink.streaming.api.operators.InternalTimerService;
import org.apache.flink.streaming.api.operators.Triggerable;
import org.apache.flink.streaming.api.operators.TwoInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * A stream-stream join on two inputs keyed by their join keys ({@link Values}), with an optional
 * {@link EventTimeRange}. Each side's rows are buffered per key in a {@link MapState} from event
 * time ({@link LongSerializer}) to the rows of that time ({@link ListSerializer} of {@link
 * BufferedRowSerializer} over the side's own row serializer).
 *
 * <p>Per arriving row (event time {@code t}, operator watermark {@code wm} = minimum of both
 * inputs):
 *
 * <ul>
 *   <li>With a range and {@code t < wm}: the row is late, counted in {@value
 *       StateMetrics#NUM_ROWS_DROPPED_BY_WATERMARK} and dropped. Without a range nothing is late.
 *   <li>Otherwise it is joined with every buffered row of the other side whose time is in range
 *       (each pair is emitted once, when its second row arrives, with timestamp max(tL, tR)) and
 *       buffered itself, with an event-time timer just above its expiry (see {@link
 *       EventTimeRange}).
 * </ul>
 *
 * <p>When the watermark passes a row's expiry the row leaves state; in an outer join, a row of the
 * kept side that never matched is then emitted with nulls for the other side (timestamp: its own
 * event time). Every pair of non-late rows that match is emitted exactly once: the earlier of the
 * two is still buffered when the later, non-late one arrives. Without a range nothing expires and
 * state grows forever (the builder warns).
 *
 * <p>Metrics ({@link StateMetrics}): rows = buffered rows of both sides; updated = rows added to
 * state. Fails the task with an {@link LakestreamException} ({@code EVENT_TIME_MISSING}) if a row
 * carries no event time while a range is set.
 */
@Internal
public final class StreamJoinOperator<L, R> extends AbstractStreamOperator<JoinedRow<L, R>>
    implements TwoInputStreamOperator<L, R, JoinedRow<L, R>>, Triggerable<Values, VoidNamespace> {
  private static final long serialVersionUID = 1L;

  static final String LEFT_STATE = "join-left-rows";
  static final String RIGHT_STATE = "join-right-rows";

  private final JoinType type;
  private final EventTimeRange range;
  private final TypeInformation<L> leftType;
  private final TypeInformation<R> rightType;
  private final String uid;
  private transient MapState<Long, List<BufferedRow<L>>> leftRows;
  private transient MapState<Long, List<BufferedRow<R>>> rightRows;
  private transient BufferedRowSerializer<L> leftSerializer;
  private transient BufferedRowSerializer<R> rightSerializer;
  private transient InternalTimerService<VoidNamespace> timers;
  private transient StateMetrics metrics;

  /**
   * @param range the event-time condition, or null for a join on keys only (inner only)
   * @param uid the operator's uid, names its metric group
   */
  public StreamJoinOperator(
      JoinType type,
      EventTimeRange range,
      TypeInformation<L> leftType,
      TypeInformation<R> rightType,
      String uid) {
    if (type != JoinType.INNER && range == null) {
      throw new IllegalArgumentException(type + " join needs an event-time range");
    }
    this.type = type;
    this.range = range;
    this.leftType = leftType;
    this.rightType = rightType;
    this.uid = uid;
  }

  static <T> MapStateDescriptor<Long, List<BufferedRow<T>>> descriptor(
      String name, BufferedRowSerializer<T> rows) {
    return new MapStateDescriptor<>(name, LongSerializer.INSTANCE, new ListSerializer<>(rows));
  }

  @Override
  public void open() throws Exception {
    super.open();
    leftSerializer = new BufferedRowSerializer<>(serializer(leftType));
    rightSerializer = new BufferedRowSerializer<>(serializer(rightType));
    leftRows = getPartitionedState(descriptor(LEFT_STATE, leftSerializer));
    rightRows = getPartitionedState(descriptor(RIGHT_STATE, rightSerializer));
    timers = getInternalTimerService("join-expiry", VoidNamespaceSerializer.INSTANCE, this);
    metrics = StateMetrics.register(getMetricGroup(), uid);
    metrics.restoredRows(
        count(descriptor(LEFT_STATE, leftSerializer))
            + count(descriptor(RIGHT_STATE, rightSerializer)));
  }

  private <T> TypeSerializer<T> serializer(TypeInformation<T> type) {
    return type.createSerializer(getExecutionConfig().getSerializerConfig());
  }

  private <T> long count(MapStateDescriptor<Long, List<BufferedRow<T>>> descriptor)
      throws Exception {
    long[] rows = {0};
    getKeyedStateBackend()
        .applyToAllKeys(
            VoidNamespace.INSTANCE,
            VoidNamespaceSerializer.INSTANCE,
            descriptor,
            (key, state) -> {
              for (List<BufferedRow<T>> list : state.values()) {
                rows[0] += list.size();
              }
            });
    return rows[0];
  }

  @Override
  public void processElement1(StreamRecord<L> element) throws Exception {
    long t = eventTime(element);
    if (late(t)) {
      return;
    }
    boolean matched = false;
    List<Long> changed = new ArrayList<>();
    for (Map.Entry<Long, List<BufferedRow<R>>> e : rightRows.entries()) {
      long tr = e.getKey();
      if (range != null && !range.matches(t, tr)) {
        continue;
      }
      boolean flagged = false;
      for (BufferedRow<R> r : e.getValue()) {
        output.collect(
            new StreamRecord<>(new JoinedRow<>(element.getValue(), r.row), Math.max(t, tr)));
        matched = true;
        if (!r.matched) {
          r.matched = true;
          flagged = true;
        }
      }
      if (flagged) {
        changed.add(tr);
      }
    }
    markMatched(rightRows, changed);
    buffer(
        leftRows,
        leftSerializer,
        element.getValue(),
        t,
        matched,
        range == null ? Long.MAX_VALUE : range.leftExpiry(t),
        true);
  }

  @Override
  public void processElement2(StreamRecord<R> element) throws Exception {
    long t = eventTime(element);
    if (late(t)) {
      return;
    }
    boolean matched = false;
    List<Long> changed = new ArrayList<>();
    for (Map.Entry<Long, List<BufferedRow<L>>> e : leftRows.entries()) {
      long tl = e.getKey();
      if (range != null && !range.matches(tl, t)) {
        continue;
      }
      boolean flagged = false;
      for (BufferedRow<L> l : e.getValue()) {
        output.collect(
            new StreamRecord<>(new JoinedRow<>(l.row, element.getValue()), Math.max(t, tl)));
        matched = true;
        if (!l.matched) {
          l.matched = true;
          flagged = true;
        }
      }
      if (flagged) {
        changed.add(tl);
      }
    }
    markMatched(leftRows, changed);
    buffer(
        rightRows,
        rightSerializer,
        element.getValue(),
        t,
        matched,
        range == null ? Long.MAX_VALUE : range.rightExpiry(t),
        false);
  }

  private long eventTime(StreamRecord<?> element) {
    if (element.hasTimestamp()) {
      return element.getTimestamp();
    }
    if (range != null) {
      throw new LakestreamException(
          OperatorErrorClass.EVENT_TIME_MISSING,
          "stream-stream join ("
              + uid
              + ") received a row without an event time, but its time range needs one. Add"
              + " Watermarks.withWatermark(stream, eventTime, delay, uid) on both inputs.");
    }
    return Long.MIN_VALUE;
  }

  private boolean late(long t) {
    if (range != null && t < timers.currentWatermark()) {
      metrics.droppedByWatermark();
      return true;
    }
    return false;
  }

  /** Rewrites the lists whose matched flags changed (state values are copies on RocksDB). */
  private static <T> void markMatched(MapState<Long, List<BufferedRow<T>>> rows, List<Long> times)
      throws Exception {
    for (long time : times) {
      List<BufferedRow<T>> list = rows.get(time);
      list.forEach(r -> r.matched = true);
      rows.put(time, list);
    }
  }

  private <T> void buffer(
      MapState<Long, List<BufferedRow<T>>> rows,
      BufferedRowSerializer<T> serializer,
      T row,
      long time,
      boolean matched,
      long expiry,
      boolean left)
      throws Exception {
    if (expiry < timers.currentWatermark()) {
      // Already past its expiry (a negative range bound): no future row can match it.
      if (!matched && (left ? type.keepsLeft() : type.keepsRight())) {
        emitUnmatched(row, time, left);
      }
      return;
    }
    List<BufferedRow<T>> list = rows.get(time);
    if (list == null) {
      list = new ArrayList<>(1);
    }
    BufferedRow<T> buffered = new BufferedRow<>(row, matched);
    list.add(buffered);
    rows.put(time, list);
    metrics.rowAdded((Values) getCurrentKey(), ValuesSerializer.INSTANCE, buffered, serializer);
    if (expiry != Long.MAX_VALUE) {
      timers.registerEventTimeTimer(VoidNamespace.INSTANCE, expiry + 1);
    }
  }

  @SuppressWarnings("unchecked")
  private <T> void emitUnmatched(T row, long time, boolean left) {
    JoinedRow<L, R> out = left ? new JoinedRow<>((L) row, null) : new JoinedRow<>(null, (R) row);
    output.collect(new StreamRecord<>(out, time));
  }

  @Override
  public void onEventTime(InternalTimer<Values, VoidNamespace> timer) throws Exception {
    long watermark = timers.currentWatermark();
    expire(leftRows, watermark, true);
    expire(rightRows, watermark, false);
  }

  /** Drops the rows whose expiry is below {@code watermark}, emitting unmatched outer rows. */
  private <T> void expire(MapState<Long, List<BufferedRow<T>>> rows, long watermark, boolean left)
      throws Exception {
    List<Long> expired = new ArrayList<>();
    for (Long time : rows.keys()) {
      long expiry = left ? range.leftExpiry(time) : range.rightExpiry(time);
      if (expiry < watermark) {
        expired.add(time);
      }
    }
    expired.sort(null);
    boolean keep = left ? type.keepsLeft() : type.keepsRight();
    for (long time : expired) {
      for (BufferedRow<T> r : rows.get(time)) {
        if (keep && !r.matched) {
          emitUnmatched(r.row, time, left);
        }
        metrics.rowRemoved();
      }
      rows.remove(time);
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
