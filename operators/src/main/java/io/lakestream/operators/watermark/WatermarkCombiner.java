package io.lakestream.operators.watermark;

import io.lakestream.api.annotation.Internal;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.TwoInputStreamOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * Unions two streams of the same type and combines their watermarks by a {@link
 * MultipleWatermarkPolicy}. Rows pass through unchanged, with their event times.
 *
 * <ul>
 *   <li>{@link MultipleWatermarkPolicy#MIN}: Flink's own combination: the minimum over the inputs
 *       that are not idle; an input that has finished (watermark {@code Long.MAX_VALUE}) does not
 *       hold it back.
 *   <li>{@link MultipleWatermarkPolicy#MAX}: the maximum over the inputs that have not finished;
 *       end of input ({@code Long.MAX_VALUE}) only once both have finished, so a finished input
 *       does not flush the other's open windows.
 * </ul>
 *
 * <p>Stateless: after a restore the upstream {@link PersistentWatermarkOperator}s re-announce their
 * watermarks at once.
 */
@Internal
public final class WatermarkCombiner<T> extends AbstractStreamOperator<T>
    implements TwoInputStreamOperator<T, T, T> {
  private static final long serialVersionUID = 1L;

  private final MultipleWatermarkPolicy policy;
  private transient long[] inputs;
  private transient long emitted;

  public WatermarkCombiner(MultipleWatermarkPolicy policy) {
    this.policy = policy;
  }

  /** The combination policy. */
  public MultipleWatermarkPolicy policy() {
    return policy;
  }

  @Override
  public void open() throws Exception {
    super.open();
    inputs = new long[] {Long.MIN_VALUE, Long.MIN_VALUE};
    emitted = Long.MIN_VALUE;
  }

  @Override
  public void processElement1(StreamRecord<T> element) {
    output.collect(element);
  }

  @Override
  public void processElement2(StreamRecord<T> element) {
    output.collect(element);
  }

  @Override
  public void processWatermark1(Watermark mark) throws Exception {
    if (policy == MultipleWatermarkPolicy.MIN) {
      super.processWatermark1(mark);
    } else {
      advance(0, mark.getTimestamp());
    }
  }

  @Override
  public void processWatermark2(Watermark mark) throws Exception {
    if (policy == MultipleWatermarkPolicy.MIN) {
      super.processWatermark2(mark);
    } else {
      advance(1, mark.getTimestamp());
    }
  }

  @Override
  public void processWatermark(Watermark mark) throws Exception {
    // Called with the minimum-combined watermark (also when an input turns idle or active).
    if (policy == MultipleWatermarkPolicy.MIN) {
      super.processWatermark(mark);
    }
  }

  private void advance(int input, long watermark) {
    inputs[input] = Math.max(inputs[input], watermark);
    long combined = Long.MIN_VALUE;
    boolean allFinished = true;
    for (long w : inputs) {
      if (w != Long.MAX_VALUE) {
        allFinished = false;
        combined = Math.max(combined, w);
      }
    }
    if (allFinished) {
      combined = Long.MAX_VALUE;
    }
    if (combined > emitted) {
      emitted = combined;
      output.emitWatermark(new Watermark(combined));
    }
  }
}
