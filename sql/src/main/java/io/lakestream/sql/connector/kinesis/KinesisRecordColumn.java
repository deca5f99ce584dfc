package io.lakestream.sql.connector.kinesis;

import io.lakestream.connectors.kinesis.KinesisRecord;
import io.lakestream.sql.connector.format.RecordColumn;
import java.time.Instant;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.DataType;
import org.apache.flink.types.Row;

/**
 * Databricks' fixed Kinesis columns ({@link KinesisRecord}), as a table's physical columns ({@code
 * format = 'raw'}) or as its {@code METADATA} columns: their Flink types and their values of a
 * record, as the planner's internal data structures.
 */
enum KinesisRecordColumn implements RecordColumn {
  PARTITION_KEY("partitionKey", DataTypes.STRING()),
  DATA("data", DataTypes.BYTES()),
  STREAM("stream", DataTypes.STRING()),
  SHARD_ID("shardId", DataTypes.STRING()),
  SEQUENCE_NUMBER("sequenceNumber", DataTypes.STRING()),
  APPROXIMATE_ARRIVAL_TIMESTAMP("approximateArrivalTimestamp", DataTypes.TIMESTAMP_LTZ(3));

  private final String column;
  private final DataType type;

  KinesisRecordColumn(String column, DataType type) {
    this.column = column;
    this.type = type;
  }

  /** The column's name, as in Databricks' Kinesis source. */
  @Override
  public String column() {
    return column;
  }

  @Override
  public DataType type() {
    return type;
  }

  @Override
  public boolean readableAsText() {
    return this == DATA;
  }

  /**
   * The record's value of this column as the planner's internal data structure ({@code asText}: the
   * data as UTF-8 {@link StringData}).
   */
  Object internalValueOf(Row record, boolean asText) {
    Object value = record.getField(ordinal()); // the columns are in KinesisRecord's order
    return switch (this) {
      case DATA -> asText ? StringData.fromBytes((byte[]) value) : value;
      case APPROXIMATE_ARRIVAL_TIMESTAMP ->
          value == null ? null : TimestampData.fromInstant((Instant) value);
      default -> value == null ? null : StringData.fromString((String) value);
    };
  }
}
