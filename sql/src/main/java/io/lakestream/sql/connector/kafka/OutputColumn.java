package io.lakestream.sql.connector.kafka;

import io.lakestream.connectors.schema.ColumnType;
import java.io.Serializable;

/**
 * Where one column of a Kafka table's rows comes from: one of the record's Kafka columns, or a
 * field of its JSON value.
 *
 * @param name the column's name (for a JSON field, the field's)
 * @param kafka the Kafka column, or null for a JSON field
 * @param asText whether a {@code key} or {@code value} column is declared STRING (UTF-8)
 * @param jsonType the JSON field's type, or null for a Kafka column
 */
record OutputColumn(String name, KafkaRecordColumn kafka, boolean asText, ColumnType jsonType)
    implements Serializable {

  static OutputColumn kafka(String name, KafkaRecordColumn column, boolean asText) {
    return new OutputColumn(name, column, asText, null);
  }

  static OutputColumn json(String name, ColumnType type) {
    return new OutputColumn(name, null, false, type);
  }

  boolean isJsonField() {
    return kafka == null;
  }
}
