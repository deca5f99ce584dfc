package io.lakestream.connectors.delta.merge;

import io.lakestream.connectors.delta.DeltaDeletionVector;
import java.util.Map;

/**
 * A data file of the target table's snapshot, as its {@code add} action describes it.
 *
 * @param logPath the path exactly as the add action holds it (what the remove action must repeat)
 * @param absolutePath the resolved path, for reading
 * @param partitionValues partition column (physical) name to value text, as the action holds them
 * @param size bytes
 * @param modificationTime the add action's modification time
 * @param statsJson the add action's statistics JSON, or null
 * @param deletionVector the file's deletion vector in the snapshot, or null
 * @param baseRowId the file's {@code baseRowId} (row tracking), or null
 * @param defaultRowCommitVersion the file's {@code defaultRowCommitVersion}, or null
 */
record TargetFile(
    String logPath,
    String absolutePath,
    Map<String, String> partitionValues,
    long size,
    long modificationTime,
    String statsJson,
    DeltaDeletionVector deletionVector,
    Long baseRowId,
    Long defaultRowCommitVersion) {}
