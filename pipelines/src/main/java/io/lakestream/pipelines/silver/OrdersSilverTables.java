package io.lakestream.pipelines.silver;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.schema.ColumnType;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;

/**
 * The tables of the silver job and the conversions between their rows: the foreachBatch staging
 * rows ({@link #STAGING}, one per {@link SilverInput}), the silver table ({@link #SILVER}, one row
 * per {@code order_id}, change data feed enabled) and the quarantine table ({@link #QUARANTINE},
 * one row per rejected record with its reason and the epoch that rejected it).
 */
@Internal
public final class OrdersSilverTables {
  private OrdersSilverTables() {}

  /** Rows of the epoch, as staged by the foreachBatch sink (see {@link #stagingRow}). */
  public static final DeltaTableSchema STAGING =
      DeltaTableSchema.builder()
          .column("event_id", ColumnType.STRING)
          .column("order_id", ColumnType.STRING)
          .column("customer_id", ColumnType.STRING)
          .column("amount", ColumnType.decimal(12, 2))
          .column("currency", ColumnType.STRING)
          .column("order_ts", ColumnType.TIMESTAMP)
          .column("reason", ColumnType.STRING)
          .column("error", ColumnType.STRING)
          .column("raw", ColumnType.STRING)
          .column("source", ColumnType.STRING)
          .build();

  /** The silver table: the latest valid version of each order, with the change data feed. */
  public static final DeltaTableSchema SILVER =
      DeltaTableSchema.builder()
          .column("order_id", ColumnType.STRING, false)
          .column("event_id", ColumnType.STRING, false)
          .column("customer_id", ColumnType.STRING)
          .column("amount", ColumnType.decimal(12, 2))
          .column("currency", ColumnType.STRING)
          .column("order_ts", ColumnType.TIMESTAMP, false)
          .property("delta.enableChangeDataFeed", "true")
          .build();

  /** Index of {@code order_ts} in {@link #SILVER} rows. */
  public static final int SILVER_ORDER_TS = 5;

  /** The quarantine table: every rejected record once, with why and in which epoch. */
  public static final DeltaTableSchema QUARANTINE =
      DeltaTableSchema.builder()
          .column("epoch", ColumnType.LONG, false)
          .column("reason", ColumnType.STRING, false)
          .column("error", ColumnType.STRING, false)
          .column("source", ColumnType.STRING)
          .column("raw", ColumnType.STRING)
          .column("event_id", ColumnType.STRING)
          .column("order_id", ColumnType.STRING)
          .column("customer_id", ColumnType.STRING)
          .column("amount", ColumnType.decimal(12, 2))
          .column("currency", ColumnType.STRING)
          .column("order_ts", ColumnType.TIMESTAMP)
          .build();

  /** A {@link SilverInput} as a {@link #STAGING} row. */
  public static Object[] stagingRow(SilverInput in) {
    return new Object[] {
      in.eventId,
      in.orderId,
      in.customerId,
      in.amount == null ? null : in.amount.setScale(2, RoundingMode.UNNECESSARY),
      in.currency,
      in.orderTsMillis == null ? null : Instant.ofEpochMilli(in.orderTsMillis),
      in.reason,
      in.error,
      in.raw,
      in.source
    };
  }

  /** The reason decided upstream of a staged row, or null if the row is still to validate. */
  static String upstreamReason(Object[] staged) {
    return (String) staged[6];
  }

  static String orderId(Object[] staged) {
    return (String) staged[1];
  }

  static BigDecimal amount(Object[] staged) {
    return (BigDecimal) staged[3];
  }

  /** A valid staged row as a {@link #SILVER} row. */
  static Object[] silverRow(Object[] staged) {
    return new Object[] {staged[1], staged[0], staged[2], staged[3], staged[4], staged[5]};
  }

  /** A rejected staged row as a {@link #QUARANTINE} row of {@code epoch}. */
  static Object[] quarantineRow(Object[] staged, Rejection rejection, long epoch) {
    return new Object[] {
      epoch,
      rejection.reason().name(),
      rejection.error(),
      staged[9],
      staged[8],
      staged[0],
      staged[1],
      staged[2],
      staged[3],
      staged[4],
      staged[5]
    };
  }

  /** The rejection a staged row carries from upstream, or null. */
  static Rejection upstreamRejection(Object[] staged) {
    String reason = upstreamReason(staged);
    if (reason == null) {
      return null;
    }
    String error = (String) staged[7];
    return new Rejection(RejectReason.valueOf(reason), error == null ? reason : error);
  }
}
