package io.lakestream.connectors.lakebase.sink;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.connectors.lakebase.DeleteSelector;
import io.lakestream.connectors.lakebase.LakebaseSinkConfig;
import io.lakestream.connectors.lakebase.UpsertStatement;
import io.lakestream.connectors.lakebase.sink.writer.LakebaseSinkWriter;
import io.lakestream.connectors.lakebase.sink.writer.PostgresBatchWriter;
import io.lakestream.connectors.lakebase.sink.writer.SharedConnections;
import io.lakestream.connectors.schema.RowFields;
import io.lakestream.state.query.DescribedSink;
import io.lakestream.state.query.SinkKind;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;

/**
 * A Flink Sink V2 writing a stream into a PostgreSQL (Lakebase) table with upserts, built by {@link
 * io.lakestream.connectors.lakebase.LakebaseSinkBuilder}. Each subtask holds one connection and
 * writes batches ({@link LakebaseSinkWriter}); everything before a completed checkpoint is
 * committed in PostgreSQL. Delivery is at-least-once; with an upsert key the replayed rows
 * overwrite themselves, so the table's final state is exactly-once. Without a key (plain inserts)
 * rows replayed after a failure are inserted again.
 *
 * <p>With a {@link DeleteSelector} (a changelog stream; the sink then has a key) the selected
 * elements delete their key; per key the last change of a batch wins, and a replay after a failure
 * applies the same changes again in order, so the final state is exactly-once too, provided every
 * change of a key reaches the same subtask (partition the stream by the key).
 *
 * @param <T> the stream's element type
 */
@PublicEvolving
public final class LakebaseSink<T> implements Sink<T>, DescribedSink {
  private static final long serialVersionUID = 1L;

  private final LakebaseSinkConfig config;
  private final UpsertStatement upsert;
  private final RowFields<T> fields;
  private final DeleteSelector<T> deletes;

  public LakebaseSink(LakebaseSinkConfig config, UpsertStatement upsert, RowFields<T> fields) {
    this(config, upsert, fields, null);
  }

  /**
   * @param deletes selects the elements that delete their key, or null (every element upserts)
   * @throws IllegalArgumentException if there are deletes but the statement has no key
   */
  public LakebaseSink(
      LakebaseSinkConfig config,
      UpsertStatement upsert,
      RowFields<T> fields,
      DeleteSelector<T> deletes) {
    if (deletes != null && upsert.key().isEmpty()) {
      throw new IllegalArgumentException("deletes need an upsert key; " + upsert + " has none");
    }
    this.config = config;
    this.upsert = upsert;
    this.fields = fields;
    this.deletes = deletes;
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

  @Override
  public SinkWriter<T> createWriter(WriterInitContext context) {
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
          interval);
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
        interval);
  }

  private PostgresBatchWriter newBatchWriter() {
    return new PostgresBatchWriter(
        config.endpoint(), upsert, config.maxRetries(), config.retryBackoff());
  }

  /** Flink 1.x entry point; Flink 1.19+ calls {@link #createWriter(WriterInitContext)}. */
  @Override
  @Deprecated
  public SinkWriter<T> createWriter(InitContext context) {
    throw new UnsupportedOperationException(
        "LakebaseSink needs Flink 1.19 or newer (createWriter(WriterInitContext))");
  }

  @Override
  public String toString() {
    return "LakebaseSink[" + config.table() + " at " + config.endpoint() + ", " + upsert + "]";
  }
}
