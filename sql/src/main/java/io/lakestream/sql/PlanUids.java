package io.lakestream.sql;

import io.lakestream.sql.plan.OperatorUids;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.api.dag.Transformation;

/**
 * Gives the operators Flink's planner created for a script the uids {@link OperatorUids} derives
 * from the plan, in place of the planner's {@code <node id>_<kind>}: node ids count per JVM and
 * shift with every operator added before (a filter added before an aggregation moved the
 * aggregation's state). The walk is the plan side's: from each statement's sink towards its
 * sources, inputs in order, an operator shared by statements belonging to the first.
 */
final class PlanUids {
  private static final Pattern PLANNER_UID = Pattern.compile("\\d+_(.+)");

  private final Set<Transformation<?>> visited = new HashSet<>();
  private final Set<String> assigned = new LinkedHashSet<>();

  private PlanUids() {}

  /**
   * Renames the planner's uids upstream of {@code sinks}.
   *
   * @param sinks the statements' sink transformations, in script order, then any other sinks the
   *     planning added (a source's dead letters)
   * @param statements the statement keys of the first sinks ({@link OperatorUids#statementKeys}); a
   *     further sink is named by its own uid
   * @return the uids given
   */
  static Set<String> assign(List<Transformation<?>> sinks, List<String> statements) {
    PlanUids uids = new PlanUids();
    for (int i = 0; i < sinks.size(); i++) {
      Transformation<?> sink = sinks.get(i);
      String statement =
          i < statements.size()
              ? statements.get(i)
              : sink.getUid() != null ? sink.getUid() : "sink-" + sink.getId();
      uids.visit(sink, statement, new HashMap<>());
    }
    return uids.assigned;
  }

  private void visit(Transformation<?> t, String statement, Map<String, Integer> counts) {
    if (!visited.add(t)) {
      return;
    }
    Matcher planner = t.getUid() == null ? null : PLANNER_UID.matcher(t.getUid());
    if (planner != null && planner.matches()) {
      String kind = planner.group(1);
      String uid = OperatorUids.uid(statement, kind, counts.merge(kind, 1, Integer::sum));
      t.setUid(uid);
      assigned.add(uid);
    }
    for (Transformation<?> input : t.getInputs()) {
      visit(input, statement, counts);
    }
  }
}
