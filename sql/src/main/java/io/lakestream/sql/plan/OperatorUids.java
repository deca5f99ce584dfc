package io.lakestream.sql.plan;

import io.lakestream.api.annotation.Internal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The uids of the operators Flink's planner creates for a SQL query, derived from the plan rather
 * than from the planner's running node ids: {@code <statement>/<kind>} for the first operator of a
 * kind in a statement, {@code <statement>/<kind>#<n>} for the n-th, counted from the statement's
 * sink towards its sources. The statement is its sink table ({@code catalog.database.table}, with
 * {@code #<n>} for the n-th {@code INSERT} into the same table) and the kind is the planner's (
 * {@code group-aggregate}, {@code join}, {@code deduplicate}, {@code calc}, ...). An operator
 * shared by several statements belongs to the first of them in the script.
 *
 * <p>So a filter or projection added before an aggregation does not move the aggregation's state:
 * the number of operators of its kind between it and its sink is the same. Stateless operators may
 * change numbers; they have no state.
 */
@Internal
public final class OperatorUids {
  private OperatorUids() {}

  /** The uid of the {@code ordinal}-th (from 1) operator of {@code kind} in {@code statement}. */
  public static String uid(String statement, String kind, int ordinal) {
    return statement + "/" + kind + (ordinal > 1 ? "#" + ordinal : "");
  }

  /**
   * The keys of statements writing to {@code tables} (one per {@code INSERT}, in script order): the
   * table, then {@code table#2}, {@code table#3} for further {@code INSERT}s into it.
   */
  public static List<String> statementKeys(List<String> tables) {
    Map<String, Integer> seen = new HashMap<>();
    List<String> keys = new ArrayList<>();
    for (String table : tables) {
      int n = seen.merge(table, 1, Integer::sum);
      keys.add(n == 1 ? table : table + "#" + n);
    }
    return keys;
  }
}
