package io.lakestream.runtime;

import io.lakestream.api.annotation.PublicEvolving;

/**
 * The plan a {@link PlannedDataflow} built: stored as text in the checkpoint location, and the
 * judge of whether a restart can take over the state a stored plan's run left.
 */
@PublicEvolving
public interface DataflowPlan {

  /** The plan as stored in the checkpoint location (JSON by convention). */
  String text();

  /**
   * Whether a query built as this plan can restore the state of a run built as {@code stored}.
   * Never fails on a stored plan it cannot read: it reports that as a problem.
   *
   * @param stored the {@link #text()} of the plan that wrote the state
   */
  PlanVerdict restartFrom(String stored);
}
