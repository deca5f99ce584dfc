package io.lakestream.sql.connector.format;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.avro.AvroDecodeException;
import io.lakestream.connectors.avro.AvroValueDecoder;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.connectors.schema.JsonColumnValues;
import java.io.IOException;
import java.io.Serializable;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;

/**
 * Decodes a record's value into the table's value columns ({@link ValueField}), as the planner's
 * internal data structures: with Avro, the fields of the value's Avro record ({@link AvroFields},
 * checked against the schema when the decoder is made); with JSON, the fields of the value's JSON
 * object (fields the table does not declare are ignored, a missing field is null, as Spark's {@code
 * from_json} reads them).
 *
 * <p>A value that is not a JSON object, does not decode as Avro, has a field that does not fit its
 * column's type, or lacks a NOT NULL column's field is a {@link MalformedValueException} naming
 * why, for the dead letters. Serializable; not thread-safe (the Avro decoder's buffers): one per
 * task.
 */
@Internal
public final class ValueDecoder implements Serializable {
  private static final long serialVersionUID = 1L;
  private static final ObjectMapper MAPPER = new ObjectMapper();

  /** Reads a JSON value as a tree with its deserializer found once, not looked up per value. */
  private static final ObjectReader TREES = MAPPER.readerFor(JsonNode.class);

  private final List<ValueField> fields;
  private final AvroValueDecoder avro;
  private final int[] avroFields;
  private final Map<String, Integer> byName = new HashMap<>();
  private final Map<String, Integer> byLowerName = new HashMap<>();

  private ValueDecoder(List<ValueField> fields, AvroValueDecoder avro, int[] avroFields) {
    this.fields = List.copyOf(fields);
    this.avro = avro;
    this.avroFields = avroFields;
    for (int i = 0; i < fields.size(); i++) {
      byName.putIfAbsent(fields.get(i).name(), i);
      byLowerName.putIfAbsent(fields.get(i).name().toLowerCase(Locale.ROOT), i);
    }
  }

  /** A decoder of JSON objects whose fields are {@code fields}. */
  public static ValueDecoder json(List<ValueField> fields) {
    return new ValueDecoder(fields, null, null);
  }

  /**
   * A decoder of Avro records read by {@code avro} whose fields are {@code fields}.
   *
   * @param table the table, for messages, e.g. {@code Kafka table orders}
   * @throws io.lakestream.api.error.LakestreamException ({@code SQL_SCHEMA_MISMATCH}) naming a
   *     column the schema lacks or has with another type
   */
  public static ValueDecoder avro(List<ValueField> fields, AvroValueDecoder avro, String table) {
    return new ValueDecoder(fields, avro, AvroFields.check(fields, avro.rowSchema(), table));
  }

  /**
   * The internal value of each field of {@code value}, by field position.
   *
   * @throws MalformedValueException if the value does not decode into the fields
   */
  public Object[] decode(byte[] value) throws MalformedValueException {
    Object[] out = new Object[fields.size()];
    if (fields.isEmpty()) {
      return out; // no field read: the value need not be decoded
    }
    if (avro != null) {
      Object[] decoded = avroValues(value);
      for (int i = 0; i < out.length; i++) {
        out[i] = internal(fields.get(i), avroValue(fields.get(i), decoded, i));
      }
      return out;
    }
    JsonNode[] nodes = jsonFields(value);
    for (int i = 0; i < out.length; i++) {
      out[i] = internal(fields.get(i), jsonValue(fields.get(i), nodes[i]));
    }
    return out;
  }

  private Object[] avroValues(byte[] value) throws MalformedValueException {
    try {
      return avro.decode(value);
    } catch (AvroDecodeException e) {
      throw new MalformedValueException("from_avro: " + e.getMessage());
    }
  }

  private Object avroValue(ValueField field, Object[] decoded, int i)
      throws MalformedValueException {
    int at = avroFields[i];
    Object value = AvroFields.widen(decoded[at], avro.rowSchema().column(at).type(), field.type());
    if (value == null && field.required()) {
      throw new MalformedValueException(
          "field '" + field.name() + "' is null, but its column is declared NOT NULL");
    }
    return value;
  }

  private static Object jsonValue(ValueField field, JsonNode node) throws MalformedValueException {
    Object value;
    try {
      value = JsonColumnValues.convert(field.type(), node);
    } catch (IllegalArgumentException e) {
      throw new MalformedValueException("field '" + field.name() + "': " + e.getMessage());
    }
    if (value == null && field.required()) {
      throw new MalformedValueException(
          "field '"
              + field.name()
              + "' is "
              + (node == null ? "missing" : "null")
              + ", but its column is declared NOT NULL");
    }
    return value;
  }

  /**
   * The value's fields, by field position (null where the object has none): a field named as the
   * column, or else one whose name equals it ignoring case. Read as a stream of tokens: the fields
   * no column declares are skipped, not built into a tree.
   */
  private JsonNode[] jsonFields(byte[] value) throws MalformedValueException {
    if (value == null) {
      throw new MalformedValueException("the record has no value (a tombstone), so no JSON object");
    }
    JsonNode[] nodes = new JsonNode[fields.size()];
    boolean[] exact = new boolean[fields.size()];
    try (JsonParser parser = MAPPER.createParser(value)) {
      JsonToken first = parser.nextToken();
      if (first != JsonToken.START_OBJECT) {
        throw new MalformedValueException(
            "the value is a JSON " + (first == null ? "nothing" : kind(first)) + ", not an object");
      }
      while (parser.nextToken() == JsonToken.FIELD_NAME) {
        String name = parser.currentName();
        parser.nextToken();
        Integer field = byName.get(name);
        boolean named = field != null;
        if (field == null) {
          field = byLowerName.get(name.toLowerCase(Locale.ROOT));
        }
        if (field == null || (!named && exact[field])) {
          parser.skipChildren();
          continue;
        }
        nodes[field] = TREES.readValue(parser);
        exact[field] |= named;
      }
    } catch (JsonProcessingException e) {
      throw new MalformedValueException("the value is not JSON: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw new MalformedValueException("the value is unreadable: " + e.getMessage());
    }
    return nodes;
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

  /**
   * A field's value (as {@link JsonColumnValues} decodes it) as the planner's internal data
   * structure: {@link StringData} for text, {@link DecimalData}, days for a date, {@link
   * TimestampData}.
   */
  private static Object internal(ValueField field, Object value) {
    if (value == null) {
      return null;
    }
    return switch (field.type().kind()) {
      case STRING -> StringData.fromString((String) value);
      case DECIMAL -> {
        ColumnType.Decimal decimal = (ColumnType.Decimal) field.type();
        yield DecimalData.fromBigDecimal((BigDecimal) value, decimal.precision(), decimal.scale());
      }
      case DATE -> (int) ((LocalDate) value).toEpochDay();
      case TIMESTAMP -> TimestampData.fromInstant((Instant) value);
      default -> value; // Boolean, Integer, Long, Double are their own internal values
    };
  }
}
