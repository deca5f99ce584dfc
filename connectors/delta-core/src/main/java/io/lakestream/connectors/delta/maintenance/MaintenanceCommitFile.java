package io.lakestream.connectors.delta.maintenance;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lakestream.connectors.delta.DeltaLogLines;
import io.lakestream.connectors.delta.DeltaWrittenFile;
import io.lakestream.connectors.delta.kernel.KernelTablePath;
import java.util.List;
import java.util.Map;

/**
 * The actions of one maintenance version as Delta log JSON lines: {@code commitInfo} with Spark's
 * operation name, parameters and metrics, then {@code remove} and {@code add} actions with {@code
 * dataChange=false} (the rows are the same, only their files change: readers of the change data
 * feed and streaming readers skip such versions). Paths are relative to the table root and
 * URI-encoded, as Delta writers record them.
 */
final class MaintenanceCommitFile {
  static final ObjectMapper JSON = DeltaLogLines.JSON;

  private final KernelTablePath root;
  private final DeltaLogLines lines = new DeltaLogLines();

  MaintenanceCommitFile(String tableRoot) {
    this.root = KernelTablePath.of(tableRoot);
  }

  /**
   * @param inCommitTimestamp the version's in-commit timestamp, or null for a table without them
   * @param readVersion the version the operation read, or -1 for none (VACUUM's)
   */
  MaintenanceCommitFile commitInfo(
      String operation,
      long timestamp,
      Long inCommitTimestamp,
      long readVersion,
      Map<String, String> parameters,
      Map<String, Long> metrics) {
    lines.commitInfo(
        operation,
        timestamp,
        inCommitTimestamp,
        readVersion,
        "SnapshotIsolation",
        parameters,
        metrics);
    return this;
  }

  MaintenanceCommitFile remove(CompactedFile file, long deletionTimestamp) {
    ObjectNode remove = JSON.createObjectNode();
    remove.put("path", file.logPath());
    remove.put("deletionTimestamp", deletionTimestamp);
    remove.put("dataChange", false);
    remove.put("extendedFileMetadata", true);
    partitionValues(remove, file.partitionValues());
    remove.put("size", file.size());
    if (file.statsJson() != null) {
      remove.put("stats", file.statsJson());
    }
    if (file.deletionVector() != null) {
      file.deletionVector().toJson(remove.putObject("deletionVector"));
    }
    if (file.baseRowId() != null) {
      remove.put("baseRowId", file.baseRowId());
    }
    if (file.defaultRowCommitVersion() != null) {
      remove.put("defaultRowCommitVersion", file.defaultRowCommitVersion());
    }
    return line("remove", remove);
  }

  /**
   * @param partitionValues the file's partition values keyed as the log keys them (physical names
   *     under column mapping)
   * @param baseRowId its first row id, or null without row tracking
   * @param commitVersion the version being committed (its {@code defaultRowCommitVersion})
   */
  MaintenanceCommitFile add(
      DeltaWrittenFile file,
      Map<String, String> partitionValues,
      Long baseRowId,
      long commitVersion) {
    ObjectNode add = JSON.createObjectNode();
    add.put("path", root.relativize(file.path()));
    partitionValues(add, partitionValues);
    add.put("size", file.size());
    add.put("modificationTime", file.modificationTime());
    add.put("dataChange", false);
    if (!file.statsJson().isEmpty()) {
      add.put("stats", file.statsJson());
    }
    if (baseRowId != null) {
      add.put("baseRowId", baseRowId);
      add.put("defaultRowCommitVersion", commitVersion);
    }
    return line("add", add);
  }

  /** Raises the row id high water mark (row tracking) to {@code mark}. */
  MaintenanceCommitFile rowIdHighWaterMark(long mark) {
    lines.rowIdHighWaterMark(mark);
    return this;
  }

  List<String> lines() {
    return lines.lines();
  }

  private static void partitionValues(ObjectNode action, Map<String, String> values) {
    DeltaLogLines.partitionValues(action, values);
  }

  private MaintenanceCommitFile line(String name, ObjectNode action) {
    lines.action(name, action);
    return this;
  }
}
