package io.lakestream.runtime;

import io.lakestream.api.annotation.PublicEvolving;
import java.util.List;
import java.util.Set;

/**
 * What a {@link DataflowPlan} decided about a restart.
 *
 * @param problems why the restart is refused, each naming what changed and where; empty when the
 *     plan allows it
 * @param decidedOperators the uids of the stateful operators the plan judged (allowed or refused):
 *     the fingerprint's own comparison of their key types and state leaves them out, so a change is
 *     reported once, in the plan's words
 */
@PublicEvolving
public record PlanVerdict(List<String> problems, Set<String> decidedOperators) {
  public PlanVerdict {
    problems = List.copyOf(problems);
    decidedOperators = Set.copyOf(decidedOperators);
  }
}
