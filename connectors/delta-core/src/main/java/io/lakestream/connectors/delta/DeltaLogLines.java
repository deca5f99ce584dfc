package io.lakestream.connectors.delta;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lakestream.api.annotation.Internal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The JSON lines of one Delta log version that lakestream writes itself (MERGE, OPTIMIZE, VACUUM),
 * one action per line as the Delta protocol has them, starting with a {@code commitInfo} in Spark's
 * shape (operation, parameters, metrics as strings, engine, transaction id). Not thread-safe.
 */
@Internal
public final class DeltaLogLines {
  /** The mapper the lines are written and read with. */
  public static final ObjectMapper JSON = new ObjectMapper();

  private final List<String> lines = new ArrayList<>();

  /**
   * Adds a {@code commitInfo}.
   *
   * @param inCommitTimestamp the version's in-commit timestamp (also its {@code timestamp}), or
   *     null for a table without them
   * @param readVersion the version the operation read, or -1 for none
   */
  public DeltaLogLines commitInfo(
      String operation,
      long timestamp,
      Long inCommitTimestamp,
      long readVersion,
      String isolationLevel,
      Map<String, String> parameters,
      Map<String, Long> metrics) {
    ObjectNode info = JSON.createObjectNode();
    if (inCommitTimestamp != null) {
      info.put("inCommitTimestamp", inCommitTimestamp);
    }
    info.put("timestamp", inCommitTimestamp != null ? inCommitTimestamp : timestamp);
    info.put("operation", operation);
    ObjectNode params = info.putObject("operationParameters");
    parameters.forEach(params::put);
    if (readVersion >= 0) {
      info.put("readVersion", readVersion);
    }
    info.put("isolationLevel", isolationLevel);
    info.put("isBlindAppend", false);
    ObjectNode m = info.putObject("operationMetrics");
    metrics.forEach((k, v) -> m.put(k, String.valueOf(v)));
    info.put("engineInfo", DeltaTable.ENGINE_INFO);
    info.put("txnId", UUID.randomUUID().toString());
    return action("commitInfo", info);
  }

  /**
   * Adds the {@code delta.rowTracking} domain's metadata raising the row id high water mark to
   * {@code mark}, as a version that assigned row ids up to it must.
   */
  public DeltaLogLines rowIdHighWaterMark(long mark) {
    ObjectNode domain = JSON.createObjectNode();
    domain.put("domain", "delta.rowTracking");
    domain.put("configuration", "{\"rowIdHighWaterMark\":" + mark + "}");
    domain.put("removed", false);
    return action("domainMetadata", domain);
  }

  /** Adds the action {@code {"<name>": action}}. */
  public DeltaLogLines action(String name, ObjectNode action) {
    ObjectNode wrapper = JSON.createObjectNode();
    wrapper.set(name, action);
    try {
      lines.add(JSON.writeValueAsString(wrapper));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot serialize a " + name + " action", e);
    }
    return this;
  }

  /** Sets a file action's {@code partitionValues}. */
  public static void partitionValues(ObjectNode action, Map<String, String> values) {
    ObjectNode node = action.putObject("partitionValues");
    values.forEach(node::put);
  }

  /** The lines so far. */
  public List<String> lines() {
    return List.copyOf(lines);
  }
}
