package io.lakestream.connectors.delta.maintenance;

import io.lakestream.connectors.delta.DeltaDeletionVector;
import java.util.Map;

/**
 * A data file of the snapshot OPTIMIZE read, as its {@code add} action describes it.
 *
 * @param logPath the path exactly as the add action holds it (what the remove action repeats)
 * @param absolutePath the resolved path, for reading
 * @param partitionValues partition values keyed as the log keys them (physical names under column
 *     mapping)
 * @param size bytes
 * @param statsJson the add action's statistics JSON, or null
 * @param numRecords rows the file holds for readers (its statistics' count less the rows its
 *     deletion vector deletes), or -1 without statistics
 * @param deletionVector the file's deletion vector, or null
 * @param baseRowId the file's first row id (row tracking), or null
 * @param defaultRowCommitVersion the version its rows were committed in (row tracking), or null
 */
record CompactedFile(
    String logPath,
    String absolutePath,
    Map<String, String> partitionValues,
    long size,
    String statsJson,
    long numRecords,
    DeltaDeletionVector deletionVector,
    Long baseRowId,
    Long defaultRowCommitVersion) {}
