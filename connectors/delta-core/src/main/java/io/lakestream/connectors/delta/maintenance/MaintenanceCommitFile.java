package io.lakestream.connectors.delta.maintenance;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lakestream.connectors.delta.DeltaWrittenFile;
import io.lakestream.connectors.delta.kernel.KernelTablePath;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The actions of one maintenance version as Delta log JSON lines: {@code commitInfo} with Spark's
 * operation name, parameters and metrics, then {@code remove} and {@code add} actions with {@code
 * dataChange=false} (the rows are the same, only their files change: readers of the change data
 * feed and streaming readers skip such versions). Paths are relative to the table root and
 * URI-encoded, as Delta writers record them.
 */
final class MaintenanceCommitFile {
  static final ObjectMapper JSON = new ObjectMapper();

  private final KernelTablePath root;
  private final List<String> lines = new ArrayList<>();

  MaintenanceCommitFile(String tableRoot) {
    this.root = KernelTablePath.of(tableRoot);
  }

  /**
   * @param readVersion the version the operation read, or -1 for none (VACUUM's)
   */
  MaintenanceCommitFile commitInfo(
      String operation,
      long timestamp,
      long readVersion,
      Map<String, String> parameters,
      Map<String, Long> metrics) {
    ObjectNode info = JSON.createObjectNode();
    info.put("timestamp", timestamp);
    info.put("operation", operation);
    ObjectNode params = info.putObject("operationParameters");
    parameters.forEach(params::put);
    if (readVersion >= 0) {
      info.put("readVersion", readVersion);
    }
    info.put("isolationLevel", "SnapshotIsolation");
    info.put("isBlindAppend", false);
    ObjectNode m = info.putObject("operationMetrics");
    metrics.forEach((k, v) -> m.put(k, String.valueOf(v)));
    info.put("engineInfo", "lakestream");
    info.put("txnId", UUID.randomUUID().toString());
    return line("commitInfo", info);
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
    return line("remove", remove);
  }

  MaintenanceCommitFile add(DeltaWrittenFile file) {
    ObjectNode add = JSON.createObjectNode();
    add.put("path", root.relativize(file.path()));
    partitionValues(add, file.partitionValues());
    add.put("size", file.size());
    add.put("modificationTime", file.modificationTime());
    add.put("dataChange", false);
    if (!file.statsJson().isEmpty()) {
      add.put("stats", file.statsJson());
    }
    return line("add", add);
  }

  List<String> lines() {
    return List.copyOf(lines);
  }

  private static void partitionValues(ObjectNode action, Map<String, String> values) {
    ObjectNode node = action.putObject("partitionValues");
    values.forEach(node::put);
  }

  private MaintenanceCommitFile line(String name, ObjectNode action) {
    ObjectNode wrapper = JSON.createObjectNode();
    wrapper.set(name, action);
    try {
      lines.add(JSON.writeValueAsString(wrapper));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot serialize a " + name + " action", e);
    }
    return this;
  }
}
