package io.lakestream.connectors.delta.maintenance;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.Optional;

/** Reads the parts of Delta log action lines and statistics that maintenance decides on. */
final class LogActions {
  private LogActions() {}

  /** The path of a {@code remove} action line, or empty for another action. */
  static Optional<String> removedPath(String line) {
    JsonNode remove = tree(line).path("remove");
    return remove.isObject() ? Optional.of(remove.path("path").asText()) : Optional.empty();
  }

  /** The {@code numRecords} of an add action's statistics JSON, or -1. */
  static long numRecords(String statsJson) {
    return statsJson == null ? -1 : tree(statsJson).path("numRecords").asLong(-1);
  }

  private static JsonNode tree(String json) {
    try {
      return MaintenanceCommitFile.JSON.readTree(json);
    } catch (IOException e) {
      return MaintenanceCommitFile.JSON.missingNode();
    }
  }
}
