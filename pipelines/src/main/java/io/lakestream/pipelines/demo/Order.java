package io.lakestream.pipelines.demo;

import io.lakestream.api.annotation.Internal;
import java.math.BigDecimal;
import java.util.Objects;

/**
 * One parsed order event. A Flink POJO (public fields, no-arg constructor): serialized without
 * Kryo, and fields can be added later without breaking state.
 */
@Internal
public class Order {
  public String eventId;
  public String orderId;
  public String customerId;
  public BigDecimal amount;
  public String currency;

  /** Event time, epoch millis. */
  public long orderTsMillis;

  public Order() {}

  public Order(
      String eventId,
      String orderId,
      String customerId,
      BigDecimal amount,
      String currency,
      long orderTsMillis) {
    this.eventId = eventId;
    this.orderId = orderId;
    this.customerId = customerId;
    this.amount = amount;
    this.currency = currency;
    this.orderTsMillis = orderTsMillis;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof Order)) {
      return false;
    }
    Order that = (Order) o;
    return orderTsMillis == that.orderTsMillis
        && Objects.equals(eventId, that.eventId)
        && Objects.equals(orderId, that.orderId)
        && Objects.equals(customerId, that.customerId)
        && Objects.equals(amount, that.amount)
        && Objects.equals(currency, that.currency);
  }

  @Override
  public int hashCode() {
    return Objects.hash(eventId, orderId, customerId, amount, currency, orderTsMillis);
  }

  @Override
  public String toString() {
    return "Order{" + eventId + ", " + orderId + ", " + amount + " " + currency + "}";
  }
}
