package io.lakestream.connectors.delta.merge;

import java.util.Map;

/**
 * A data file of the target table's snapshot, as its {@code add} action describes it.
 *
 * @param logPath the path exactly as the add action holds it (what the remove action must repeat)
 * @param absolutePath the resolved path, for reading
 * @param partitionValues partition column name to value text
 * @param size bytes
 * @param statsJson the add action's statistics JSON, or null
 */
record TargetFile(
    String logPath,
    String absolutePath,
    Map<String, String> partitionValues,
    long size,
    String statsJson) {}
