package io.lakestream.connectors.sink;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.state.query.DescribedSink;
import io.lakestream.state.query.SinkKind;
import java.io.IOException;
import java.io.Serializable;
import java.util.Objects;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.api.connector.sink2.CommitterInitContext;
import org.apache.flink.api.connector.sink2.CommittingSinkWriter;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.SupportsCommitter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessageTypeInfo;
import org.apache.flink.streaming.api.connector.sink2.SupportsPreCommitTopology;
import org.apache.flink.streaming.api.datastream.DataStream;

/**
 * A Flink Sink V2 that commits each epoch (checkpoint) as one unit through ONE committer: parallel
 * writers produce results, an {@link EpochAggregator} (parallelism 1) gathers them per checkpoint,
 * and committer subtask 0 calls the {@link EpochCommitAction} once the checkpoint is complete.
 *
 * <p>Guarantees exactly-once visibility when the action is idempotent per epoch: results of an
 * epoch become visible only after its checkpoint completed, and a commit replayed after a restore
 * is a no-op. Requires aligned checkpoints in EXACTLY_ONCE mode. Set a {@code uid} on the sink: the
 * aggregator and committer derive theirs from it.
 *
 * @param <IN> input rows
 * @param <R> what a writer produces per epoch (for example a data file)
 */
@PublicEvolving
public final class EpochSink<IN, R>
    implements Sink<IN>,
        DescribedSink,
        SupportsCommitter<EpochCommittable<R>>,
        SupportsPreCommitTopology<R, EpochCommittable<R>> {
  private static final long serialVersionUID = 1L;

  /** Creates the writer of one subtask. */
  @FunctionalInterface
  public interface WriterFactory<IN, R> extends Serializable {
    CommittingSinkWriter<IN, R> create(WriterInitContext context) throws IOException;
  }

  /** Supplies the result serializer (serializers need not be serializable themselves). */
  @FunctionalInterface
  public interface ResultSerializerFactory<R> extends Serializable {
    SimpleVersionedSerializer<R> create();
  }

  private final WriterFactory<IN, R> writerFactory;
  private final ResultSerializerFactory<R> resultSerializer;
  private final EpochCommitAction<R> commitAction;
  private final EpochListener listener;
  private final SinkKind kind;
  private final String target;

  /**
   * @param kind what kind of sink this is, for the restart checks
   * @param target where it writes (path, topic)
   */
  public EpochSink(
      SinkKind kind,
      String target,
      WriterFactory<IN, R> writerFactory,
      ResultSerializerFactory<R> resultSerializer,
      EpochCommitAction<R> commitAction,
      EpochListener listener) {
    this.writerFactory = Objects.requireNonNull(writerFactory, "writerFactory");
    this.resultSerializer = Objects.requireNonNull(resultSerializer, "resultSerializer");
    this.commitAction = Objects.requireNonNull(commitAction, "commitAction");
    this.listener = Objects.requireNonNull(listener, "listener");
    this.kind = Objects.requireNonNull(kind, "kind");
    this.target = Objects.requireNonNull(target, "target");
  }

  @Override
  public SinkKind sinkKind() {
    return kind;
  }

  @Override
  public String sinkTarget() {
    return target;
  }

  @Override
  public SinkWriter<IN> createWriter(WriterInitContext context) throws IOException {
    return writerFactory.create(context);
  }

  /** Flink 1.x entry point; Flink calls {@link #createWriter(WriterInitContext)}. */
  @Override
  @Deprecated
  public SinkWriter<IN> createWriter(InitContext context) {
    throw new UnsupportedOperationException(
        "EpochSink needs Flink 1.19 or newer (createWriter(WriterInitContext))");
  }

  @Override
  public SimpleVersionedSerializer<R> getWriteResultSerializer() {
    return resultSerializer.create();
  }

  @Override
  public DataStream<CommittableMessage<EpochCommittable<R>>> addPreCommitTopology(
      DataStream<CommittableMessage<R>> writeResults) {
    return writeResults
        .global()
        .transform(
            "epoch-aggregator",
            CommittableMessageTypeInfo.of(this::getCommittableSerializer),
            new EpochAggregator<R>())
        .uid("epoch-aggregator")
        .setParallelism(1)
        .setMaxParallelism(1)
        .global();
  }

  @Override
  public Committer<EpochCommittable<R>> createCommitter(CommitterInitContext context) {
    // The committer runs at the sink's parallelism (only subtask 0 gets epochs): the action may
    // use as many threads for one epoch's work.
    return new EpochCommitter<>(
        commitAction, listener, Math.max(1, context.getTaskInfo().getNumberOfParallelSubtasks()));
  }

  @Override
  public SimpleVersionedSerializer<EpochCommittable<R>> getCommittableSerializer() {
    return new EpochCommittableSerializer<>(resultSerializer.create());
  }
}
