package io.lakestream.state.query;

import io.lakestream.api.annotation.Internal;
import io.lakestream.state.checkpoint.CheckpointLocation;
import io.lakestream.state.checkpoint.ObservationRecord;
import java.io.IOException;
import java.net.URI;
import java.util.Map;

/**
 * The rows one subtask of a source emitted in each epoch, recorded at the epoch's checkpoint as the
 * observation {@link #PREFIX}{@code <source name>}: progress then reports them as the source's
 * {@code numInputRows}, for sources whose positions count something else (files, change files).
 * Exact under replay: an attempt that failed before recording an epoch is not counted. Outside a
 * query (no context) it counts nothing.
 *
 * <p>Not thread-safe: one per subtask, called from its task thread.
 */
@Internal
public final class InputRowCount {
  /** The name prefix of the observations that count a source's input rows. */
  public static final String PREFIX = "inputRows/";

  private final ObservationRecord record;
  private final CheckpointLocation location;
  private long rows;

  /**
   * @param query the running query, or null outside one
   * @param attempt unique per attempt of the subtask (Flink's attempt number where known)
   */
  public InputRowCount(
      QueryContext query, String sourceName, int subtask, int parallelism, int attempt) {
    this.record =
        query == null
            ? null
            : new ObservationRecord(
                PREFIX + sourceName, query.runId(), subtask, parallelism, attempt);
    this.location =
        query == null ? null : new CheckpointLocation(URI.create(query.checkpointLocation()));
  }

  /** Counts {@code n} more rows of the current epoch. */
  public void add(long n) {
    rows += n;
  }

  /**
   * Records the rows of {@code epoch} (those counted since the previous record) and starts the next
   * epoch from zero.
   *
   * @throws IOException if the record cannot be written (the checkpoint fails and is retried)
   */
  public void record(long epoch) throws IOException {
    if (record != null) {
      record.write(location.epochs(), epoch, Map.of("rows", ObservationRecord.count(rows)));
    }
    rows = 0;
  }
}
