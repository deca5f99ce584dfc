package io.lakestream.pipelines.gold;

import io.lakestream.api.annotation.Internal;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.pipelines.PipelineErrorClass;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.java.typeutils.RowTypeInfo;
import org.apache.flink.types.Row;

/**
 * Turns a change row of the silver orders table (as the Delta CDF source emits it) into an {@link
 * OrderChange}: {@code insert} and {@code update_postimage} add the order to the day of its {@code
 * order_ts} (UTC), {@code update_preimage} and {@code delete} remove it. So an update that moves an
 * order to another day takes it off the old day and puts it on the new one.
 *
 * <p>Fails the query (the row cannot be placed on a day, and dropping it would leave gold silently
 * wrong) for a null {@code order_ts} or an unknown {@code _change_type}; the message names the
 * order, the silver version and what to do.
 */
@Internal
public final class SilverChanges implements MapFunction<Row, OrderChange> {
  private static final long serialVersionUID = 1L;

  /** Columns the gold aggregate reads from the silver table. */
  public static final List<String> REQUIRED_COLUMNS = List.of("order_id", "order_ts", "amount");

  private final int orderId;
  private final int orderTs;
  private final int amount;
  private final int changeType;
  private final int commitVersion;

  /**
   * @param rowType the CDF source's row type
   * @throws IllegalArgumentException if a required column is missing, naming the columns present
   */
  public SilverChanges(RowTypeInfo rowType) {
    this.orderId = index(rowType, "order_id");
    this.orderTs = index(rowType, "order_ts");
    this.amount = index(rowType, "amount");
    this.changeType = index(rowType, "_change_type");
    this.commitVersion = index(rowType, "_commit_version");
  }

  private static int index(RowTypeInfo type, String name) {
    int i = type.getFieldIndex(name);
    if (i < 0) {
      throw new LakestreamException(
          PipelineErrorClass.PIPELINE_INVALID_INPUT,
          "The silver table has no column '"
              + name
              + "' (the gold aggregate needs "
              + REQUIRED_COLUMNS
              + "); its change feed has "
              + Arrays.toString(type.getFieldNames()));
    }
    return i;
  }

  @Override
  public OrderChange map(Row row) {
    String type = (String) row.getField(changeType);
    long version = (Long) row.getField(commitVersion);
    int sign =
        switch (type == null ? "" : type) {
          case "insert", "update_postimage" -> 1;
          case "update_preimage", "delete" -> -1;
          default ->
              throw new LakestreamException(
                  PipelineErrorClass.PIPELINE_INVALID_INPUT,
                  "Silver version "
                      + version
                      + " has a change row of unknown _change_type '"
                      + type
                      + "' (order "
                      + row.getField(orderId)
                      + "); expected insert, update_preimage, update_postimage or delete");
        };
    Object ts = row.getField(orderTs);
    if (ts == null) {
      throw new LakestreamException(
          PipelineErrorClass.PIPELINE_INVALID_INPUT,
          "Silver version "
              + version
              + " has order "
              + row.getField(orderId)
              + " ("
              + type
              + ") with a null order_ts, so it has no order day for the gold aggregate. Fix the"
              + " row in the silver table (the silver pipeline should reject such orders), then"
              + " run the gold query again with a new checkpoint location.");
    }
    long day = epochDay(ts);
    BigDecimal value = decimal(row.getField(amount));
    return new OrderChange(day, sign, sign > 0 ? value : value.negate(), version);
  }

  static long epochDay(Object ts) {
    if (ts instanceof Instant i) {
      return Math.floorDiv(i.getEpochSecond(), 86_400L);
    }
    if (ts instanceof LocalDateTime l) { // timestamp_ntz: taken as UTC
      return l.toLocalDate().toEpochDay();
    }
    throw new LakestreamException(
        PipelineErrorClass.PIPELINE_INVALID_INPUT,
        "order_ts of the silver table must be a timestamp, was " + ts.getClass().getName());
  }

  /** The amount as an exact decimal (a double's exact binary value); zero for null. */
  static BigDecimal decimal(Object value) {
    if (value == null) {
      return BigDecimal.ZERO;
    }
    if (value instanceof BigDecimal d) {
      return d;
    }
    if (value instanceof Double || value instanceof Float) {
      return new BigDecimal(((Number) value).doubleValue());
    }
    if (value instanceof Long || value instanceof Integer || value instanceof Short) {
      return BigDecimal.valueOf(((Number) value).longValue());
    }
    throw new LakestreamException(
        PipelineErrorClass.PIPELINE_INVALID_INPUT,
        "amount of the silver table must be numeric, was " + value.getClass().getName());
  }
}
