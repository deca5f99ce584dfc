package io.lakestream.connectors.lakebase.sink.writer;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.lakebase.DeleteSelector;
import io.lakestream.connectors.schema.RowFields;
import java.io.IOException;
import java.util.Collection;
import java.util.List;
import org.apache.flink.api.common.operators.ProcessingTimeService;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.groups.SinkWriterMetricGroup;

/**
 * The writer of one Lakebase sink subtask: buffers rows and writes them through a {@link
 * PostgresBatchWriter} when the buffer holds {@code batchSize} rows, when its oldest row has waited
 * {@code batchInterval} (a processing-time timer, which runs in the task's mailbox thread, never
 * concurrently with {@link #write}), and on every checkpoint ({@link #flush}), so every row before
 * a completed checkpoint is committed in PostgreSQL.
 *
 * <p>Flushes are synchronous in the task thread: while PostgreSQL is slow or being retried, the
 * task does not take input, so backpressure reaches the source and the buffer never exceeds {@code
 * batchSize} rows. An interval of 0 writes every row at once. A failed flush fails the task (the
 * rows stay unacknowledged and are replayed from the last checkpoint).
 *
 * <p>With a {@link DeleteSelector}, the elements it selects delete their key; a flush that holds a
 * delete writes the buffer as a batch of changes ({@link PostgresBatchWriter#write(Object[][],
 * boolean[], int)}), any other flush as plain upserts.
 *
 * <p>It is the at-least-once writer of a sink that also has an exactly-once mode, so it implements
 * that mode's interfaces with nothing to commit and no state.
 *
 * @param <T> the stream's element type
 */
@Internal
public final class LakebaseSinkWriter<T> implements LakebaseWriter<T> {
  private final RowFields<T> fields;
  private final DeleteSelector<T> deletes;
  private final PostgresBatchWriter out;
  private final Runnable release;
  private final ProcessingTimeService timers;
  private final int batchSize;
  private final long intervalMillis;
  private final Object[][] buffer;
  private final boolean[] deleted; // per buffered row; null without deletes
  private final Counter rowsOut;
  private int count;
  private int deleteCount;
  private long oldestMillis;
  private boolean timerArmed;
  private LakebaseCommitRecords records; // null: none
  private int subtask;
  private long rowsThisEpoch;

  public LakebaseSinkWriter(
      RowFields<T> fields,
      PostgresBatchWriter out,
      ProcessingTimeService timers,
      SinkWriterMetricGroup metrics,
      int batchSize,
      long intervalMillis) {
    this(fields, null, out, out::close, timers, metrics, batchSize, intervalMillis);
  }

  /**
   * @param deletes selects the elements that delete their key; null if none does
   * @param release called on {@link #close()} instead of closing {@code out} (a shared writer)
   */
  public LakebaseSinkWriter(
      RowFields<T> fields,
      DeleteSelector<T> deletes,
      PostgresBatchWriter out,
      Runnable release,
      ProcessingTimeService timers,
      SinkWriterMetricGroup metrics,
      int batchSize,
      long intervalMillis) {
    this.fields = fields;
    this.deletes = deletes;
    this.out = out;
    this.release = release;
    this.timers = timers;
    this.batchSize = batchSize;
    this.intervalMillis = intervalMillis;
    this.buffer = new Object[batchSize][];
    this.deleted = deletes == null ? null : new boolean[batchSize];
    this.rowsOut = metrics == null ? null : metrics.getNumRecordsSendCounter();
  }

  @Override
  public void write(T element, Context context) throws IOException, InterruptedException {
    if (count == 0) {
      oldestMillis = timers.getCurrentProcessingTime();
    }
    buffer[count] = fields.toRow(element);
    if (deleted != null) {
      deleted[count] = deletes.isDelete(element);
      deleteCount += deleted[count] ? 1 : 0;
    }
    count++;
    if (count >= batchSize || intervalMillis == 0) {
      flushBuffer();
    } else if (!timerArmed) {
      armTimer(oldestMillis + intervalMillis);
    }
  }

  private void armTimer(long at) {
    timerArmed = true;
    timers.registerTimer(at, this::onTimer);
  }

  private void onTimer(long now) throws IOException, InterruptedException {
    timerArmed = false;
    if (count == 0) {
      return;
    }
    if (now >= oldestMillis + intervalMillis) {
      flushBuffer();
    } else {
      armTimer(oldestMillis + intervalMillis);
    }
  }

  @Override
  public void flush(boolean endOfInput) throws IOException, InterruptedException {
    flushBuffer();
  }

  private void flushBuffer() throws IOException, InterruptedException {
    if (count == 0) {
      return;
    }
    int rows = count;
    if (deleteCount == 0) {
      out.write(buffer, rows);
    } else {
      out.write(buffer, deleted, rows);
    }
    java.util.Arrays.fill(buffer, 0, rows, null);
    count = 0;
    deleteCount = 0;
    rowsThisEpoch += rows;
    if (rowsOut != null) {
      rowsOut.inc(rows);
    }
  }

  /**
   * Records, at each checkpoint, the rows this subtask flushed in the epoch ({@link
   * LakebaseCommitRecords}; all of them are committed in PostgreSQL by then).
   *
   * @param records where to record, or null for nowhere
   * @return this writer
   */
  public LakebaseSinkWriter<T> recordEpochs(LakebaseCommitRecords records, int subtask) {
    this.records = records;
    this.subtask = subtask;
    return this;
  }

  /** Nothing: every row before the barrier is already committed ({@link #flush}). */
  @Override
  public Collection<StagedEpoch> prepareCommit() {
    return List.of();
  }

  /** No state; records the epoch the checkpoint ends (its rows are flushed just before). */
  @Override
  public List<StagedEpoch> snapshotState(long checkpointId) {
    if (records != null) {
      records.record(checkpointId, subtask, rowsThisEpoch);
    }
    rowsThisEpoch = 0;
    return List.of();
  }

  /** Rows waiting for the next flush. */
  public int buffered() {
    return count;
  }

  @Override
  public void close() {
    release.run();
  }
}
