package io.lakestream.pipelines.gold;

import io.lakestream.api.annotation.Internal;
import java.math.BigDecimal;

/**
 * What one change row of the silver orders table does to the daily aggregate: the order's day (days
 * since 1970-01-01, UTC), +1 or -1 order, the signed amount, and the silver version it comes from.
 * A Flink POJO (public fields, no-arg constructor), so it travels between operators without Kryo.
 */
@Internal
public class OrderChange {
  /** Day of {@code order_ts} in UTC, as days since the epoch. */
  public long epochDay;

  /** +1 for {@code insert} and {@code update_postimage}, -1 for {@code update_preimage}/delete. */
  public int sign;

  /** The order's amount times {@link #sign}; zero for a null amount (SQL's sum skips nulls). */
  public BigDecimal amount;

  /** The silver version ({@code _commit_version}) of the change row. */
  public long commitVersion;

  public OrderChange() {}

  public OrderChange(long epochDay, int sign, BigDecimal amount, long commitVersion) {
    this.epochDay = epochDay;
    this.sign = sign;
    this.amount = amount;
    this.commitVersion = commitVersion;
  }

  @Override
  public String toString() {
    return "OrderChange{day="
        + epochDay
        + ", "
        + sign
        + ", "
        + amount
        + ", v"
        + commitVersion
        + "}";
  }
}
