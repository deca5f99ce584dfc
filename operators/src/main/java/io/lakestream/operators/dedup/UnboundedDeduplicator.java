package io.lakestream.operators.dedup;

import io.lakestream.api.annotation.Internal;
import io.lakestream.operators.row.Values;
import io.lakestream.operators.row.ValuesSerializer;
import io.lakestream.operators.state.StateMetrics;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeutils.base.BooleanSerializer;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.state.VoidNamespace;
import org.apache.flink.runtime.state.VoidNamespaceSerializer;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * {@code dropDuplicates(keys)} without a bound: the first row of each key passes, every later one
 * is dropped, forever. State per key is one flag in a {@link ValueState} with {@link
 * BooleanSerializer}, and it is never freed: it grows with the number of distinct keys, which the
 * builder logs as a warning. Prefer {@link WatermarkDeduplicator}. Metrics: see {@link
 * StateMetrics} and {@value WatermarkDeduplicator#NUM_DUPLICATES_DROPPED}.
 */
@Internal
public final class UnboundedDeduplicator<T> extends AbstractStreamOperator<T>
    implements OneInputStreamOperator<T, T> {
  private static final long serialVersionUID = 1L;

  static final String STATE_NAME = "dedup-seen";

  private final String uid;
  private transient ValueState<Boolean> seen;
  private transient StateMetrics metrics;
  private transient Counter duplicates;

  public UnboundedDeduplicator(String uid) {
    this.uid = uid;
  }

  static ValueStateDescriptor<Boolean> descriptor() {
    return new ValueStateDescriptor<>(STATE_NAME, BooleanSerializer.INSTANCE);
  }

  @Override
  public void open() throws Exception {
    super.open();
    seen = getPartitionedState(descriptor());
    metrics = StateMetrics.register(getMetricGroup(), uid);
    duplicates = metrics.group().counter(WatermarkDeduplicator.NUM_DUPLICATES_DROPPED);
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
    if (seen.value() != null) {
      duplicates.inc();
      return;
    }
    seen.update(Boolean.TRUE);
    metrics.rowAdded(
        (Values) getCurrentKey(),
        ValuesSerializer.INSTANCE,
        Boolean.TRUE,
        BooleanSerializer.INSTANCE);
    output.collect(element);
  }

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
