package io.lakestream.connectors.lakebase.sink.writer;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.lakebase.CopyBinaryRows;
import io.lakestream.connectors.lakebase.DeleteSelector;
import io.lakestream.connectors.lakebase.LakebaseWriteException;
import io.lakestream.connectors.lakebase.PostgresEndpoint;
import io.lakestream.connectors.lakebase.StagingTable;
import io.lakestream.connectors.schema.RowFields;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.groups.SinkWriterMetricGroup;

/**
 * The writer of one exactly-once Lakebase sink subtask: writes its rows, in batches of {@code
 * batchSize}, into the staging table ({@link StagingTable#stage}, or {@link
 * StagingTable#stageByCopy} with option writeMethod copy) under a stage id of its own, and at each
 * checkpoint barrier ({@link #prepareCommit}) hands the epoch's {@link StagedEpoch} to the
 * committer, which applies it once the checkpoint completed. Nothing reaches the target table here.
 *
 * <p>It is stateful only to learn each checkpoint's id ({@link #snapshotState}, right after {@link
 * #prepareCommit}): rows are tagged with the checkpoint after which they were written, which names
 * their epoch in the commit table. It keeps no state ({@code snapshotState} returns nothing; a
 * restored writer starts after the restored checkpoint).
 *
 * <p>A failed write fails the task (no local retry): the attempt's staged rows are dropped when the
 * replayed epoch is applied, and the epoch is written again from the last checkpoint.
 *
 * @param <T> the stream's element type
 */
@Internal
public final class LakebaseStagingWriter<T> implements LakebaseWriter<T> {
  private final RowFields<T> fields;
  private final DeleteSelector<T> deletes;
  private final PostgresEndpoint endpoint;
  private final StagingTable staging;
  private final String app;
  private final int subtask;
  private final Object[][] buffer;
  private final boolean[] deleted;
  private final Counter rowsOut;
  private Connection connection;
  private PreparedStatement insert;
  private final CopyBinaryRows copy;
  private int count;
  private final long restoredCheckpoint;
  private long afterCheckpoint;
  private long stageId = ThreadLocalRandom.current().nextLong();
  private long staged;
  private long stagedDeletes;

  /**
   * @param app the query's app id (the commit table's key)
   * @param restoredCheckpoint the checkpoint this subtask restored from, 0 on a fresh start
   */
  public LakebaseStagingWriter(
      RowFields<T> fields,
      DeleteSelector<T> deletes,
      PostgresEndpoint endpoint,
      StagingTable staging,
      String app,
      int subtask,
      long restoredCheckpoint,
      SinkWriterMetricGroup metrics,
      int batchSize) {
    this.fields = fields;
    this.deletes = deletes;
    this.endpoint = endpoint;
    this.staging = staging;
    this.app = app;
    this.subtask = subtask;
    this.restoredCheckpoint = restoredCheckpoint;
    this.afterCheckpoint = restoredCheckpoint;
    this.buffer = new Object[batchSize][];
    this.deleted = new boolean[batchSize];
    this.rowsOut = metrics == null ? null : metrics.getNumRecordsSendCounter();
    this.copy = staging.copies() ? new CopyBinaryRows() : null;
  }

  @Override
  public void write(T element, Context context) throws IOException {
    buffer[count] = fields.toRow(element);
    deleted[count] = deletes != null && deletes.isDelete(element);
    count++;
    if (count == buffer.length) {
      stageBuffer();
    }
  }

  @Override
  public void flush(boolean endOfInput) throws IOException {
    stageBuffer();
  }

  private void stageBuffer() throws IOException {
    if (count == 0) {
      return;
    }
    try {
      if (connection == null) {
        connection = endpoint.connect();
        connection.setAutoCommit(true);
        StagingTable.commitDurably(connection);
        staging.dropStagedAfter(connection, app, subtask, restoredCheckpoint);
        insert = copy == null ? connection.prepareStatement(staging.stageInsertSql()) : null;
      }
      if (copy != null) {
        staging.stageByCopy(connection, copy, tag(), staged, buffer, deleted, count);
      } else {
        staging.stage(connection, insert, tag(), staged, buffer, deleted, count);
      }
    } catch (SQLException | LakebaseWriteException | RuntimeException e) {
      throw new IOException(
          "cannot stage " + count + " rows into " + staging.stage() + ": " + e.getMessage(), e);
    }
    for (int i = 0; i < count; i++) {
      stagedDeletes += deleted[i] ? 1 : 0;
    }
    staged += count;
    if (rowsOut != null) {
      rowsOut.inc(count);
    }
    Arrays.fill(buffer, 0, count, null);
    count = 0;
  }

  private StagingTable.Tag tag() {
    return new StagingTable.Tag(app, subtask, stageId, afterCheckpoint);
  }

  /** The epoch's staged rows (flushed just before), none if it wrote nothing; starts a new one. */
  @Override
  public Collection<StagedEpoch> prepareCommit() throws IOException {
    stageBuffer();
    if (staged == 0) {
      return List.of();
    }
    StagedEpoch epoch = new StagedEpoch(tag(), staged, stagedDeletes);
    stageId = ThreadLocalRandom.current().nextLong();
    staged = 0;
    stagedDeletes = 0;
    return List.of(epoch);
  }

  /** Learns the checkpoint's id: rows from now on belong to the epoch after it. */
  @Override
  public List<StagedEpoch> snapshotState(long checkpointId) {
    afterCheckpoint = checkpointId;
    return List.of();
  }

  /** Rows waiting for the next staging write. */
  public int buffered() {
    return count;
  }

  @Override
  public void close() throws SQLException {
    if (connection != null) {
      connection.close();
    }
  }
}
