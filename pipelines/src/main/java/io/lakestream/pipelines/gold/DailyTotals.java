package io.lakestream.pipelines.gold;

import io.lakestream.api.annotation.Internal;
import java.math.BigDecimal;
import java.util.Objects;

/**
 * The running aggregate of one order day: the keyed state of {@link DailyTotalsOperator} and the
 * element it emits for each day an epoch changed. A Flink POJO (public fields, no-arg constructor):
 * its state serializer is Flink's PojoSerializer (BigDecimal and long fields), never Kryo, and
 * fields can be added later with state schema evolution.
 */
@Internal
public class DailyTotals {
  /** The day (days since 1970-01-01, UTC). */
  public long epochDay;

  /** Orders of the day in the silver table (inserts minus deletes). */
  public long orders;

  /** Sum of their amounts, exact. */
  public BigDecimal totalAmount = BigDecimal.ZERO;

  /** Greatest silver version applied to the day. */
  public long lastCommitVersion = -1;

  /** Change rows applied to the day so far (audit column of gold; never decreases). */
  public long changeRows;

  public DailyTotals() {}

  public DailyTotals(
      long epochDay, long orders, BigDecimal totalAmount, long lastCommitVersion, long changeRows) {
    this.epochDay = epochDay;
    this.orders = orders;
    this.totalAmount = totalAmount;
    this.lastCommitVersion = lastCommitVersion;
    this.changeRows = changeRows;
  }

  /** These totals with {@code change} applied, as a new object. */
  public DailyTotals apply(OrderChange change) {
    return new DailyTotals(
        epochDay,
        orders + change.sign,
        totalAmount.add(change.amount),
        Math.max(lastCommitVersion, change.commitVersion),
        changeRows + 1);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof DailyTotals t
        && t.epochDay == epochDay
        && t.orders == orders
        && Objects.equals(t.totalAmount, totalAmount)
        && t.lastCommitVersion == lastCommitVersion
        && t.changeRows == changeRows;
  }

  @Override
  public int hashCode() {
    return Objects.hash(epochDay, orders, totalAmount, lastCommitVersion, changeRows);
  }

  @Override
  public String toString() {
    return "DailyTotals{day="
        + epochDay
        + ", orders="
        + orders
        + ", total="
        + totalAmount
        + ", v"
        + lastCommitVersion
        + ", changes="
        + changeRows
        + "}";
  }
}
