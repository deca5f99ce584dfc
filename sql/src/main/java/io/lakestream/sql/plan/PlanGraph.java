package io.lakestream.sql.plan;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Flink's compiled plan JSON ({@code CompiledPlan#asJsonString}) as a graph: its exec nodes by id,
 * each node's inputs in order (from the plan's edges), and its sinks with their tables.
 */
final class PlanGraph {
  private static final Pattern TYPE = Pattern.compile("(?:stream|batch)-exec-(.+?)(?:_\\d+)?");

  private final Map<Integer, JsonNode> nodes = new LinkedHashMap<>();
  private final Map<Integer, List<Integer>> inputs = new LinkedHashMap<>();

  PlanGraph(JsonNode plan) {
    for (JsonNode node : plan.path("nodes")) {
      nodes.put(node.path("id").asInt(), node);
      inputs.put(node.path("id").asInt(), new ArrayList<>());
    }
    for (JsonNode edge : plan.path("edges")) {
      List<Integer> in = inputs.get(edge.path("target").asInt());
      if (in != null) {
        in.add(edge.path("source").asInt());
      }
    }
  }

  JsonNode node(int id) {
    return nodes.get(id);
  }

  /** The node's inputs, in order. */
  List<Integer> inputs(int id) {
    return inputs.getOrDefault(id, List.of());
  }

  /** The sink nodes, in the plan's order. */
  List<Integer> sinks() {
    List<Integer> sinks = new ArrayList<>();
    nodes.forEach(
        (id, node) -> {
          if (kind(node).equals("sink")) {
            sinks.add(id);
          }
        });
    return sinks;
  }

  /** The output fields of node {@code id}. */
  List<RowFields.Field> fields(int id) {
    return RowFields.of(node(id).path("outputType"));
  }

  /** The node's kind: its type without the {@code stream-exec-} prefix and version. */
  static String kind(JsonNode node) {
    Matcher type = TYPE.matcher(node.path("type").asText());
    return type.matches() ? type.group(1) : node.path("type").asText();
  }

  /** The table a sink or source node names, without quotes: {@code catalog.database.table}. */
  static String table(JsonNode node) {
    JsonNode spec = node.has("dynamicTableSink") ? node.path("dynamicTableSink") : node;
    spec = spec.has("scanTableSource") ? spec.path("scanTableSource") : spec;
    return unquote(spec.path("table").path("identifier").asText());
  }

  /** {@code `a`.`b`.`c`} as {@code a.b.c}. */
  static String unquote(String identifier) {
    StringBuilder out = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i < identifier.length(); i++) {
      char c = identifier.charAt(i);
      if (c == '`' && quoted && i + 1 < identifier.length() && identifier.charAt(i + 1) == '`') {
        out.append('`');
        i++;
      } else if (c == '`') {
        quoted = !quoted;
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }
}
