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

  @Override
  public String toString() {
    return json.toString();
  }
}
