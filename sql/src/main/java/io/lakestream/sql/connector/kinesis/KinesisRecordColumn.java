package io.lakestream.sql.connector.kinesis;

import io.lakestream.connectors.kinesis.KinesisRecord;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.types.Row;

/**
 * Databricks' fixed Kinesis columns ({@link KinesisRecord}), as a table's physical columns ({@code
 * format = 'raw'}) or as its {@code METADATA} columns: their Flink types and their values of a
 * record, as the planner's internal data structures.
 */
enum KinesisRecordColumn {
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
  String column() {
    return column;
  }

  /** The column named {@code name}, ignoring case. */
  static Optional<KinesisRecordColumn> named(String name) {
    for (KinesisRecordColumn c : values()) {
      if (c.column.equalsIgnoreCase(name)) {
        return Optional.of(c);
      }
    }
    return Optional.empty();
  }

  /** Every column's type by name, for {@code listReadableMetadata}. */
  static Map<String, DataType> metadata() {
    Map<String, DataType> all = new LinkedHashMap<>();
    for (KinesisRecordColumn c : values()) {
      all.put(c.column, c.type);
    }
    return all;
  }

  /**
   * Whether a column declared as {@code declared} can hold this one: the same type (nullability
   * aside), or STRING for {@code data}, which is then decoded as UTF-8.
   */
  boolean accepts(LogicalType declared) {
    if (declared.copy(true).equals(type.getLogicalType().copy(true))) {
      return true;
    }
    return this == DATA
        && declared.getTypeRoot() == LogicalTypeRoot.VARCHAR
        && ((VarCharType) declared).getLength() == Integer.MAX_VALUE;
  }

  /** The types a declared column of this name may have, for an error message. */
  String acceptedTypes() {
    String own = type.getLogicalType().copy(true).asSummaryString();
    return this == DATA ? own + " or STRING" : own;
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
