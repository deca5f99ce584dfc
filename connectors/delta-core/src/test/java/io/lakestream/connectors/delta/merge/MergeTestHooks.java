package io.lakestream.connectors.delta.merge;

/** Lets tests of other packages run code between a MERGE's planning and its commit. */
public final class MergeTestHooks {
  private MergeTestHooks() {}

  /** Runs {@code hook} after each planning of {@code commit}. */
  public static void afterPlanning(DeltaMergeCommit commit, Runnable hook) {
    commit.afterPlanning(hook);
  }
}
