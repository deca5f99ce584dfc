package io.lakestream.sql;

import io.lakestream.runtime.DataflowPlan;
import io.lakestream.runtime.PlanVerdict;
import io.lakestream.sql.plan.SqlPlan;
import io.lakestream.sql.plan.SqlRestartCompatibility;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A SQL query's plan as the runtime stores and checks it ({@link SqlPlan}). */
final class SqlDataflowPlan implements DataflowPlan {
  private static final Logger LOG = LoggerFactory.getLogger(SqlDataflowPlan.class);

  private final SqlPlan plan;

  SqlDataflowPlan(SqlPlan plan) {
    this.plan = plan;
  }

  SqlPlan plan() {
    return plan;
  }

  @Override
  public String text() {
    return plan.toJson();
  }

  /**
   * A stored plan this cannot read (damaged, or of a newer format) leaves the fingerprint to judge.
   */
  @Override
  public PlanVerdict restartFrom(String stored) {
    SqlPlan before;
    try {
      before = SqlPlan.parse(stored);
    } catch (IllegalArgumentException e) {
      LOG.warn(
          "The checkpoint location's stored SQL plan is not readable ({}): this restart is checked"
              + " by the query's fingerprint alone",
          e.getMessage());
      return new PlanVerdict(List.of(), Set.of());
    }
    return SqlRestartCompatibility.check(before, plan);
  }
}
