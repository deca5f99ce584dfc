package io.lakestream.state.query;

import io.lakestream.api.annotation.Internal;

/**
 * A source that tells the restart checks what it is. Sources that do not implement it are described
 * by their class name.
 */
@Internal
public interface DescribedSource {

  /** The kind of source, e.g. {@code kafka}, {@code rate}. */
  String sourceType();

  /** What it reads, for people: topic, path. */
  String sourceTarget();

  /** Directories it reads files from; a checkpoint location must not be inside them. */
  default java.util.List<java.net.URI> inputPaths() {
    return java.util.List.of();
  }

  /**
   * Whether it can bound a run to what is available at start and report when it caught up (the
   * availableNow and once triggers).
   */
  default boolean supportsAvailableNow() {
    return false;
  }

  /**
   * Whether it ends epochs at a limit of its own ({@code maxOffsetsPerTrigger}, {@code
   * maxFilesPerTrigger}): its reader waits, once an epoch is full, for the checkpoint that starts
   * the next one, so an availableNow run with such a source checkpoints back to back. A run whose
   * sources have no such limit drains in long epochs (few commits, large files), as Spark does.
   */
  default boolean limitsEpochs() {
    return false;
  }

  /**
   * Whether, after a restore from an older snapshot, it can replay the epochs a later run committed
   * so that each ends exactly where it originally did (see {@code ReplayPlan}). Queries with a
   * source that cannot are refused such a restore.
   */
  default boolean supportsExactReplay() {
    return false;
  }
}
