package io.lakestream.sql.connector.kafka;

import io.lakestream.connectors.kafka.KafkaRecord;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.sql.connector.format.ValueDecoder;
import io.lakestream.sql.connector.format.ValueField;
import java.io.Serializable;

/**
 * Where one column of a Kafka table's rows comes from: one of the record's Kafka columns, or a
 * field of its JSON value.
 *
 * @param name the column's name (for a JSON field, the field's)
 * @param kafka the Kafka column, or null for a JSON field
 * @param asText whether a {@code key} or {@code value} column is declared STRING (UTF-8)
 * @param jsonType the JSON field's type, or null for a Kafka column
 * @param required whether a JSON field's column is declared NOT NULL, so a record without the field
 *     (or with null) is a dead letter
 */
record OutputColumn(
    String name, KafkaRecordColumn kafka, boolean asText, ColumnType jsonType, boolean required)
    implements Serializable {

  static OutputColumn kafka(String name, KafkaRecordColumn column, boolean asText) {
    return new OutputColumn(name, column, asText, null, false);
  }

  static OutputColumn json(String name, ColumnType type, boolean required) {
    return new OutputColumn(name, null, false, type, required);
  }

  boolean isJsonField() {
    return kafka == null;
  }

  /** The value field this column is; only for a JSON (or Avro) field. */
  ValueField valueField() {
    return new ValueField(name, jsonType, required);
  }

  /**
   * This column's value of {@code record} as the planner's internal data structure: its value
   * field's {@code decoded} ({@link ValueDecoder}), or a Kafka column's ({@link
   * KafkaRecordColumn#internalValueOf}).
   */
  Object internalValue(KafkaRecord record, Object decoded) {
    return isJsonField() ? decoded : kafka.internalValueOf(record, asText);
  }
}
