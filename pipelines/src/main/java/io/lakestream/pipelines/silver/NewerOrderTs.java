package io.lakestream.pipelines.silver;

import io.lakestream.connectors.delta.merge.MergeCondition;
import java.time.Instant;

/**
 * The silver MERGE's update condition {@code s.order_ts > t.order_ts}: a matched order is replaced
 * only by a strictly newer version, so an out-of-order older update (or a replayed one) never
 * overwrites a newer row. Reads {@code order_ts} of {@link OrdersSilverTables#SILVER} rows.
 */
final class NewerOrderTs implements MergeCondition {
  private static final long serialVersionUID = 1L;

  @Override
  public boolean test(Object[] source, Object[] target) {
    Instant s = (Instant) source[OrdersSilverTables.SILVER_ORDER_TS];
    Instant t = (Instant) target[OrdersSilverTables.SILVER_ORDER_TS];
    return s.isAfter(t);
  }

  @Override
  public String toString() {
    return "s.order_ts > t.order_ts";
  }
}
