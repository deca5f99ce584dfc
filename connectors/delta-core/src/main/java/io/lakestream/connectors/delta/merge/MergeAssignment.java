package io.lakestream.connectors.delta.merge;

import io.lakestream.api.annotation.PublicEvolving;
import java.io.Serializable;

/**
 * The {@code SET} part of a {@code whenMatchedUpdate} clause: computes the new target row from the
 * source row and the matched target row (see {@link MergeCondition} for the row layouts). It must
 * return a new array in the table's column order, must not change the merge key columns (the merge
 * fails naming the key otherwise), and must be deterministic and safe to call from several threads
 * at once (a MERGE reads its files in parallel). Serializable so a merge can be shipped to a Flink
 * task.
 */
@PublicEvolving
@FunctionalInterface
public interface MergeAssignment extends Serializable {
  /** The updated target row. */
  Object[] apply(Object[] source, Object[] target);
}
