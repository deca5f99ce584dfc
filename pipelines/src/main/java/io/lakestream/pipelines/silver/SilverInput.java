package io.lakestream.pipelines.silver;

import io.lakestream.api.annotation.Internal;
import io.lakestream.operators.parse.DeadLetter;
import io.lakestream.pipelines.demo.Order;
import java.math.BigDecimal;
import java.util.Objects;

/**
 * One row handed to the silver job's foreachBatch: a parsed, deduplicated order (validated later,
 * in the epoch function), or a record already rejected upstream (malformed JSON, or an event behind
 * the watermark) carrying its {@link RejectReason} and error. A Flink POJO (public fields, no-arg
 * constructor), serialized without Kryo.
 */
@Internal
public class SilverInput {
  public String eventId;
  public String orderId;
  public String customerId;
  public BigDecimal amount;
  public String currency;

  /** Event time in epoch millis; null for a malformed record. */
  public Long orderTsMillis;

  /** Name of the {@link RejectReason} decided upstream; null for an order still to validate. */
  public String reason;

  /** Why it was rejected upstream; null for an order still to validate. */
  public String error;

  /** The raw record value, for a malformed record. */
  public String raw;

  /** Where a malformed record came from ({@code topic/partition@offset}). */
  public String source;

  public SilverInput() {}

  /** A parsed order, to be validated in the epoch. */
  public static SilverInput order(Order order) {
    SilverInput in = new SilverInput();
    in.eventId = order.eventId;
    in.orderId = order.orderId;
    in.customerId = order.customerId;
    in.amount = order.amount;
    in.currency = order.currency;
    in.orderTsMillis = order.orderTsMillis;
    return in;
  }

  /** A parsed order that arrived behind the watermark. */
  public static SilverInput late(Order order, long watermarkDelayMillis) {
    SilverInput in = order(order);
    in.reason = RejectReason.LATE_EVENT.name();
    in.error =
        "order_ts "
            + java.time.Instant.ofEpochMilli(order.orderTsMillis)
            + " was behind the watermark (max event time - "
            + java.time.Duration.ofMillis(watermarkDelayMillis)
            + ") on arrival";
    return in;
  }

  /** A record that did not parse. */
  public static SilverInput malformed(DeadLetter letter) {
    SilverInput in = new SilverInput();
    in.reason = RejectReason.MALFORMED_RECORD.name();
    in.error = letter.error;
    in.raw = letter.raw;
    in.source = letter.source;
    return in;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof SilverInput that)) {
      return false;
    }
    return Objects.equals(eventId, that.eventId)
        && Objects.equals(orderId, that.orderId)
        && Objects.equals(customerId, that.customerId)
        && Objects.equals(amount, that.amount)
        && Objects.equals(currency, that.currency)
        && Objects.equals(orderTsMillis, that.orderTsMillis)
        && Objects.equals(reason, that.reason)
        && Objects.equals(error, that.error)
        && Objects.equals(raw, that.raw)
        && Objects.equals(source, that.source);
  }

  @Override
  public int hashCode() {
    return Objects.hash(eventId, orderId, orderTsMillis, reason, source);
  }

  @Override
  public String toString() {
    return "SilverInput{" + eventId + ", " + orderId + ", " + amount + ", reason=" + reason + "}";
  }
}
