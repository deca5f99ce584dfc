package io.lakestream.pipelines;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.avro.AvroDecodeException;
import io.lakestream.connectors.avro.AvroValueDecoder;
import io.lakestream.connectors.kafka.KafkaRecord;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.connectors.schema.RowSchema;
import io.lakestream.connectors.schema.flink.FlinkTypes;
import io.lakestream.operators.parse.FromJson;
import io.lakestream.operators.parse.RecordParseException;
import io.lakestream.operators.parse.RecordParser;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.types.Row;

/**
 * Spark's {@code from_avro(value, ...)} on Kafka records: the {@link AvroValueDecoder}'s rows as
 * Flink {@link Row}s (named fields, Flink's own serializers), through {@link FromJson}'s
 * dead-letter path, which knows no format: a value that does not decode goes to {@code
 * ParseWithDeadLetters.DEAD_LETTERS} with the reason and {@code topic/partition@offset} (its raw
 * field holds the bytes as lossy UTF-8 text), never fails the query and is never dropped. An
 * unreachable schema registry fails the task instead (the records are not at fault).
 */
@Internal
public final class KafkaAvroValue implements RecordParser<Row> {
  private static final long serialVersionUID = 1L;

  private final AvroValueDecoder decoder;

  public KafkaAvroValue(AvroValueDecoder decoder) {
    this.decoder = decoder;
  }

  /** Decodes {@code records}' values; get the dead letters from the result's side output. */
  public static SingleOutputStreamOperator<Row> fromAvro(
      DataStream<KafkaRecord> records, AvroValueDecoder decoder, String uid) {
    KafkaAvroValue parser = new KafkaAvroValue(decoder);
    return FromJson.fromJson(records, KafkaRecordValue.INSTANCE, parser, parser.rowType(), uid);
  }

  /** The Flink type of the rows. */
  public TypeInformation<Row> rowType() {
    return FlinkTypes.rowType(decoder.rowSchema());
  }

  @Override
  public Row parse(String raw) throws RecordParseException {
    throw new RecordParseException("from_avro reads a value's bytes, not text");
  }

  @Override
  public Row parseUtf8(byte[] raw) throws RecordParseException {
    try {
      return (Row) flink(decoder.decode(raw), ColumnType.struct(decoder.rowSchema()));
    } catch (AvroDecodeException e) {
      throw new RecordParseException("from_avro: " + e.getMessage(), e);
    }
  }

  /** A decoded value as Flink holds it: structs as rows, inside lists and maps too. */
  private static Object flink(Object value, ColumnType type) {
    if (value == null) {
      return null;
    }
    return switch (type.kind()) {
      case STRUCT -> {
        RowSchema fields = ((ColumnType.Struct) type).fields();
        Object[] values = (Object[]) value;
        Row row = new Row(values.length);
        for (int i = 0; i < values.length; i++) {
          row.setField(i, flink(values[i], fields.column(i).type()));
        }
        yield row;
      }
      case ARRAY -> {
        List<Object> out = new ArrayList<>();
        ColumnType element = ((ColumnType.Array) type).elementType();
        ((List<?>) value).forEach(e -> out.add(flink(e, element)));
        yield out;
      }
      case MAP -> {
        Map<Object, Object> out = new LinkedHashMap<>();
        ColumnType valueType = ((ColumnType.Map) type).valueType();
        ((Map<?, ?>) value).forEach((k, v) -> out.put(k, flink(v, valueType)));
        yield out;
      }
      default -> value;
    };
  }
}
