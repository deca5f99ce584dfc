package io.lakestream.connectors.delta.merge;

import io.lakestream.api.annotation.PublicEvolving;
import java.io.Serializable;

/**
 * A condition of a MERGE clause over one source row and the target row it matched (for {@code
 * whenNotMatched} clauses the target row is null). Rows are {@code Object[]}: the target row in the
 * table's column order with the values {@link io.lakestream.connectors.delta.DeltaTableReader}
 * returns; the source row as the caller handed it (the table's columns first, then any source-only
 * columns). Must be deterministic and free of side effects, because a replayed epoch evaluates it
 * again, and safe to call from several threads at once (a MERGE reads its files in parallel).
 * Serializable so a merge can be shipped to a Flink task.
 */
@PublicEvolving
@FunctionalInterface
public interface MergeCondition extends Serializable {
  /** Whether the clause applies to this pair of rows. */
  boolean test(Object[] source, Object[] target);

  /** The condition that always holds (a clause without condition). */
  static MergeCondition always() {
    return (source, target) -> true;
  }
}
