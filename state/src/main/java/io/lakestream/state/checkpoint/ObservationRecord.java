package io.lakestream.state.checkpoint;

import io.lakestream.api.annotation.Internal;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One subtask's share of an observation in one epoch, as the runner reads it from {@code
 * observed/N/} to publish exact per-epoch values: which observation, epoch, run, subtask (of how
 * many) and attempt, and its aggregates by name ({@code kind}, {@code count}, {@code sum}, and
 * {@code min}/{@code max} where they apply). The runner counts, per subtask, only the attempt that
 * recorded the epoch, so a share written by an attempt that later failed is never published.
 *
 * @param observation the observation's name
 * @param runId the run that wrote it
 * @param subtask the writing subtask's index
 * @param parallelism how many subtasks write shares of this observation
 * @param attempt which attempt of the subtask wrote it (unique per attempt)
 */
@Internal
public record ObservationRecord(
    String observation, String runId, int subtask, int parallelism, int attempt) {

  /** The share of a {@code COUNT} aggregate of {@code count}. */
  public static Map<String, Object> count(long count) {
    Map<String, Object> share = new LinkedHashMap<>();
    share.put("kind", "COUNT");
    share.put("count", count);
    share.put("sum", 0.0);
    return share;
  }

  /**
   * Writes this subtask's {@code aggregates} of {@code epoch} to {@code log}.
   *
   * @throws IOException if the file cannot be written (the checkpoint then fails and is retried)
   */
  public void write(EpochLog log, long epoch, Map<String, Object> aggregates) throws IOException {
    Map<String, Object> record = new LinkedHashMap<>();
    record.put("observation", observation);
    record.put("epoch", epoch);
    record.put("runId", runId);
    record.put("subtask", subtask);
    record.put("parallelism", parallelism);
    record.put("attempt", attempt);
    record.put("aggregates", aggregates);
    log.writeObserved(epoch, observation + "-" + subtask + "-" + runId + "-" + attempt, record);
  }
}
