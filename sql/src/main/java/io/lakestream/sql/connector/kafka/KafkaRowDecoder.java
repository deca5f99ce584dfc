package io.lakestream.sql.connector.kafka;

import io.lakestream.connectors.avro.AvroValueDecoder;
import io.lakestream.connectors.kafka.KafkaRecord;
import io.lakestream.operators.parse.DeadLetter;
import io.lakestream.operators.parse.ParseWithDeadLetters;
import io.lakestream.sql.connector.format.MalformedValueException;
import io.lakestream.sql.connector.format.ValueDecoder;
import io.lakestream.sql.connector.format.ValueField;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.util.Collector;

/**
 * Turns Kafka records into a Kafka table's rows: each column from the record's Kafka columns or,
 * with {@code format = 'avro'} or {@code 'json'}, from the fields of its value ({@link
 * ValueDecoder}).
 *
 * <p>A record whose value does not decode into the columns goes to the {@link
 * ParseWithDeadLetters#DEAD_LETTERS} side output with the reason and the record's {@code
 * topic/partition@offset}: never dropped, and it never fails the query. Counts {@code
 * numRowsParsed} and {@code numDeadLetters}.
 */
final class KafkaRowDecoder extends ProcessFunction<KafkaRecord, RowData> {
  private static final long serialVersionUID = 1L;

  private final List<OutputColumn> columns;
  private final ValueDecoder values;

  /** The value field of each column, by column position (-1 for a Kafka column). */
  private final int[] valueFields;

  private transient Counter parsed;
  private transient Counter rejected;

  KafkaRowDecoder(List<OutputColumn> columns) {
    this(columns, null, null);
  }

  /**
   * @param avro the decoder of the values ({@code format = 'avro'}), or null for JSON values
   * @param table the table's name, for messages
   */
  KafkaRowDecoder(List<OutputColumn> columns, AvroValueDecoder avro, String table) {
    this.columns = List.copyOf(columns);
    this.valueFields = new int[columns.size()];
    List<ValueField> fields = new ArrayList<>();
    for (int i = 0; i < columns.size(); i++) {
      valueFields[i] = columns.get(i).isJsonField() ? fields.size() : -1;
      if (columns.get(i).isJsonField()) {
        fields.add(columns.get(i).valueField());
      }
    }
    this.values =
        avro == null
            ? ValueDecoder.json(fields)
            : ValueDecoder.avro(fields, avro, "Kafka table " + table);
  }

  @Override
  public void open(OpenContext openContext) {
    parsed = getRuntimeContext().getMetricGroup().counter("numRowsParsed");
    rejected = getRuntimeContext().getMetricGroup().counter("numDeadLetters");
  }

  @Override
  public void processElement(KafkaRecord record, Context ctx, Collector<RowData> out) {
    Object[] decoded;
    try {
      decoded = values.decode(record.value);
    } catch (MalformedValueException e) {
      rejected.inc();
      ctx.output(
          ParseWithDeadLetters.DEAD_LETTERS,
          new DeadLetter(
              record.valueAsString(),
              e.getMessage(),
              record.position(),
              ctx.timerService().currentProcessingTime()));
      return;
    }
    GenericRowData row = new GenericRowData(columns.size());
    for (int i = 0; i < columns.size(); i++) {
      Object field = valueFields[i] < 0 ? null : decoded[valueFields[i]];
      row.setField(i, columns.get(i).internalValue(record, field));
    }
    parsed.inc();
    out.collect(row);
  }
}
