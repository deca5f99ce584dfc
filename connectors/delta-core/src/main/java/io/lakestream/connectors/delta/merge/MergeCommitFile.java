package io.lakestream.connectors.delta.merge;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lakestream.connectors.delta.DeltaDeletionVector;
import io.lakestream.connectors.delta.DeltaLogLines;
import io.lakestream.connectors.delta.DeltaWrittenFile;
import io.lakestream.connectors.delta.kernel.KernelTablePath;
import java.util.List;
import java.util.Map;

/**
 * The actions of one MERGE version as Delta log JSON lines, in the order Delta writes them: {@code
 * commitInfo} (operation MERGE, its parameters and metrics), {@code txn(appId, epoch)}, one {@code
 * remove} per rewritten file ({@code dataChange=true}, with deletion timestamp, partition values
 * and size), one {@code add} per new data file (with statistics), one {@code cdc} per change data
 * file ({@code dataChange=false}). Paths are relative to the table root and URI-encoded, as Delta
 * writers record them. With deletion vectors a changed file is removed with its old vector and
 * added again with its new one ({@link #addWithVector}); with row tracking adds carry {@code
 * baseRowId} and {@code defaultRowCommitVersion} and a {@code domainMetadata} action records the
 * row id high water mark; with in-commit timestamps {@code commitInfo} carries {@code
 * inCommitTimestamp}.
 */
final class MergeCommitFile {
  static final ObjectMapper JSON = DeltaLogLines.JSON;

  private final KernelTablePath root;
  private final DeltaLogLines lines = new DeltaLogLines();

  MergeCommitFile(String tableRoot) {
    this.root = KernelTablePath.of(tableRoot);
  }

  MergeCommitFile commitInfo(
      long timestamp,
      Long inCommitTimestamp,
      long readVersion,
      Map<String, String> parameters,
      Map<String, Long> metrics) {
    lines.commitInfo(
        "MERGE",
        timestamp,
        inCommitTimestamp,
        readVersion,
        "WriteSerializable",
        parameters,
        metrics);
    return this;
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
    fileIdentity(remove, file);
    return line("remove", remove);
  }

  /** The deletion vector and row tracking fields the file's add action holds. */
  private static void fileIdentity(ObjectNode action, TargetFile file) {
    if (file.deletionVector() != null) {
      file.deletionVector().toJson(action.putObject("deletionVector"));
    }
    if (file.baseRowId() != null) {
      action.put("baseRowId", file.baseRowId());
    }
    if (file.defaultRowCommitVersion() != null) {
      action.put("defaultRowCommitVersion", file.defaultRowCommitVersion());
    }
  }

  /**
   * A new data file.
   *
   * @param partitionValues its partition values keyed as the log keys them (physical names)
   * @param baseRowId its first row id, or null without row tracking
   * @param commitVersion the version being committed (its {@code defaultRowCommitVersion})
   */
  MergeCommitFile add(
      DeltaWrittenFile file,
      Map<String, String> partitionValues,
      Long baseRowId,
      long commitVersion) {
    ObjectNode add = JSON.createObjectNode();
    add.put("path", relative(file.path()));
    partitionValues(add, partitionValues);
    add.put("size", file.size());
    add.put("modificationTime", file.modificationTime());
    add.put("dataChange", true);
    if (!file.statsJson().isEmpty()) {
      add.put("stats", file.statsJson());
    }
    if (baseRowId != null) {
      add.put("baseRowId", baseRowId);
      add.put("defaultRowCommitVersion", commitVersion);
    }
    return line("add", add);
  }

  /**
   * A file of the snapshot added again with a new deletion vector; its statistics are kept, marked
   * as no longer tight ({@code tightBounds=false}), and so are its row tracking fields.
   */
  MergeCommitFile addWithVector(TargetFile file, DeltaDeletionVector vector) {
    ObjectNode add = JSON.createObjectNode();
    add.put("path", file.logPath());
    partitionValues(add, file.partitionValues());
    add.put("size", file.size());
    add.put("modificationTime", file.modificationTime());
    add.put("dataChange", true);
    if (file.statsJson() != null) {
      add.put("stats", wideBounds(file.statsJson()));
    }
    TargetFile withVector =
        new TargetFile(
            file.logPath(),
            file.absolutePath(),
            file.partitionValues(),
            file.size(),
            file.modificationTime(),
            file.statsJson(),
            vector,
            file.baseRowId(),
            file.defaultRowCommitVersion());
    fileIdentity(add, withVector);
    return line("add", add);
  }

  private static String wideBounds(String stats) {
    try {
      ObjectNode node = (ObjectNode) JSON.readTree(stats);
      node.put("tightBounds", false);
      return JSON.writeValueAsString(node);
    } catch (JsonProcessingException | ClassCastException e) {
      return stats;
    }
  }

  /** The row id high water mark of the {@code delta.rowTracking} domain. */
  MergeCommitFile rowIdHighWaterMark(long mark) {
    lines.rowIdHighWaterMark(mark);
    return this;
  }

  MergeCommitFile cdc(DeltaWrittenFile file, Map<String, String> partitionValues) {
    ObjectNode cdc = JSON.createObjectNode();
    cdc.put("path", relative(file.path()));
    partitionValues(cdc, partitionValues);
    cdc.put("size", file.size());
    cdc.put("dataChange", false);
    return line("cdc", cdc);
  }

  List<String> lines() {
    return lines.lines();
  }

  /** The path relative to the table root, URI-encoded (absolute if outside the root). */
  String relative(String absolutePath) {
    return root.relativize(absolutePath);
  }

  private static void partitionValues(ObjectNode action, Map<String, String> values) {
    DeltaLogLines.partitionValues(action, values);
  }

  private MergeCommitFile line(String name, ObjectNode action) {
    lines.action(name, action);
    return this;
  }
}
