package io.lakestream.sql.connector.kafka;

import io.lakestream.connectors.kafka.KafkaRecord;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.VarCharType;

/**
 * Spark's fixed Kafka columns, as a table's physical columns ({@code format = 'raw'}) or as its
 * {@code METADATA} columns: their Flink types and their values of a record, as the planner's
 * internal data structures.
 */
enum KafkaRecordColumn {
  KEY("key", DataTypes.BYTES()),
  VALUE("value", DataTypes.BYTES()),
  TOPIC("topic", DataTypes.STRING()),
  PARTITION("partition", DataTypes.INT()),
  OFFSET("offset", DataTypes.BIGINT()),
  TIMESTAMP("timestamp", DataTypes.TIMESTAMP_LTZ(3)),
  TIMESTAMP_TYPE("timestampType", DataTypes.INT()),
  HEADERS("headers", DataTypes.MAP(DataTypes.STRING(), DataTypes.BYTES()));

  private final String column;
  private final DataType type;

  KafkaRecordColumn(String column, DataType type) {
    this.column = column;
    this.type = type;
  }

  /** The column's name, as in Spark's Kafka source. */
  String column() {
    return column;
  }

  DataType type() {
    return type;
  }

  /** The column named {@code name}, ignoring case. */
  static Optional<KafkaRecordColumn> named(String name) {
    for (KafkaRecordColumn c : values()) {
      if (c.column.equalsIgnoreCase(name)) {
        return Optional.of(c);
      }
    }
    return Optional.empty();
  }

  /** Every column's type by name, for {@code listReadableMetadata}. */
  static Map<String, DataType> metadata() {
    Map<String, DataType> all = new LinkedHashMap<>();
    for (KafkaRecordColumn c : values()) {
      all.put(c.column, c.type);
    }
    return all;
  }

  /**
   * Whether a column declared as {@code declared} can hold this one: the same type (nullability
   * aside), or STRING for {@code key} and {@code value}, which are then decoded as UTF-8.
   */
  boolean accepts(LogicalType declared) {
    if (declared.copy(true).equals(type.getLogicalType().copy(true))) {
      return true;
    }
    return (this == KEY || this == VALUE)
        && (declared.getTypeRoot() == LogicalTypeRoot.VARCHAR
            && ((VarCharType) declared).getLength() == Integer.MAX_VALUE);
  }

  /** The types a declared column of this name may have, for an error message. */
  String acceptedTypes() {
    String own = type.getLogicalType().copy(true).asSummaryString();
    return this == KEY || this == VALUE ? own + " or STRING" : own;
  }

  /**
   * The record's value of this column as the planner's internal data structure: {@link StringData}
   * for text ({@code asText}: key or value as UTF-8, without decoding them here), {@link
   * TimestampData}, {@link GenericMapData} for the headers, numbers as themselves.
   */
  Object internalValueOf(KafkaRecord record, boolean asText) {
    return switch (this) {
      case KEY -> asText && record.key != null ? StringData.fromBytes(record.key) : record.key;
      case VALUE ->
          asText && record.value != null ? StringData.fromBytes(record.value) : record.value;
      case TOPIC -> StringData.fromString(record.topic);
      case PARTITION -> record.partition;
      case OFFSET -> record.offset;
      case TIMESTAMP -> TimestampData.fromEpochMillis(record.timestamp);
      case TIMESTAMP_TYPE -> record.timestampType;
      case HEADERS -> headers(record);
    };
  }

  private static GenericMapData headers(KafkaRecord record) {
    Map<StringData, byte[]> headers = new LinkedHashMap<>();
    for (int i = 0; i < record.headerKeys.length; i++) {
      // the last header of a name wins
      headers.put(StringData.fromString(record.headerKeys[i]), record.headerValues[i]);
    }
    return new GenericMapData(headers);
  }
}
