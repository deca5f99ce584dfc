package io.lakestream.connectors.kinesis;

import io.lakestream.api.annotation.PublicEvolving;
import java.time.Instant;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.types.Row;

/**
 * The row of one Kinesis record, with Databricks' column names: {@code partitionKey} (string),
 * {@code data} (bytes), {@code stream}, {@code shardId}, {@code sequenceNumber} (strings) and
 * {@code approximateArrivalTimestamp} (instant). Fields are read by name with the accessors.
 */
@PublicEvolving
public final class KinesisRecord {
  /** The column names, in order. */
  public static final String[] COLUMNS = {
    "partitionKey", "data", "stream", "shardId", "sequenceNumber", "approximateArrivalTimestamp"
  };

  private KinesisRecord() {}

  /** The type of the rows the source emits. */
  public static TypeInformation<Row> typeInfo() {
    return Types.ROW_NAMED(
        COLUMNS,
        Types.STRING,
        Types.PRIMITIVE_ARRAY(Types.BYTE),
        Types.STRING,
        Types.STRING,
        Types.STRING,
        Types.INSTANT);
  }

  /** A record's row. */
  public static Row of(
      String partitionKey,
      byte[] data,
      String stream,
      String shardId,
      String sequenceNumber,
      Instant arrival) {
    return Row.of(partitionKey, data, stream, shardId, sequenceNumber, arrival);
  }

  public static String partitionKey(Row row) {
    return (String) row.getField(0);
  }

  public static byte[] data(Row row) {
    return (byte[]) row.getField(1);
  }

  public static String shardId(Row row) {
    return (String) row.getField(3);
  }

  public static String sequenceNumber(Row row) {
    return (String) row.getField(4);
  }
}
