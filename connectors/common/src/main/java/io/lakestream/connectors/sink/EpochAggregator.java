package io.lakestream.connectors.sink;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.CommittableSummary;
import org.apache.flink.streaming.api.connector.sink2.CommittableWithLineage;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * Gathers all writers' results of an epoch into one {@link EpochCommittable}. Runs with parallelism
 * 1 between the writers and the committer.
 *
 * <p>Correctness rests on aligned checkpoints: the barrier for checkpoint N reaches this operator
 * only after every writer has sent its results for N, so at {@link #prepareSnapshotPreBarrier} the
 * epoch is complete. It keeps no state: everything is emitted before the barrier goes on and is
 * then held by the committer's state. It also carries the sink's event-time watermark (the minimum
 * over the writers, which forward it) into each epoch for progress reporting. Results emitted at
 * the end of a bounded input (marked EOI by Flink) get the epoch id "last checkpoint + 1", which is
 * deterministic on replay.
 */
class EpochAggregator<R> extends AbstractStreamOperator<CommittableMessage<EpochCommittable<R>>>
    implements OneInputStreamOperator<
            CommittableMessage<R>, CommittableMessage<EpochCommittable<R>>>,
        BoundedOneInput {
  private static final long serialVersionUID = 1L;

  private final TreeMap<Long, List<R>> pending = new TreeMap<>();
  private long lastCheckpointId;
  private long watermark = Long.MIN_VALUE;

  @Override
  public void initializeState(StateInitializationContext context) throws Exception {
    super.initializeState(context);
    lastCheckpointId = context.getRestoredCheckpointId().orElse(0L);
  }

  @Override
  public void processElement(StreamRecord<CommittableMessage<R>> element) {
    CommittableMessage<R> message = element.getValue();
    List<R> bucket =
        pending.computeIfAbsent(message.getCheckpointIdOrEOI(), id -> new ArrayList<>());
    if (message instanceof CommittableWithLineage) {
      bucket.add(((CommittableWithLineage<R>) message).getCommittable());
    }
  }

  @Override
  public void processWatermark(org.apache.flink.streaming.api.watermark.Watermark mark)
      throws Exception {
    watermark = Math.max(watermark, mark.getTimestamp());
    super.processWatermark(mark);
  }

  @Override
  public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
    super.prepareSnapshotPreBarrier(checkpointId);
    lastCheckpointId = Math.max(lastCheckpointId, checkpointId);
    emitUpTo(checkpointId);
  }

  @Override
  public void endInput() {
    emitUpTo(CommittableMessage.EOI);
  }

  private void emitUpTo(long checkpointIdInclusive) {
    Iterator<Map.Entry<Long, List<R>>> it =
        pending.headMap(checkpointIdInclusive, true).entrySet().iterator();
    while (it.hasNext()) {
      Map.Entry<Long, List<R>> entry = it.next();
      long messageId = entry.getKey();
      long epoch = messageId == CommittableMessage.EOI ? lastCheckpointId + 1 : messageId;
      EpochCommittable<R> committable = new EpochCommittable<>(epoch, entry.getValue(), watermark);
      output.collect(new StreamRecord<>(new CommittableSummary<>(0, 1, messageId, 1, 1, 0)));
      output.collect(new StreamRecord<>(new CommittableWithLineage<>(committable, messageId, 0)));
      it.remove();
    }
  }
}
