package io.lakestream.sql.connector.kafka;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import io.lakestream.connectors.kafka.KafkaRecord;
import io.lakestream.connectors.kafka.avro.AvroDecodeException;
import io.lakestream.connectors.kafka.avro.AvroValueDecoder;
import io.lakestream.connectors.schema.JsonColumnValues;
import io.lakestream.operators.parse.DeadLetter;
import io.lakestream.operators.parse.ParseWithDeadLetters;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.util.Collector;

/**
 * Turns Kafka records into a Kafka table's rows: each column from the record's Kafka columns or,
 * with {@code format = 'avro'}, from the fields of its Avro value ({@link AvroFields}) or, with
 * {@code format = 'json'}, from the fields of its JSON value (fields the table does not declare are
 * ignored, a missing field is null, as Spark's {@code from_json} reads them, unless its column is
 * declared {@code NOT NULL}: then the record is a dead letter).
 *
 * <p>A record whose value is not a JSON object, or has a field that does not fit its column's type,
 * goes to the {@link ParseWithDeadLetters#DEAD_LETTERS} side output with the reason and the
 * record's {@code topic/partition@offset}: never dropped, and it never fails the query. Counts
 * {@code numRowsParsed} and {@code numDeadLetters}.
 */
final class KafkaRowDecoder extends ProcessFunction<KafkaRecord, RowData> {
  private static final long serialVersionUID = 1L;
  private static final ObjectMapper MAPPER = new ObjectMapper();

  /** Reads a JSON value as a tree with its deserializer found once, not looked up per value. */
  private static final ObjectReader TREES = MAPPER.readerFor(JsonNode.class);

  private final List<OutputColumn> columns;
  private final boolean json;
  private final AvroValueDecoder avro;
  private final int[] avroFields;
  private final Map<String, Integer> byName = new HashMap<>();
  private final Map<String, Integer> byLowerName = new HashMap<>();
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
    this.avro = avro;
    this.avroFields = avro == null ? null : AvroFields.check(columns, avro.rowSchema(), table);
    this.json = avro == null && columns.stream().anyMatch(OutputColumn::isJsonField);
    for (int i = 0; i < columns.size(); i++) {
      if (columns.get(i).isJsonField()) {
        byName.putIfAbsent(columns.get(i).name(), i);
        byLowerName.putIfAbsent(columns.get(i).name().toLowerCase(Locale.ROOT), i);
      }
    }
  }

  @Override
  public void open(OpenContext openContext) {
    parsed = getRuntimeContext().getMetricGroup().counter("numRowsParsed");
    rejected = getRuntimeContext().getMetricGroup().counter("numDeadLetters");
  }

  @Override
  public void processElement(KafkaRecord record, Context ctx, Collector<RowData> out) {
    GenericRowData row = new GenericRowData(columns.size());
    try {
      JsonNode[] fields = json ? jsonFields(record) : null;
      Object[] decoded = avro == null ? null : avroValues(record);
      for (int i = 0; i < columns.size(); i++) {
        OutputColumn column = columns.get(i);
        Object external = null;
        if (column.isJsonField()) {
          external = avro == null ? jsonValue(column, fields[i]) : avroValue(column, decoded, i);
        }
        row.setField(i, column.internalValue(record, external));
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
    out.collect(row);
  }

  private Object[] avroValues(KafkaRecord record) {
    try {
      return avro.decode(record.value);
    } catch (AvroDecodeException e) {
      throw new MalformedValue("from_avro: " + e.getMessage());
    }
  }

  private Object avroValue(OutputColumn column, Object[] decoded, int i) {
    int field = avroFields[i];
    Object value =
        AvroFields.widen(decoded[field], avro.rowSchema().column(field).type(), column.jsonType());
    if (value == null && column.required()) {
      throw new MalformedValue(
          "field '" + column.name() + "' is null, but its column is declared NOT NULL");
    }
    return value;
  }

  private static Object jsonValue(OutputColumn column, JsonNode field) {
    Object value;
    try {
      value = JsonColumnValues.convert(column.jsonType(), field);
    } catch (IllegalArgumentException e) {
      throw new MalformedValue("field '" + column.name() + "': " + e.getMessage());
    }
    if (value == null && column.required()) {
      throw new MalformedValue(
          "field '"
              + column.name()
              + "' is "
              + (field == null ? "missing" : "null")
              + ", but its column is declared NOT NULL");
    }
    return value;
  }

  /**
   * The value's fields of the declared columns, by column position (null where the object has
   * none): a field named as the column, or else one whose name equals it ignoring case. Read as a
   * stream of tokens: the fields no column declares are skipped, not built into a tree.
   */
  private JsonNode[] jsonFields(KafkaRecord record) {
    if (record.value == null) {
      throw new MalformedValue("the record has no value (a tombstone), so no JSON object");
    }
    JsonNode[] fields = new JsonNode[columns.size()];
    boolean[] exact = new boolean[columns.size()];
    try (JsonParser parser = MAPPER.createParser(record.value)) {
      JsonToken first = parser.nextToken();
      if (first != JsonToken.START_OBJECT) {
        throw new MalformedValue(
            "the value is a JSON " + (first == null ? "nothing" : kind(first)) + ", not an object");
      }
      while (parser.nextToken() == JsonToken.FIELD_NAME) {
        String name = parser.currentName();
        parser.nextToken();
        Integer column = byName.get(name);
        boolean named = column != null;
        if (column == null) {
          column = byLowerName.get(name.toLowerCase(Locale.ROOT));
        }
        if (column == null || (!named && exact[column])) {
          parser.skipChildren();
          continue;
        }
        fields[column] = TREES.readValue(parser);
        exact[column] |= named;
      }
    } catch (JsonProcessingException e) {
      throw new MalformedValue("the value is not JSON: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw new MalformedValue("the value is unreadable: " + e.getMessage());
    }
    return fields;
  }

  private static String kind(JsonToken token) {
    return switch (token) {
      case START_ARRAY -> "ARRAY";
      case VALUE_STRING -> "STRING";
      case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "NUMBER";
      case VALUE_TRUE, VALUE_FALSE -> "BOOLEAN";
      case VALUE_NULL -> "NULL";
      default -> token.name();
    };
  }

  /** A record this table cannot decode; its message is the dead letter's reason. */
  private static final class MalformedValue extends RuntimeException {
    private static final long serialVersionUID = 1L;

    MalformedValue(String message) {
      super(message, null, false, false);
    }
  }
}
