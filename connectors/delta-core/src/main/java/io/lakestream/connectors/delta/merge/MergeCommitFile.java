package io.lakestream.connectors.delta.merge;

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
 * The actions of one MERGE version as Delta log JSON lines, in the order Delta writes them: {@code
 * commitInfo} (operation MERGE, its parameters and metrics), {@code txn(appId, epoch)}, one {@code
 * remove} per rewritten file ({@code dataChange=true}, with deletion timestamp, partition values
 * and size), one {@code add} per new data file (with statistics), one {@code cdc} per change data
 * file ({@code dataChange=false}). Paths are relative to the table root and URI-encoded, as Delta
 * writers record them.
 */
final class MergeCommitFile {
  static final ObjectMapper JSON = new ObjectMapper();

  private final KernelTablePath root;
  private final List<String> lines = new ArrayList<>();

  MergeCommitFile(String tableRoot) {
    this.root = KernelTablePath.of(tableRoot);
  }

  MergeCommitFile commitInfo(
      long timestamp,
      long readVersion,
      String engineInfo,
      Map<String, String> parameters,
      Map<String, Long> metrics) {
    ObjectNode info = JSON.createObjectNode();
    info.put("timestamp", timestamp);
    info.put("operation", "MERGE");
    ObjectNode params = info.putObject("operationParameters");
    parameters.forEach(params::put);
    info.put("readVersion", readVersion);
    info.put("isolationLevel", "WriteSerializable");
    info.put("isBlindAppend", false);
    ObjectNode m = info.putObject("operationMetrics");
    metrics.forEach((k, v) -> m.put(k, String.valueOf(v)));
    info.put("engineInfo", engineInfo);
    info.put("txnId", UUID.randomUUID().toString());
    return line("commitInfo", info);
  }

  MergeCommitFile txn(String appId, long version, long lastUpdated) {
    ObjectNode txn = JSON.createObjectNode();
    txn.put("appId", appId);
    txn.put("version", version);
    txn.put("lastUpdated", lastUpdated);
    return line("txn", txn);
  }

  MergeCommitFile remove(TargetFile file, long deletionTimestamp) {
    ObjectNode remove = JSON.createObjectNode();
    remove.put("path", file.logPath());
    remove.put("deletionTimestamp", deletionTimestamp);
    remove.put("dataChange", true);
    remove.put("extendedFileMetadata", true);
    partitionValues(remove, file.partitionValues());
    remove.put("size", file.size());
    if (file.statsJson() != null) {
      remove.put("stats", file.statsJson());
    }
    return line("remove", remove);
  }

  MergeCommitFile add(DeltaWrittenFile file) {
    ObjectNode add = JSON.createObjectNode();
    add.put("path", relative(file.path()));
    partitionValues(add, file.partitionValues());
    add.put("size", file.size());
    add.put("modificationTime", file.modificationTime());
    add.put("dataChange", true);
    if (!file.statsJson().isEmpty()) {
      add.put("stats", file.statsJson());
    }
    return line("add", add);
  }

  MergeCommitFile cdc(DeltaWrittenFile file) {
    ObjectNode cdc = JSON.createObjectNode();
    cdc.put("path", relative(file.path()));
    partitionValues(cdc, file.partitionValues());
    cdc.put("size", file.size());
    cdc.put("dataChange", false);
    return line("cdc", cdc);
  }

  List<String> lines() {
    return List.copyOf(lines);
  }

  /** The path relative to the table root, URI-encoded (absolute if outside the root). */
  String relative(String absolutePath) {
    return root.relativize(absolutePath);
  }

  private static void partitionValues(ObjectNode action, Map<String, String> values) {
    ObjectNode node = action.putObject("partitionValues");
    values.forEach(node::put);
  }

  private MergeCommitFile line(String name, ObjectNode action) {
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
