package io.lakestream.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import io.lakestream.api.annotation.PublicEvolving;

/**
 * One epoch's progress, in the JSON shape and names of Structured Streaming's {@code
 * StreamingQueryProgress}: {@code id, runId, name, timestamp} (the epoch's start), {@code batchId,
 * batchDuration, numInputRows, inputRowsPerSecond, processedRowsPerSecond, durationMs} ({@code
 * latestOffset, addBatch, walCommit, commitOffsets, triggerExecution}: what each measures and when
 * it is left out is described by the runtime's epoch durations), {@code eventTime} ({@code
 * watermark}, and {@code min, max, avg} of the epoch's event times where the stream's watermark was
 * assigned with the query's context), {@code stateOperators}, {@code sources[]} ({@code
 * description, startOffset, endOffset, latestOffset, numInputRows, inputRowsPerSecond,
 * processedRowsPerSecond, metrics}), {@code sink} ({@code description, numOutputRows}, and {@code
 * sinks}: each sink's commit record) and {@code observedMetrics} when the query observes any.
 *
 * <p>A field that could not be measured for an epoch is absent rather than made up: the rates and
 * the durations measured from the epoch's start and cut for an epoch cut before the runner started
 * (after a failover), {@code walCommit} for a checkpoint Flink subsumed before notifying it, {@code
 * latestOffset} for sources that do not time their look-up. Spark's {@code queryPlanning} (no
 * per-epoch planning here) is never present.
 */
@PublicEvolving
public record QueryProgress(JsonNode json) {

  public long batchId() {
    return json.path("batchId").asLong();
  }

  public long numInputRows() {
    return json.path("numInputRows").asLong();
  }

  /** Rows all sinks committed in this epoch. */
  public long numOutputRows() {
    return json.path("sink").path("numOutputRows").asLong();
  }

  /**
   * The one-line summary the progress log and the CLI print: {@code <name> epoch <N>: <rows> input
   * rows (<rate or -> rows/s), <rows> output rows, watermark <instant or ->}.
   */
  public String summary() {
    JsonNode watermark = json.path("eventTime").path("watermark");
    return json.path("name").asText()
        + " epoch "
        + batchId()
        + ": "
        + numInputRows()
        + " input rows ("
        + (json.has("inputRowsPerSecond")
            ? String.valueOf(Math.round(json.path("inputRowsPerSecond").asDouble()))
            : "-")
        + " rows/s), "
        + numOutputRows()
        + " output rows, watermark "
        + (watermark.isTextual() ? watermark.asText() : "-");
  }

  @Override
  public String toString() {
    return json.toString();
  }
}
