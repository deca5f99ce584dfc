package io.lakestream.sql.plan;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Where a field of an exec node's output comes from, as text: a source column ({@code
 * orders.customer}) or the expression over source columns that computes it ({@code
 * UPPER(orders.customer)}). Two plans that key an operator by the same column agree here whatever
 * the projections and renames between the source and the operator; fields this cannot trace are
 * named by their output name.
 */
final class FieldLineage {
  /** Nodes that pass their input's fields on at the same positions (and may add some after). */
  private static final Set<String> PASS_THROUGH =
      Set.of(
          "exchange",
          "watermark-assigner",
          "mini-batch-assigner",
          "drop-update-before",
          "changelog-normalize",
          "deduplicate",
          "sink",
          "limit",
          "sort-limit",
          "sort",
          "temporal-sort",
          "rank",
          "window-rank",
          "window-deduplicate",
          "over-aggregate",
          "window-table-function",
          "union",
          "correlate",
          "python-correlate",
          "lookup-join");

  /** Nodes whose first fields are their grouping keys. */
  private static final Set<String> GROUPING =
      Set.of(
          "group-aggregate",
          "local-group-aggregate",
          "global-group-aggregate",
          "incremental-group-aggregate",
          "group-window-aggregate",
          "window-aggregate",
          "local-window-aggregate",
          "global-window-aggregate",
          "group-table-aggregate",
          "python-group-aggregate",
          "python-group-window-aggregate",
          "python-group-table-aggregate");

  /** Nodes whose output is the left input's fields, then the right's. */
  private static final Set<String> JOINS =
      Set.of("join", "interval-join", "temporal-join", "window-join", "multi-join");

  private static final int MAX_DEPTH = 64;

  private final PlanGraph graph;
  private final Map<String, String> known = new HashMap<>();

  FieldLineage(PlanGraph graph) {
    this.graph = graph;
  }

  /** The origin of field {@code index} of node {@code id}. */
  String of(int id, int index) {
    return of(id, index, 0);
  }

  /** The origins of fields {@code indexes} of node {@code id}, each with its type. */
  List<String> withTypes(int id, JsonNode indexes) {
    List<RowFields.Field> fields = graph.fields(id);
    List<String> out = new ArrayList<>();
    for (JsonNode index : indexes) {
      int i = index.asInt();
      out.add(of(id, i) + (i < fields.size() ? " " + fields.get(i).type() : ""));
    }
    return out;
  }

  private String of(int id, int index, int depth) {
    String key = id + ":" + index;
    String origin = known.get(key);
    if (origin == null) {
      origin = depth > MAX_DEPTH ? name(id, index) : trace(id, index, depth + 1);
      known.put(key, origin);
    }
    return origin;
  }

  private String trace(int id, int index, int depth) {
    JsonNode node = graph.node(id);
    String kind = PlanGraph.kind(node);
    List<Integer> inputs = graph.inputs(id);
    if (kind.equals("table-source-scan")) {
      String table = PlanGraph.table(node);
      return table.substring(table.lastIndexOf('.') + 1) + "." + name(id, index);
    }
    if (kind.equals("calc") || kind.equals("python-calc")) {
      JsonNode projection = node.path("projection");
      return index < projection.size() && !inputs.isEmpty()
          ? expression(projection.get(index), inputs.get(0), depth)
          : name(id, index);
    }
    if (JOINS.contains(kind) && inputs.size() == 2) {
      int leftArity = graph.fields(inputs.get(0)).size();
      return index < leftArity
          ? of(inputs.get(0), index, depth)
          : of(inputs.get(1), index - leftArity, depth);
    }
    if (GROUPING.contains(kind) && !inputs.isEmpty()) {
      JsonNode grouping = node.path("grouping");
      return index < grouping.size()
          ? of(inputs.get(0), grouping.get(index).asInt(), depth)
          : name(id, index);
    }
    if (PASS_THROUGH.contains(kind)
        && !inputs.isEmpty()
        && index < graph.fields(inputs.get(0)).size()) {
      return of(inputs.get(0), index, depth);
    }
    return name(id, index);
  }

  /** A projection's expression (Flink's RexNode JSON) over the input's fields. */
  private String expression(JsonNode rex, int input, int depth) {
    switch (rex.path("kind").asText()) {
      case "INPUT_REF":
        return of(input, rex.path("inputIndex").asInt(), depth);
      case "LITERAL":
        return rex.path("value").isMissingNode() ? "NULL" : rex.path("value").asText();
      case "FIELD_ACCESS":
        return expression(rex.path("expr"), input, depth) + "." + rex.path("name").asText();
      case "CALL":
        List<String> operands = new ArrayList<>();
        for (JsonNode operand : rex.path("operands")) {
          operands.add(expression(operand, input, depth));
        }
        return function(rex) + "(" + String.join(", ", operands) + ")";
      default:
        return rex.path("kind").asText();
    }
  }

  /** A call's function: {@code $UPPER$1} as {@code UPPER}, or its system or catalog name. */
  static String function(JsonNode call) {
    String internal = call.path("internalName").asText("");
    if (internal.startsWith("$")) {
      int end = internal.indexOf('$', 1);
      return end > 0 ? internal.substring(1, end) : internal.substring(1);
    }
    for (String field : List.of("systemName", "catalogName", "class")) {
      if (call.hasNonNull(field)) {
        return call.path(field).asText();
      }
    }
    return internal.isEmpty() ? "call" : internal;
  }

  private String name(int id, int index) {
    List<RowFields.Field> fields = graph.fields(id);
    return index < fields.size() ? fields.get(index).name() : "$" + index;
  }
}
