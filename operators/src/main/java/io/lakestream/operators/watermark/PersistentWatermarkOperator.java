package io.lakestream.operators.watermark;

import io.lakestream.api.annotation.Internal;
import java.util.List;
import org.apache.flink.api.common.operators.ProcessingTimeService.ProcessingTimeCallback;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.ChainingStrategy;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.runtime.watermarkstatus.WatermarkStatus;

/**
 * {@code withWatermark(column, delay)} whose watermark survives restarts: watermark = max event
 * time seen - delay, emitted every auto-watermark interval, and stored in the checkpoint. Flink
 * does not checkpoint watermarks, so without this a query resumed from a savepoint would start with
 * no watermark at all (open windows would not close, nothing would count as late).
 *
 * <p>Idleness: within a subtask the watermark follows the maximum event time over all its
 * partitions/splits, so a quiet partition never holds it back. Across subtasks Flink takes the
 * minimum, so a subtask that has seen no row for the idle timeout declares itself idle ({@link
 * WatermarkStatus#IDLE}) and is left out of that minimum until its next row (which re-activates it
 * first). A timeout of zero disables this. A subtask that has seen no row at all since it started
 * (more subtasks than Kafka partitions, say) is idle from the end of the run's first epoch on: with
 * the timeout alone (a minute by default) a short availableNow run over a one-partition topic ended
 * before any window closed, and every run started the wait again. This is still within Spark's
 * rule, whose watermark after the first micro-batch is the maximum over all partitions.
 *
 * <p>On restore every subtask resumes at the minimum of the stored watermarks of the subtasks that
 * were active, which is exactly the watermark downstream operators had seen when the snapshot was
 * taken (also after a parallelism change); if all were idle, at the minimum over all. Upstream
 * watermarks and watermark statuses are ignored; end of input passes through.
 */
@Internal
public final class PersistentWatermarkOperator<T> extends AbstractStreamOperator<T>
    implements OneInputStreamOperator<T, T>, ProcessingTimeCallback {
  private static final long serialVersionUID = 1L;

  private final EventTimeExtractor<T> extractor;
  private final long delayMillis;
  private final long idleTimeoutMillis;
  private transient ListState<Long> stored;
  private transient ListState<Long> storedIdle;
  private transient boolean idle;
  private transient boolean sawRowSinceTick;
  private transient boolean sawAnyRow;
  private transient long lastActiveTime;
  private transient long maxEventTime;
  private transient long currentWatermark;
  private transient long emittedWatermark;
  private transient long interval;

  /** Without idleness detection. */
  public PersistentWatermarkOperator(EventTimeExtractor<T> extractor, long delayMillis) {
    this(extractor, delayMillis, 0);
  }

  /**
   * @param idleTimeoutMillis declare the subtask idle after this long without a row; 0 = never
   */
  public PersistentWatermarkOperator(
      EventTimeExtractor<T> extractor, long delayMillis, long idleTimeoutMillis) {
    if (delayMillis < 0) {
      throw new IllegalArgumentException("watermark delay must be >= 0, was " + delayMillis);
    }
    if (idleTimeoutMillis < 0) {
      throw new IllegalArgumentException(
          "watermark idle timeout must be >= 0 (0 disables it), was " + idleTimeoutMillis);
    }
    this.extractor = extractor;
    this.delayMillis = delayMillis;
    this.idleTimeoutMillis = idleTimeoutMillis;
    // Chain to the operator before it (a parser, the source) like a map: the default (HEAD) put
    // it in a task of its own, so every row crossed a network channel and was serialized twice.
    this.chainingStrategy = ChainingStrategy.ALWAYS;
  }

  /** The delay behind the maximum event time, in milliseconds. */
  public long delayMillis() {
    return delayMillis;
  }

  @Override
  public void initializeState(StateInitializationContext context) throws Exception {
    super.initializeState(context);
    stored =
        context
            .getOperatorStateStore()
            .getUnionListState(new ListStateDescriptor<>("watermark", Types.LONG));
    storedIdle =
        context
            .getOperatorStateStore()
            .getUnionListState(new ListStateDescriptor<>("watermark-idle", Types.LONG));
    Long restored = min(stored.get());
    if (restored == null) {
      restored = min(storedIdle.get());
    }
    currentWatermark = restored == null ? Long.MIN_VALUE : restored;
    emittedWatermark = Long.MIN_VALUE;
    maxEventTime =
        currentWatermark == Long.MIN_VALUE ? Long.MIN_VALUE : currentWatermark + delayMillis;
  }

  private static Long min(Iterable<Long> values) {
    Long min = null;
    for (Long w : values) {
      min = min == null ? w : Math.min(min, w);
    }
    return min;
  }

  @Override
  public void open() throws Exception {
    super.open();
    interval = Math.max(1, getExecutionConfig().getAutoWatermarkInterval());
    idle = false;
    lastActiveTime = getProcessingTimeService().getCurrentProcessingTime();
    // Re-announce a restored watermark at once, then periodically.
    getProcessingTimeService()
        .registerTimer(getProcessingTimeService().getCurrentProcessingTime(), this);
  }

  @Override
  public void processElement(StreamRecord<T> element) {
    if (idle) {
      idle = false;
      output.emitWatermarkStatus(WatermarkStatus.ACTIVE);
    }
    sawRowSinceTick = true;
    sawAnyRow = true;
    if (currentWatermark > emittedWatermark) {
      // a restored watermark goes out before the first row, so no row overtakes it
      emittedWatermark = currentWatermark;
      output.emitWatermark(new Watermark(currentWatermark));
    }
    long ts = extractor.eventTimeMillis(element.getValue());
    maxEventTime = Math.max(maxEventTime, ts);
    output.collect(element.replace(element.getValue(), ts));
  }

  @Override
  public void onProcessingTime(long time) {
    long candidate = maxEventTime == Long.MIN_VALUE ? Long.MIN_VALUE : maxEventTime - delayMillis;
    if (candidate > currentWatermark) {
      currentWatermark = candidate;
    }
    if (currentWatermark > emittedWatermark) {
      emittedWatermark = currentWatermark;
      output.emitWatermark(new Watermark(currentWatermark));
    }
    if (sawRowSinceTick) {
      sawRowSinceTick = false;
      lastActiveTime = time;
    } else if (!idle
        && idleTimeoutMillis > 0
        && currentWatermark != Long.MAX_VALUE
        && time - lastActiveTime >= idleTimeoutMillis) {
      idle = true;
      output.emitWatermarkStatus(WatermarkStatus.IDLE);
    }
    getProcessingTimeService().registerTimer(time + interval, this);
  }

  /**
   * A subtask still without a row at the end of an epoch stops holding the watermark back: it goes
   * idle before the barrier, so its snapshot is an idle one too (left out on restore).
   */
  @Override
  public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
    super.prepareSnapshotPreBarrier(checkpointId);
    if (!sawAnyRow && !idle && idleTimeoutMillis > 0 && currentWatermark != Long.MAX_VALUE) {
      idle = true;
      output.emitWatermarkStatus(WatermarkStatus.IDLE);
    }
  }

  @Override
  public void processWatermark(Watermark mark) {
    if (mark.getTimestamp() == Long.MAX_VALUE && currentWatermark != Long.MAX_VALUE) {
      currentWatermark = Long.MAX_VALUE;
      if (idle) {
        idle = false;
        output.emitWatermarkStatus(WatermarkStatus.ACTIVE);
      }
      output.emitWatermark(mark);
    }
  }

  @Override
  public void processWatermarkStatus(WatermarkStatus status) {
    // This operator decides its own idleness from the rows it sees.
  }

  @Override
  public void snapshotState(StateSnapshotContext context) throws Exception {
    super.snapshotState(context);
    if (idle) {
      stored.clear();
      storedIdle.update(List.of(currentWatermark));
    } else {
      stored.update(List.of(currentWatermark));
      storedIdle.clear();
    }
  }

  /** The watermark this subtask has emitted (or restored). */
  public long currentWatermark() {
    return currentWatermark;
  }

  /** Whether this subtask has declared itself idle. */
  public boolean isIdle() {
    return idle;
  }
}
