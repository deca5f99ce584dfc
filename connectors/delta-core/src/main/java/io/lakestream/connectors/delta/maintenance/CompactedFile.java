package io.lakestream.connectors.delta.maintenance;

import java.util.Map;

/**
 * A data file of the snapshot OPTIMIZE read, as its {@code add} action describes it.
 *
 * @param logPath the path exactly as the add action holds it (what the remove action repeats)
 * @param absolutePath the resolved path, for reading
 * @param partitionValues partition column name to value text
 * @param size bytes
 * @param statsJson the add action's statistics JSON, or null
 * @param numRecords rows, from the statistics, or -1
 */
record CompactedFile(
    String logPath,
    String absolutePath,
    Map<String, String> partitionValues,
    long size,
    String statsJson,
    long numRecords) {}
