package io.lakestream.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import io.lakestream.api.annotation.PublicEvolving;

/**
 * One epoch's progress, in the JSON shape of Structured Streaming's {@code StreamingQueryProgress}:
 * {@code id, runId, name, timestamp, batchId, numInputRows, inputRowsPerSecond,
 * processedRowsPerSecond, durationMs, eventTime.watermark, stateOperators, sources, sink}.
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
   * rows (<rate> rows/s), <rows> output rows, watermark <instant or ->}.
   */
  public String summary() {
    JsonNode watermark = json.path("eventTime").path("watermark");
    return json.path("name").asText()
        + " epoch "
        + batchId()
        + ": "
        + numInputRows()
        + " input rows ("
        + Math.round(json.path("inputRowsPerSecond").asDouble())
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
