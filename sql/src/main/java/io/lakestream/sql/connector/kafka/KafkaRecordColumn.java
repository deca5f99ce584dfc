package io.lakestream.sql.connector.kafka;

import io.lakestream.connectors.kafka.KafkaRecord;
import io.lakestream.sql.connector.format.RecordColumn;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.DataType;

/**
 * Spark's fixed Kafka columns, as a table's physical columns ({@code format = 'raw'}) or as its
 * {@code METADATA} columns: their Flink types and their values of a record, as the planner's
 * internal data structures.
 */
enum KafkaRecordColumn implements RecordColumn {
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
    return this == KEY || this == VALUE;
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
