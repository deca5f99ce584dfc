package io.lakestream.sql.connector.kafka;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakestream.connectors.kafka.KafkaRecord;
import io.lakestream.connectors.schema.JsonColumnValues;
import io.lakestream.operators.parse.DeadLetter;
import io.lakestream.operators.parse.ParseWithDeadLetters;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.table.connector.RuntimeConverter;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.data.RowData;
import org.apache.flink.types.Row;
import org.apache.flink.util.Collector;

/**
 * Turns Kafka records into a Kafka table's rows: each column from the record's Kafka columns or,
 * with {@code format = 'json'}, from the fields of its JSON value (fields the table does not
 * declare are ignored, a missing field is null, as Spark's {@code from_json} reads them).
 *
 * <p>A record whose value is not a JSON object, or has a field that does not fit its column's type,
 * goes to the {@link ParseWithDeadLetters#DEAD_LETTERS} side output with the reason and the
 * record's {@code topic/partition@offset}: never dropped, and it never fails the query. Counts
 * {@code numRowsParsed} and {@code numDeadLetters}.
 */
final class KafkaRowDecoder extends ProcessFunction<KafkaRecord, RowData> {
  private static final long serialVersionUID = 1L;
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private final List<OutputColumn> columns;
  private final boolean json;
  private final DynamicTableSource.DataStructureConverter converter;
  private transient Counter parsed;
  private transient Counter rejected;

  KafkaRowDecoder(List<OutputColumn> columns, DynamicTableSource.DataStructureConverter converter) {
    this.columns = List.copyOf(columns);
    this.json = columns.stream().anyMatch(OutputColumn::isJsonField);
    this.converter = converter;
  }

  @Override
  public void open(OpenContext openContext) {
    converter.open(RuntimeConverter.Context.create(getRuntimeContext().getUserCodeClassLoader()));
    parsed = getRuntimeContext().getMetricGroup().counter("numRowsParsed");
    rejected = getRuntimeContext().getMetricGroup().counter("numDeadLetters");
  }

  @Override
  public void processElement(KafkaRecord record, Context ctx, Collector<RowData> out) {
    Row row = new Row(columns.size());
    try {
      JsonNode value = json ? jsonObject(record) : null;
      for (int i = 0; i < columns.size(); i++) {
        row.setField(i, valueOf(columns.get(i), record, value));
      }
    } catch (MalformedValue e) {
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
    parsed.inc();
    out.collect((RowData) converter.toInternal(row));
  }

  private static Object valueOf(OutputColumn column, KafkaRecord record, JsonNode value) {
    if (!column.isJsonField()) {
      return column.kafka().valueOf(record, column.asText());
    }
    JsonNode field = field(value, column.name());
    try {
      return JsonColumnValues.convert(column.jsonType(), field);
    } catch (IllegalArgumentException e) {
      throw new MalformedValue("field '" + column.name() + "': " + e.getMessage());
    }
  }

  /** The field named {@code name}, or else the first whose name equals it ignoring case. */
  private static JsonNode field(JsonNode object, String name) {
    JsonNode exact = object.get(name);
    if (exact != null) {
      return exact;
    }
    for (Iterator<Map.Entry<String, JsonNode>> it = object.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> field = it.next();
      if (field.getKey().equalsIgnoreCase(name)) {
        return field.getValue();
      }
    }
    return null;
  }

  private static JsonNode jsonObject(KafkaRecord record) {
    if (record.value == null) {
      throw new MalformedValue("the record has no value (a tombstone), so no JSON object");
    }
    JsonNode node;
    try {
      node = MAPPER.readTree(record.value);
    } catch (JsonProcessingException e) {
      throw new MalformedValue("the value is not JSON: " + e.getOriginalMessage());
    } catch (java.io.IOException e) {
      throw new MalformedValue("the value is unreadable: " + e.getMessage());
    }
    if (node == null || !node.isObject()) {
      throw new MalformedValue(
          "the value is a JSON "
              + (node == null ? "nothing" : node.getNodeType())
              + ", not an object");
    }
    return node;
  }

  /** A record this table cannot decode; its message is the dead letter's reason. */
  private static final class MalformedValue extends RuntimeException {
    private static final long serialVersionUID = 1L;

    MalformedValue(String message) {
      super(message, null, false, false);
    }
  }
}
