package io.lakestream.sql.connector.kafka;

import io.lakestream.connectors.kafka.KafkaRecord;
import io.lakestream.connectors.schema.ColumnType;
import java.io.Serializable;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;

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

  /**
   * This column's value of {@code record}, or of its JSON field's value {@code external} (as {@link
   * io.lakestream.connectors.schema.JsonColumnValues} decodes it), as the planner's internal data
   * structure: {@link StringData} for text, {@link DecimalData}, days for a date, {@link
   * TimestampData} (a Kafka column's: {@link KafkaRecordColumn#internalValueOf}).
   */
  Object internalValue(KafkaRecord record, Object external) {
    return isJsonField() ? internalJson(external) : kafka.internalValueOf(record, asText);
  }

  private Object internalJson(Object value) {
    if (value == null) {
      return null;
    }
    return switch (jsonType.kind()) {
      case STRING -> StringData.fromString((String) value);
      case DECIMAL -> {
        ColumnType.Decimal decimal = (ColumnType.Decimal) jsonType;
        yield DecimalData.fromBigDecimal((BigDecimal) value, decimal.precision(), decimal.scale());
      }
      case DATE -> (int) ((LocalDate) value).toEpochDay();
      case TIMESTAMP -> TimestampData.fromInstant((Instant) value);
      default -> value; // Boolean, Integer, Long, Double are their own internal values
    };
  }
}
