package io.lakestream.sql.plan;

import io.lakestream.api.annotation.Internal;
import io.lakestream.runtime.PlanVerdict;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The restart matrix of a SQL query, decided from its stored plan and its new one before anything
 * runs. Each stateful operator is matched by its uid ({@link OperatorUids}: statement, kind and
 * position among the statement's operators of that kind) and compared by what its state depends on:
 *
 * <ul>
 *   <li>refused: another grouping, partition, join or deduplication key (by source column, so a
 *       rename or reordering projection is not a change), other aggregate functions or argument
 *       types, another window, other types of the rows an operator stores (a join, a Top-N, a
 *       deduplication keeping rows), a state TTL turned on or off, another implementation version;
 *       a stateful operator removed (its state would be dropped) or added (it would start empty); a
 *       {@code DROP_DUPLICATES_WITHIN_WATERMARK} view keyed by other columns, removed or added;
 *   <li>allowed: everything else, notably filters, projections that keep what a stateful operator
 *       keys by and stores, table options such as rate limits, the trigger, a state TTL's length,
 *       new statements without state.
 * </ul>
 *
 * Each problem names the statement (its position in the new script, or the old one if it is gone)
 * and the operator (Flink's description and uid). Without a compiled plan on either side the
 * planner's operators are left to the fingerprint (only the views are compared).
 */
@Internal
public final class SqlRestartCompatibility {
  private SqlRestartCompatibility() {}

  /** What a restart from {@code stored}'s state as {@code current} meets. */
  public static PlanVerdict check(SqlPlan stored, SqlPlan current) {
    List<String> problems = new ArrayList<>();
    Set<String> decided = new HashSet<>();
    if (stored.flinkPlan().isPresent() && current.flinkPlan().isPresent()) {
      compareOperators(stored, current, problems);
      decided.addAll(stored.operatorUids());
      decided.addAll(current.operatorUids());
    }
    compareViews(stored, current, problems, decided);
    return new PlanVerdict(problems, decided);
  }

  private static void compareOperators(SqlPlan stored, SqlPlan current, List<String> problems) {
    Map<String, PlannedOperator> was = byUid(stored.statefulOperators());
    Map<String, PlannedOperator> now = byUid(current.statefulOperators());
    for (PlannedOperator old : was.values()) {
      PlannedOperator changed = now.get(old.uid());
      if (changed == null) {
        problems.add(
            where(old.statement(), stored, current)
                + old.describe()
                + " was removed: the state it keeps would be dropped");
      } else {
        differences(old, changed)
            .ifPresent(
                d ->
                    problems.add(
                        where(changed.statement(), stored, current)
                            + changed.describe()
                            + " changed ("
                            + d
                            + "): the state it keeps cannot be carried over"));
      }
    }
    for (PlannedOperator added : now.values()) {
      if (!was.containsKey(added.uid())) {
        problems.add(
            where(added.statement(), stored, current)
                + added.describe()
                + " is new: the checkpoint holds no state for it, so it would start as if no"
                + " earlier row had been seen");
      }
    }
  }

  /** The aspects of the operator's state that differ, as {@code keys from [a] to [b]; ...}. */
  private static Optional<String> differences(PlannedOperator old, PlannedOperator now) {
    Set<String> aspects = new LinkedHashSet<>(old.state().keySet());
    aspects.addAll(now.state().keySet());
    List<String> out = new ArrayList<>();
    for (String aspect : aspects) {
      String a = old.state().get(aspect);
      String b = now.state().get(aspect);
      if (!Objects.equals(a, b)) {
        out.add(aspect + " from " + shown(a) + " to " + shown(b));
      }
    }
    return out.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", out));
  }

  private static String shown(String value) {
    return value == null ? "(none)" : value;
  }

  private static void compareViews(
      SqlPlan stored, SqlPlan current, List<String> problems, Set<String> decided) {
    Map<String, SqlPlan.DedupView> was = new LinkedHashMap<>();
    stored.views().forEach(v -> was.put(v.uid(), v));
    Map<String, SqlPlan.DedupView> now = new LinkedHashMap<>();
    current.views().forEach(v -> now.put(v.uid(), v));
    for (SqlPlan.DedupView old : was.values()) {
      SqlPlan.DedupView view = now.get(old.uid());
      if (view == null) {
        problems.add(
            viewLabel(old, " (removed)")
                + " is no longer run: the keys its state holds would be dropped");
      } else if (!sameKeys(old.keys(), view.keys())) {
        problems.add(
            viewLabel(view, "")
                + " now keys by "
                + view.keys()
                + " instead of "
                + old.keys()
                + ": its state holds the keys seen under the old columns");
      } else {
        continue;
      }
      decided.add(old.uid());
    }
    for (SqlPlan.DedupView view : now.values()) {
      if (!was.containsKey(view.uid())) {
        problems.add(
            viewLabel(view, "")
                + " is new: the checkpoint holds no keys for it, so duplicates of rows read"
                + " before would pass");
        decided.add(view.uid());
      }
    }
  }

  private static String viewLabel(SqlPlan.DedupView view, String note) {
    return "CREATE TEMPORARY VIEW "
        + view.view()
        + " at "
        + view.position()
        + note
        + ": DROP_DUPLICATES_WITHIN_WATERMARK (uid "
        + view.uid()
        + ")";
  }

  private static boolean sameKeys(List<String> a, List<String> b) {
    if (a.size() != b.size()) {
      return false;
    }
    for (int i = 0; i < a.size(); i++) {
      if (!a.get(i).equalsIgnoreCase(b.get(i))) {
        return false;
      }
    }
    return true;
  }

  /** The statement in words: {@code INSERT INTO totals at gold.sql:12:1: }. */
  private static String where(String key, SqlPlan stored, SqlPlan current) {
    Optional<SqlPlan.Statement> now = current.statement(key);
    if (now.isPresent()) {
      return now.get().label() + " at " + now.get().position() + ": ";
    }
    return stored
        .statement(key)
        .map(s -> s.label() + " (was at " + s.position() + ", now removed): ")
        .orElse(key + ": ");
  }

  private static Map<String, PlannedOperator> byUid(List<PlannedOperator> operators) {
    Map<String, PlannedOperator> map = new LinkedHashMap<>();
    operators.forEach(o -> map.put(o.uid(), o));
    return map;
  }
}
