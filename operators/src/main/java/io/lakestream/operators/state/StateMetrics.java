package io.lakestream.operators.state;

import io.lakestream.api.annotation.Internal;
import java.io.IOException;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.MetricGroup;

/**
 * The state metrics of one stateful operator subtask, the Flink counterpart of a Structured
 * Streaming progress entry in {@code stateOperators}. Registered in the operator's metric group
 * under the key/value group {@value #GROUP}{@code =<uid>}, so a reporter finds them by the
 * operator's uid (variable {@code <stateOperator>}); sum over subtasks for the operator's total
 * (the query runtime does, for {@code stateOperators} in each epoch's progress):
 *
 * <ul>
 *   <li>{@value #NUM_ROWS_TOTAL} (gauge, long): rows held in state now (dedup: keys; windows: one
 *       row per open window and group; joins: buffered rows of both sides).
 *   <li>{@value #NUM_ROWS_UPDATED} (counter): rows added to or changed in state since the subtask
 *       started; a progress reporter takes the difference between two epochs.
 *   <li>{@value #NUM_ROWS_DROPPED_BY_WATERMARK} (counter): input rows dropped because they were
 *       late (behind the watermark), since the subtask started.
 *   <li>{@value #MEMORY_USED_BYTES} (gauge, long): an estimate of the state size: rows times the
 *       sampled serialized row size plus a fixed per-entry overhead of {@value
 *       #PER_ENTRY_OVERHEAD_BYTES} bytes. It is not measured; with RocksDB enable the native metric
 *       {@code state.backend.rocksdb.metrics.estimate-live-data-size} for the real figure.
 * </ul>
 *
 * <p>{@code numRowsTotal} is recounted from state when a subtask restores, so it stays right after
 * a rescale.
 */
@Internal
public final class StateMetrics {
  /** The metric group key; its value is the operator's uid. */
  public static final String GROUP = "stateOperator";

  public static final String NUM_ROWS_TOTAL = "numRowsTotal";
  public static final String NUM_ROWS_UPDATED = "numRowsUpdated";
  public static final String NUM_ROWS_DROPPED_BY_WATERMARK = "numRowsDroppedByWatermark";
  public static final String MEMORY_USED_BYTES = "memoryUsedBytes";

  /**
   * Gauge: the id of the last epoch (checkpoint) whose barrier this subtask passed; the gauges
   * named {@value #EPOCH_PREFIX}{@code <Metric>} (e.g. {@code epochNumRowsTotal}) hold the four
   * values as they were at that moment, so a progress reporter can show an epoch's numbers as of
   * its end rather than as of when it reads them.
   */
  public static final String EPOCH = "epoch";

  /** Prefix of the epoch-end values; the metric name follows with a capital first letter. */
  public static final String EPOCH_PREFIX = "epoch";

  /** Assumed bytes per state entry beyond its serialized key and value. */
  public static final int PER_ENTRY_OVERHEAD_BYTES = 48;

  private static final int SAMPLE_EVERY = 256;

  private final MetricGroup group;
  private final Counter updated;
  private final Counter dropped;
  private final DataOutputSerializer sampleBuffer = new DataOutputSerializer(64);
  private long rowsTotal;
  private final long[] atEpoch = {-1, 0, 0, 0, 0}; // epoch, total, updated, dropped, memory
  private long samples;
  private double averageRowBytes;

  private StateMetrics(MetricGroup group) {
    this.group = group;
    this.updated = group.counter(NUM_ROWS_UPDATED);
    this.dropped = group.counter(NUM_ROWS_DROPPED_BY_WATERMARK);
    group.gauge(NUM_ROWS_TOTAL, (Gauge<Long>) () -> rowsTotal);
    group.gauge(MEMORY_USED_BYTES, (Gauge<Long>) this::memoryUsedBytes);
    group.gauge(EPOCH, (Gauge<Long>) () -> atEpoch[0]);
    String[] names = {
      NUM_ROWS_TOTAL, NUM_ROWS_UPDATED, NUM_ROWS_DROPPED_BY_WATERMARK, MEMORY_USED_BYTES
    };
    for (int i = 0; i < names.length; i++) {
      int index = i + 1;
      group.gauge(epochName(names[i]), (Gauge<Long>) () -> atEpoch[index]);
    }
  }

  /** The name of the epoch-end gauge of {@code metric}, e.g. {@code epochNumRowsTotal}. */
  public static String epochName(String metric) {
    return EPOCH_PREFIX + Character.toUpperCase(metric.charAt(0)) + metric.substring(1);
  }

  /**
   * The epoch {@code checkpointId} ends here (call from {@code prepareSnapshotPreBarrier}): keeps
   * the current values as that epoch's.
   */
  public void epochEnded(long checkpointId) {
    atEpoch[1] = rowsTotal;
    atEpoch[2] = updated.getCount();
    atEpoch[3] = dropped.getCount();
    atEpoch[4] = memoryUsedBytes();
    atEpoch[0] = checkpointId;
  }

  /**
   * A stateful operator's display name made safe for metric queries: Flink's REST API takes metric
   * names as a comma-separated list ({@code ?get=a,b}) and the operator name is part of every
   * operator metric's name, so commas are replaced by semicolons.
   */
  public static String operatorName(String name) {
    return name.replace(',', ';');
  }

  /** Registers the metrics in {@code operatorGroup} under {@value #GROUP}{@code =uid}. */
  public static StateMetrics register(MetricGroup operatorGroup, String uid) {
    return new StateMetrics(operatorGroup.addGroup(GROUP, uid));
  }

  /** The {@value #GROUP}{@code =uid} group, for an operator's own further metrics. */
  public MetricGroup group() {
    return group;
  }

  /** Sets the row count after a restore (the operator recounts its state). */
  public void restoredRows(long rows) {
    this.rowsTotal = rows;
  }

  /**
   * A row was added to state; every {@value #SAMPLE_EVERY}th call (and the first) serializes the
   * key and value to refresh the size estimate.
   */
  public <K, V> void rowAdded(K key, TypeSerializer<K> keys, V value, TypeSerializer<V> values) {
    rowsTotal++;
    updated.inc();
    if (samples++ % SAMPLE_EVERY == 0) {
      try {
        sampleBuffer.clear();
        keys.serialize(key, sampleBuffer);
        values.serialize(value, sampleBuffer);
        int bytes = sampleBuffer.length();
        averageRowBytes =
            averageRowBytes == 0 ? bytes : averageRowBytes * 0.9 + bytes * 0.1; // smoothed
      } catch (IOException e) {
        throw new IllegalStateException("could not size a state row", e);
      }
    }
  }

  /** A row already in state changed. */
  public void rowUpdated() {
    updated.inc();
  }

  /** A row left state (expired by the watermark or emitted as final). */
  public void rowRemoved() {
    rowsTotal--;
  }

  /** An input row was dropped for being behind the watermark. */
  public void droppedByWatermark() {
    dropped.inc();
  }

  public long numRowsTotal() {
    return rowsTotal;
  }

  public long numRowsUpdated() {
    return updated.getCount();
  }

  public long numRowsDroppedByWatermark() {
    return dropped.getCount();
  }

  public long memoryUsedBytes() {
    return (long) (rowsTotal * (averageRowBytes + PER_ENTRY_OVERHEAD_BYTES));
  }
}
