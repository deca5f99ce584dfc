package io.lakestream.pipelines.silver;

import io.lakestream.api.annotation.Internal;
import java.math.BigDecimal;
import java.util.Optional;

/**
 * The silver table's row rule, Spark's {@code filter("order_id IS NOT NULL AND amount >= 0")}: an
 * order is valid when it has an {@code order_id} and a non-negative {@code amount}. Unlike the
 * Spark original, whose reject filter {@code "order_id IS NULL OR amount < 0"} silently loses rows
 * with a null amount (both filters evaluate to null), every row is either valid or rejected here: a
 * null amount is rejected as {@link RejectReason#MISSING_AMOUNT}. Deterministic, so a replayed
 * epoch splits its rows the same way.
 */
@Internal
public final class OrderValidation {
  private OrderValidation() {}

  /**
   * The rejection of an order with these values, or empty if it is valid. A missing {@code
   * order_id} is reported before an amount problem.
   */
  public static Optional<Rejection> check(String orderId, BigDecimal amount) {
    if (orderId == null) {
      return Optional.of(
          new Rejection(RejectReason.MISSING_ORDER_ID, "order_id is null: the row has no key"));
    }
    if (amount == null) {
      return Optional.of(
          new Rejection(RejectReason.MISSING_AMOUNT, "amount is null: amount >= 0 does not hold"));
    }
    if (amount.signum() < 0) {
      return Optional.of(
          new Rejection(
              RejectReason.NEGATIVE_AMOUNT,
              "amount " + amount.toPlainString() + " is negative: amount >= 0 does not hold"));
    }
    return Optional.empty();
  }
}
