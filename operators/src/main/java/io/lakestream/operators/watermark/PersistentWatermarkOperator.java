package io.lakestream.operators.watermark;

import java.util.List;
import org.apache.flink.api.common.operators.ProcessingTimeService.ProcessingTimeCallback;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * {@code withWatermark(column, delay)} whose watermark survives restarts: watermark = max event
 * time seen - delay, emitted every auto-watermark interval, and stored in the checkpoint. Flink
 * does not checkpoint watermarks, so without this a query resumed from a savepoint would start with
 * no watermark at all (open windows would not close, nothing would count as late).
 *
 * <p>On restore every subtask resumes at the minimum of the stored watermarks, which is exactly the
 * watermark downstream operators had seen when the snapshot was taken (also after a parallelism
 * change). Upstream watermarks are ignored; end of input passes through.
 */
public final class PersistentWatermarkOperator<T> extends AbstractStreamOperator<T>
    implements OneInputStreamOperator<T, T>, ProcessingTimeCallback {
  private static final long serialVersionUID = 1L;

  private final EventTimeExtractor<T> extractor;
  private final long delayMillis;
  private transient ListState<Long> stored;
  private transient long maxEventTime;
  private transient long currentWatermark;
  private transient long emittedWatermark;
  private transient long interval;

  public PersistentWatermarkOperator(EventTimeExtractor<T> extractor, long delayMillis) {
    if (delayMillis < 0) {
      throw new IllegalArgumentException("watermark delay must be >= 0, was " + delayMillis);
    }
    this.extractor = extractor;
    this.delayMillis = delayMillis;
  }

  @Override
  public void initializeState(StateInitializationContext context) throws Exception {
    super.initializeState(context);
    stored =
        context
            .getOperatorStateStore()
            .getUnionListState(new ListStateDescriptor<>("watermark", Types.LONG));
    long restored = Long.MAX_VALUE;
    boolean any = false;
    for (Long w : stored.get()) {
      restored = Math.min(restored, w);
      any = true;
    }
    currentWatermark = any ? restored : Long.MIN_VALUE;
    emittedWatermark = Long.MIN_VALUE;
    maxEventTime =
        currentWatermark == Long.MIN_VALUE ? Long.MIN_VALUE : currentWatermark + delayMillis;
  }

  @Override
  public void open() throws Exception {
    super.open();
    interval = Math.max(1, getExecutionConfig().getAutoWatermarkInterval());
    // Re-announce a restored watermark at once, then periodically.
    getProcessingTimeService()
        .registerTimer(getProcessingTimeService().getCurrentProcessingTime(), this);
  }

  @Override
  public void processElement(StreamRecord<T> element) {
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
    getProcessingTimeService().registerTimer(time + interval, this);
  }

  @Override
  public void processWatermark(Watermark mark) {
    if (mark.getTimestamp() == Long.MAX_VALUE && currentWatermark != Long.MAX_VALUE) {
      currentWatermark = Long.MAX_VALUE;
      output.emitWatermark(mark);
    }
  }

  @Override
  public void snapshotState(StateSnapshotContext context) throws Exception {
    super.snapshotState(context);
    stored.update(List.of(currentWatermark));
  }

  /** The watermark this subtask has emitted (or restored). */
  public long currentWatermark() {
    return currentWatermark;
  }
}
