package io.lakestream.pipelines.silver;

import io.lakestream.api.annotation.Internal;

/**
 * Why an input record of the silver job went to the quarantine table instead of the silver table.
 * The name is stored in the quarantine table's {@code reason} column; the {@code error} column
 * holds the details of the single record.
 */
@Internal
public enum RejectReason {
  /**
   * The value is not a JSON order object of the expected schema (the parser's message says why).
   */
  MALFORMED_RECORD,
  /** The event time was behind the watermark on arrival (older than the 1 hour lateness bound). */
  LATE_EVENT,
  /** {@code order_id} is missing or null: the row has no MERGE key. */
  MISSING_ORDER_ID,
  /** {@code amount} is missing or null ({@code amount >= 0} is not true). */
  MISSING_AMOUNT,
  /** {@code amount} is negative. */
  NEGATIVE_AMOUNT
}
