package io.lakestream.sql.plan;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A stateful exec node of a compiled plan, as the restart check compares it.
 *
 * @param uid the operator's uid ({@link OperatorUids})
 * @param statement the key of the statement it belongs to
 * @param kind the planner's kind, e.g. {@code group-aggregate}
 * @param description Flink's description of the node, e.g. {@code GroupAggregate(groupBy=[a], ...)}
 * @param state what its state depends on, by aspect (grouping keys, aggregates, stored rows, state
 *     TTL, ...); a changed aspect means the state cannot be carried over
 */
record PlannedOperator(
    String uid, String statement, String kind, String description, Map<String, String> state) {

  PlannedOperator {
    state = Collections.unmodifiableMap(new LinkedHashMap<>(state));
  }

  /** The operator in words, e.g. {@code the aggregation GroupAggregate(groupBy=[a], ...)}. */
  String describe() {
    String what =
        switch (kind) {
          case "group-aggregate",
              "global-group-aggregate",
              "incremental-group-aggregate",
              "group-table-aggregate" ->
              "the aggregation";
          case "window-aggregate", "global-window-aggregate", "group-window-aggregate" ->
              "the window aggregation";
          case "join", "interval-join", "temporal-join", "window-join" -> "the join";
          case "deduplicate", "window-deduplicate" -> "the deduplication";
          case "rank", "window-rank" -> "the Top-N";
          case "over-aggregate" -> "the OVER aggregation";
          case "upsert-materialize" -> "the sink's upsert materializer";
          default -> "the " + kind + " operator";
        };
    String text = description.length() > 160 ? description.substring(0, 157) + "..." : description;
    return what + (text.isEmpty() ? "" : " " + text) + " (uid " + uid + ")";
  }
}
