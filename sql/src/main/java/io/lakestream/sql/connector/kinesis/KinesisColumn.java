package io.lakestream.sql.connector.kinesis;

import io.lakestream.sql.connector.format.ValueField;
import java.io.Serializable;
import org.apache.flink.types.Row;

/**
 * Where one column of a Kinesis table's rows comes from: one of the record's Kinesis columns, or a
 * field of its data (JSON or Avro).
 *
 * @param name the column's name
 * @param record the Kinesis column, or null for a field of the data
 * @param asText whether a {@code data} column is declared STRING (UTF-8)
 * @param field the field of the data, or null for a Kinesis column
 */
record KinesisColumn(String name, KinesisRecordColumn record, boolean asText, ValueField field)
    implements Serializable {

  static KinesisColumn kinesis(String name, KinesisRecordColumn column, boolean asText) {
    return new KinesisColumn(name, column, asText, null);
  }

  static KinesisColumn field(ValueField field) {
    return new KinesisColumn(field.name(), null, false, field);
  }

  boolean isField() {
    return record == null;
  }

  /** This column's internal value of {@code row}: its field's {@code decoded}, or its column's. */
  Object internalValue(Row row, Object decoded) {
    return isField() ? decoded : record.internalValueOf(row, asText);
  }
}
