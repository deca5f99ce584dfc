package io.lakestream.sql.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The stateful exec nodes of a compiled plan, each with its uid ({@link OperatorUids}) and what its
 * state depends on. Stateless nodes (scans, projections and filters, exchanges, watermark
 * assigners, unions, local pre-aggregations, lookups) are left out; a node of a kind this class
 * does not know is taken as stateful and compared as a whole, as the safe guess.
 */
final class StatefulOperators {
  private static final Set<String> STATELESS =
      Set.of(
          "table-source-scan",
          "legacy-table-source-scan",
          "data-stream-scan",
          "calc",
          "python-calc",
          "exchange",
          "watermark-assigner",
          "mini-batch-assigner",
          "drop-update-before",
          "union",
          "values",
          "correlate",
          "python-correlate",
          "expand",
          "local-group-aggregate",
          "local-window-aggregate",
          "lookup-join",
          "legacy-sink");

  private static final Set<String> GROUPING =
      Set.of(
          "group-aggregate",
          "global-group-aggregate",
          "incremental-group-aggregate",
          "group-window-aggregate",
          "window-aggregate",
          "global-window-aggregate",
          "group-table-aggregate",
          "python-group-aggregate",
          "python-group-window-aggregate",
          "python-group-table-aggregate");

  private static final Set<String> JOINS =
      Set.of("join", "interval-join", "temporal-join", "window-join");

  private static final Set<String> RANKS = Set.of("rank", "window-rank");

  /** Fields that say nothing about state (ids, texts) or shift with any projection (indexes). */
  private static final Set<String> UNCOMPARED =
      Set.of("id", "description", "inputProperties", "outputType", "configuration");

  private final PlanGraph graph;
  private final FieldLineage lineage;

  private StatefulOperators(PlanGraph graph) {
    this.graph = graph;
    this.lineage = new FieldLineage(graph);
  }

  /**
   * The stateful operators of {@code plan} (Flink's compiled plan JSON) whose statements write the
   * sink tables {@code statementTables} (one per {@code INSERT}, in script order).
   */
  static List<PlannedOperator> of(JsonNode plan, List<String> statementTables) {
    return new StatefulOperators(new PlanGraph(plan)).walk(statementTables);
  }

  private List<PlannedOperator> walk(List<String> statementTables) {
    List<String> keys = OperatorUids.statementKeys(statementTables);
    Map<String, List<Integer>> sinksByTable = new HashMap<>();
    for (int sink : graph.sinks()) {
      sinksByTable
          .computeIfAbsent(PlanGraph.table(graph.node(sink)), t -> new ArrayList<>())
          .add(sink);
    }
    Set<Integer> owned = new HashSet<>();
    List<PlannedOperator> operators = new ArrayList<>();
    for (int i = 0; i < keys.size(); i++) {
      List<Integer> sinks = sinksByTable.getOrDefault(statementTables.get(i), List.of());
      if (!sinks.isEmpty()) {
        Map<String, Integer> counts = new HashMap<>();
        visit(sinks.remove(0), keys.get(i), owned, counts, operators);
      }
    }
    return operators;
  }

  /** Walks from {@code id} towards the sources, sink first, inputs in order (as the uids count). */
  private void visit(
      int id,
      String statement,
      Set<Integer> owned,
      Map<String, Integer> counts,
      List<PlannedOperator> out) {
    if (!owned.add(id)) {
      return;
    }
    JsonNode node = graph.node(id);
    String kind = kindOf(node);
    int ordinal = counts.merge(kind, 1, Integer::sum);
    if (isStateful(kind, node)) {
      out.add(
          new PlannedOperator(
              OperatorUids.uid(statement, kind, ordinal),
              statement,
              kind,
              node.path("description").asText(""),
              state(id, kind, node)));
    }
    for (int input : graph.inputs(id)) {
      visit(input, statement, owned, counts, out);
    }
  }

  /**
   * The kind of the node's stateful operator as the planner names its transformation: a sink that
   * materializes upserts by its materializer, a limit by its rank operator.
   */
  private static String kindOf(JsonNode node) {
    String kind = PlanGraph.kind(node);
    if (kind.equals("sink") && node.path("requireUpsertMaterialize").asBoolean(false)) {
      return "upsert-materialize";
    }
    return kind.equals("limit") || kind.equals("sort-limit") ? "rank" : kind;
  }

  private static boolean isStateful(String kind, JsonNode node) {
    if (kind.equals("sink")) {
      return false;
    }
    if (kind.equals("window-table-function")) {
      return node.path("windowing").toString().contains("Session");
    }
    return !STATELESS.contains(kind);
  }

  private Map<String, String> state(int id, String kind, JsonNode node) {
    Map<String, String> state = new LinkedHashMap<>();
    state.put("implementation", node.path("type").asText());
    List<Integer> inputs = graph.inputs(id);
    int input = inputs.isEmpty() ? -1 : inputs.get(0);
    if (GROUPING.contains(kind)) {
      state.put("grouping keys", keys(input, node.path("grouping")));
      state.put("aggregates", aggregates(input, node.path("aggCalls")));
      state.put(
          "window", withoutIndexes(node.path("windowing")) + withoutIndexes(node.path("window")));
      state.put("retraction", node.path("needRetraction").asText("false"));
    } else if (JOINS.contains(kind) && inputs.size() == 2) {
      join(node, inputs, state);
    } else if (kind.equals("deduplicate") || kind.equals("window-deduplicate")) {
      deduplicate(node, input, state);
    } else if (RANKS.contains(kind)) {
      state.put("partition keys", keys(input, node.path("partitionSpec").path("fields")));
      state.put("order", order(input, node.path("orderBy").path("fields")));
      state.put("rank", node.path("rankType").asText() + " " + node.path("rankRange"));
      state.put("stored rows", rowTypes(input));
    } else if (kind.equals("over-aggregate")) {
      state.put(
          "partition keys", keys(input, node.path("overSpec").path("partition").path("fields")));
      state.put("window", withoutIndexes(node.path("overSpec").path("groups")));
      state.put("stored rows", rowTypes(input));
    } else if (kind.equals("changelog-normalize")) {
      state.put("keys", keys(input, node.path("uniqueKeys")));
      state.put("stored rows", rowTypes(input));
    } else if (kind.equals("upsert-materialize")) {
      state.put("keys", keys(input, node.path("inputUpsertKey")));
      state.put("stored rows", rowTypes(input));
    } else {
      state.put("plan", withoutIndexes(node));
    }
    state.put("state TTL", ttl(node.path("state")));
    state.values().removeIf(String::isEmpty);
    return state;
  }

  private void join(JsonNode node, List<Integer> inputs, Map<String, String> state) {
    JsonNode spec = node.path("joinSpec");
    state.put("join type", spec.path("joinType").asText());
    state.put(
        "join keys",
        keys(inputs.get(0), spec.path("leftKeys"))
            + " = "
            + keys(inputs.get(1), spec.path("rightKeys")));
    state.put("stored rows", rowTypes(inputs.get(0)) + " | " + rowTypes(inputs.get(1)));
    state.put(
        "unique keys",
        keys(inputs.get(0), node.path("leftUpsertKeys"))
            + " | "
            + keys(inputs.get(1), node.path("rightUpsertKeys")));
  }

  private void deduplicate(JsonNode node, int input, Map<String, String> state) {
    boolean rowtime = node.path("isRowtime").asBoolean(false);
    boolean last = node.path("keepLastRow").asBoolean(false);
    state.put("keys", keys(input, node.path("uniqueKeys")));
    state.put(
        "keeps",
        (last ? "last row" : "first row") + (rowtime ? " by event time" : " by processing time"));
    if (rowtime || last) {
      state.put("stored rows", rowTypes(input));
    }
  }

  /** Key fields by origin and type, e.g. {@code [orders.customer VARCHAR(2147483647)]}. */
  private String keys(int input, JsonNode indexes) {
    if (input < 0 || indexes.isMissingNode() || indexes.isNull()) {
      return "";
    }
    JsonNode flat = indexes;
    if (indexes.size() > 0 && indexes.get(0).isArray()) { // a list of key sets
      List<String> sets = new ArrayList<>();
      indexes.forEach(set -> sets.add(lineage.withTypes(input, set).toString()));
      return sets.toString();
    }
    return lineage.withTypes(input, flat).toString();
  }

  private String aggregates(int input, JsonNode calls) {
    List<RowFields.Field> fields = input < 0 ? List.of() : graph.fields(input);
    List<String> out = new ArrayList<>();
    for (JsonNode call : calls) {
      List<String> args = new ArrayList<>();
      for (JsonNode arg : call.path("argList")) {
        args.add(arg.asInt() < fields.size() ? fields.get(arg.asInt()).type() : "$" + arg.asInt());
      }
      out.add(
          FieldLineage.function(call)
              + "("
              + (call.path("distinct").asBoolean(false) ? "DISTINCT " : "")
              + String.join(", ", args)
              + ")"
              + (call.path("filterArg").asInt(-1) >= 0 ? " FILTER" : ""));
    }
    return out.toString();
  }

  private String order(int input, JsonNode fields) {
    List<String> out = new ArrayList<>();
    for (JsonNode field : fields) {
      out.add(
          lineage.of(input, field.path("index").asInt())
              + (field.path("isAscending").asBoolean(true) ? " ASC" : " DESC"));
    }
    return out.toString();
  }

  /** The types of the rows an operator keeps (their names do not matter to state). */
  private String rowTypes(int input) {
    List<String> types = new ArrayList<>();
    graph.fields(input).forEach(f -> types.add(f.type()));
    return types.toString();
  }

  /** Per state, whether it has a TTL: turning a TTL on or off changes how its values are stored. */
  private static String ttl(JsonNode states) {
    List<String> out = new ArrayList<>();
    for (JsonNode state : states) {
      boolean none = state.path("ttl").asText("0 ms").matches("0+(\\s*\\w+)?");
      out.add(state.path("name").asText() + (none ? " without TTL" : " with TTL"));
    }
    return out.isEmpty() ? "" : out.toString();
  }

  /** The node's JSON without what does not bear on state (ids, texts, field indexes). */
  private static String withoutIndexes(JsonNode node) {
    if (node.isMissingNode() || node.isNull()) {
      return "";
    }
    JsonNode copy = node.deepCopy();
    strip(copy);
    return copy.toString();
  }

  private static void strip(JsonNode node) {
    if (node instanceof ObjectNode object) {
      Iterator<String> names = object.fieldNames();
      List<String> drop = new ArrayList<>();
      names.forEachRemaining(
          n -> {
            if (UNCOMPARED.contains(n) || n.toLowerCase(Locale.ROOT).contains("index")) {
              drop.add(n);
            }
          });
      object.remove(drop);
    }
    node.forEach(StatefulOperators::strip);
  }
}
