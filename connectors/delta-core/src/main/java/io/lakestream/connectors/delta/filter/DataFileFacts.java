package io.lakestream.connectors.delta.filter;

import java.util.Map;

/** What is known of a data file without reading it: partition values, statistics (parsed once). */
final class DataFileFacts {
  private final Map<String, String> partitionValues;
  private final String statsJson;
  private FileStats stats;

  DataFileFacts(Map<String, String> partitionValues, String statsJson) {
    this.partitionValues = partitionValues;
    this.statsJson = statsJson;
  }

  /** The text of a partition column's value, or null. */
  String partitionValue(String column) {
    return partitionValues.get(column);
  }

  FileStats stats() {
    if (stats == null) {
      stats = FileStats.parse(statsJson);
    }
    return stats;
  }
}
