package io.lakestream.connectors.lakebase.sink;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.connectors.lakebase.DeleteSelector;
import io.lakestream.connectors.lakebase.LakebaseSinkConfig;
import io.lakestream.connectors.lakebase.LakebaseSinkOptions;
import io.lakestream.connectors.lakebase.StagingTable;
import io.lakestream.connectors.lakebase.UpsertStatement;
import io.lakestream.connectors.lakebase.sink.writer.LakebaseCommitRecords;
import io.lakestream.connectors.lakebase.sink.writer.LakebaseSinkWriter;
import io.lakestream.connectors.lakebase.sink.writer.LakebaseStagingWriter;
import io.lakestream.connectors.lakebase.sink.writer.LakebaseWriter;
import io.lakestream.connectors.lakebase.sink.writer.PostgresBatchWriter;
import io.lakestream.connectors.lakebase.sink.writer.SharedConnections;
import io.lakestream.connectors.lakebase.sink.writer.StagedEpoch;
import io.lakestream.connectors.lakebase.sink.writer.StagedEpochSerializer;
import io.lakestream.connectors.schema.RowFields;
import io.lakestream.state.query.DescribedSink;
import io.lakestream.state.query.SinkKind;
import java.util.Collection;
import java.util.Objects;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.api.connector.sink2.CommitterInitContext;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.StatefulSinkWriter;
import org.apache.flink.api.connector.sink2.SupportsCommitter;
import org.apache.flink.api.connector.sink2.SupportsWriterState;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * A Flink Sink V2 writing a stream into a PostgreSQL (Lakebase) table with upserts, built by {@link
 * io.lakestream.connectors.lakebase.LakebaseSinkBuilder}, in one of two modes (option {@code
 * deliveryGuarantee}, {@link LakebaseSinkConfig#exactlyOnce()}):
 *
 * <ul>
 *   <li><b>exactly-once</b>, the default for the processingTime, availableNow and once triggers
 *       (and without a query): each subtask writes its epoch's rows into a staging table ({@link
 *       LakebaseStagingWriter}); when the epoch's checkpoint completes the committer applies them
 *       to the target in ONE transaction that records (app id, target, subtask, epoch) in the
 *       commit table, so an epoch replayed after a failure is skipped ({@link StagingTable}). Rows
 *       become visible once per checkpoint; keyed tables get each epoch's last change per key, and
 *       tables without a key get every row exactly once. Needs checkpointing (rows of an unbounded
 *       stream without checkpoints are never applied).
 *   <li><b>at-least-once</b>, the default for the realTime trigger: each subtask holds one
 *       connection and writes batches as they fill or age ({@link LakebaseSinkWriter}); everything
 *       before a completed checkpoint is committed in PostgreSQL. With an upsert key the replayed
 *       rows overwrite themselves, so the table's final state is exactly-once, though during a
 *       replay a row may briefly go back to an older value. Without a key (plain inserts) rows
 *       replayed after a failure are inserted again.
 * </ul>
 *
 * <p>With a {@link DeleteSelector} (a changelog stream; the sink then has a key) the selected
 * elements delete their key; per key the last change of a batch wins, and a replay after a failure
 * applies the same changes again in order, so the final state is exactly-once too, provided every
 * change of a key reaches the same subtask (partition the stream by the key).
 *
 * @param <T> the stream's element type
 */
@PublicEvolving
public final class LakebaseSink<T>
    implements Sink<T>,
        SupportsWriterState<T, StagedEpoch>,
        SupportsCommitter<StagedEpoch>,
        DescribedSink {
  private static final long serialVersionUID = 1L;

  private final LakebaseSinkConfig config;
  private final UpsertStatement upsert;
  private final RowFields<T> fields;
  private final DeleteSelector<T> deletes;
  private final String appId;
  private final String checkpointLocation; // of the query, for the progress records; or null

  public LakebaseSink(LakebaseSinkConfig config, UpsertStatement upsert, RowFields<T> fields) {
    this(config, upsert, fields, null);
  }

  /** A sink whose exactly-once epochs are recorded under the checkpoint location. */
  public LakebaseSink(
      LakebaseSinkConfig config,
      UpsertStatement upsert,
      RowFields<T> fields,
      DeleteSelector<T> deletes) {
    this(config, upsert, fields, deletes, "checkpoint:" + config.checkpointLocation());
  }

  /**
   * @param deletes selects the elements that delete their key, or null (every element upserts)
   * @param appId the query's app id, the commit table's key for its exactly-once epochs
   * @throws IllegalArgumentException if there are deletes but the statement has no key
   */
  public LakebaseSink(
      LakebaseSinkConfig config,
      UpsertStatement upsert,
      RowFields<T> fields,
      DeleteSelector<T> deletes,
      String appId) {
    this(config, upsert, fields, deletes, appId, null);
  }

  /**
   * @param checkpointLocation the query's checkpoint location, where each epoch's commit record
   *     goes for the query's progress ({@link #description()}, rows written); null: no records
   */
  public LakebaseSink(
      LakebaseSinkConfig config,
      UpsertStatement upsert,
      RowFields<T> fields,
      DeleteSelector<T> deletes,
      String appId,
      String checkpointLocation) {
    if (deletes != null && upsert.key().isEmpty()) {
      throw new IllegalArgumentException("deletes need an upsert key; " + upsert + " has none");
    }
    this.config = config;
    this.upsert = upsert;
    this.fields = fields;
    this.deletes = deletes;
    this.appId = Objects.requireNonNull(appId, "appId");
    this.checkpointLocation = checkpointLocation;
  }

  /**
   * The sink as the query's progress shows it ({@code sink.description}): the table and the
   * delivery guarantee this query gets, e.g. {@code LakebaseSink[public.orders, exactly-once]} or
   * {@code LakebaseSink[public.orders, at-least-once, version guard seq]}. No endpoint or user.
   */
  public String description() {
    return "LakebaseSink["
        + config.table()
        + ", "
        + (config.exactlyOnce()
            ? LakebaseSinkOptions.EXACTLY_ONCE
            : LakebaseSinkOptions.AT_LEAST_ONCE
                + (upsert.versionColumn() == null
                    ? ""
                    : ", version guard " + upsert.versionColumn()))
        + "]";
  }

  private LakebaseCommitRecords records() {
    return checkpointLocation == null
        ? null
        : new LakebaseCommitRecords(
            checkpointLocation, "lakebase-" + config.table(), description());
  }

  /** The validated options. */
  public LakebaseSinkConfig config() {
    return config;
  }

  /** The statement the writers run (its key is the resolved upsert key). */
  public UpsertStatement statement() {
    return upsert;
  }

  /** Whether the sink takes deletes (a changelog stream). */
  public boolean takesDeletes() {
    return deletes != null;
  }

  @Override
  public SinkKind sinkKind() {
    return SinkKind.LAKEBASE;
  }

  @Override
  public String sinkTarget() {
    return config.endpoint().jdbcUrl() + "#" + config.table();
  }

  /** Whether the sink runs in exactly-once mode. */
  public boolean exactlyOnce() {
    return config.exactlyOnce();
  }

  /** The staging side of the exactly-once mode. */
  public StagingTable staging() {
    return StagingTable.of(upsert, config.copy());
  }

  @Override
  public StatefulSinkWriter<T, StagedEpoch> restoreWriter(
      WriterInitContext context, Collection<StagedEpoch> recoveredState) {
    return createWriter(context); // the writers keep no state
  }

  @Override
  public SimpleVersionedSerializer<StagedEpoch> getWriterStateSerializer() {
    return new StagedEpochSerializer();
  }

  @Override
  public Committer<StagedEpoch> createCommitter(CommitterInitContext context) {
    return new LakebaseCommitter(
        config.endpoint(), StagingTable.of(upsert, config.copy()), records());
  }

  @Override
  public SimpleVersionedSerializer<StagedEpoch> getCommittableSerializer() {
    return new StagedEpochSerializer();
  }

  @Override
  public LakebaseWriter<T> createWriter(WriterInitContext context) {
    if (config.exactlyOnce()) {
      return new LakebaseStagingWriter<>(
          fields,
          deletes,
          config.endpoint(),
          StagingTable.of(upsert, config.copy()),
          appId,
          context.getTaskInfo().getIndexOfThisSubtask(),
          context.getRestoredCheckpointId().orElse(0L),
          context.metricGroup(),
          config.batchSize());
    }
    int batchSize = config.batchSize();
    long interval = config.batchInterval().toMillis();
    if (config.tasksPerConnection() == 1) {
      PostgresBatchWriter out = newBatchWriter();
      return new LakebaseSinkWriter<>(
              fields,
              deletes,
              out,
              out::close,
              context.getProcessingTimeService(),
              context.metricGroup(),
              batchSize,
              interval)
          .recordEpochs(records(), context.getTaskInfo().getIndexOfThisSubtask());
    }
    int group = context.getTaskInfo().getIndexOfThisSubtask() / config.tasksPerConnection();
    String key =
        config.endpoint()
            + "|"
            + upsert.sql()
            + "|"
            + context.getJobInfo().getJobId()
            + "|"
            + group;
    PostgresBatchWriter shared = SharedConnections.acquire(key, this::newBatchWriter);
    return new LakebaseSinkWriter<>(
            fields,
            deletes,
            shared,
            () -> SharedConnections.release(key),
            context.getProcessingTimeService(),
            context.metricGroup(),
            batchSize,
            interval)
        .recordEpochs(records(), context.getTaskInfo().getIndexOfThisSubtask());
  }

  private PostgresBatchWriter newBatchWriter() {
    return new PostgresBatchWriter(
        config.endpoint(), upsert, config.maxRetries(), config.retryBackoff(), config.copy());
  }

  /** Flink 1.x entry point; Flink 1.19+ calls {@link #createWriter(WriterInitContext)}. */
  @Override
  @Deprecated
  public LakebaseWriter<T> createWriter(InitContext context) {
    throw new UnsupportedOperationException(
        "LakebaseSink needs Flink 1.19 or newer (createWriter(WriterInitContext))");
  }

  @Override
  public String toString() {
    return "LakebaseSink["
        + config.table()
        + " at "
        + config.endpoint()
        + ", "
        + (config.exactlyOnce() ? "exactly-once" : "at-least-once")
        + ", "
        + upsert
        + "]";
  }
}
