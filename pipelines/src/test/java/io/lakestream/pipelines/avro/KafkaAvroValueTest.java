package io.lakestream.pipelines.avro;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.avro.AvroValueDecoder;
import io.lakestream.connectors.kafka.KafkaRecord;
import io.lakestream.operators.parse.DeadLetter;
import io.lakestream.operators.parse.FromJson;
import io.lakestream.operators.parse.ParseWithDeadLetters;
import io.lakestream.pipelines.KafkaAvroValue;
import io.lakestream.pipelines.KafkaRecordValue;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.flink.streaming.api.operators.ProcessOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.Test;

/**
 * from_avro on Kafka records through the dead-letter path: decodable values become rows of the
 * schema (a nested record as a nested row, serialized by the rows' Flink type), while garbage, a
 * value of another schema with bytes left over, and a tombstone each become a dead letter with the
 * reason and {@code topic/partition@offset}; input count = rows + dead letters.
 */
class KafkaAvroValueTest {
  private static final String SCHEMA =
      "{\"type\":\"record\",\"name\":\"Click\",\"fields\":[{\"name\":\"ad\",\"type\":\"string\"},"
          + "{\"name\":\"n\",\"type\":\"int\"},{\"name\":\"geo\",\"type\":{\"type\":\"record\","
          + "\"name\":\"Geo\",\"fields\":[{\"name\":\"lat\",\"type\":\"double\"}]}}]}";

  private static byte[] click(String ad, int n, double lat) throws Exception {
    Schema schema = new Schema.Parser().parse(SCHEMA);
    GenericRecord geo = new GenericData.Record(schema.getField("geo").schema());
    geo.put("lat", lat);
    GenericRecord r = new GenericData.Record(schema);
    r.put("ad", ad);
    r.put("n", n);
    r.put("geo", geo);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
    new GenericDatumWriter<GenericRecord>(schema).write(r, encoder);
    encoder.flush();
    return out.toByteArray();
  }

  private static KafkaRecord record(long offset, byte[] value) {
    return new KafkaRecord(null, value, "clicks", 0, offset, 0, 0, new String[0], new byte[0][]);
  }

  @Test
  void undecodableValuesGoToTheDeadLetters() throws Exception {
    KafkaAvroValue parser = new KafkaAvroValue(AvroValueDecoder.of(SCHEMA, null));
    FromJson<KafkaRecord, Row> fromAvro =
        new FromJson<>(KafkaRecordValue.INSTANCE, parser, parser.rowType());
    try (OneInputStreamOperatorTestHarness<KafkaRecord, Row> harness =
        new OneInputStreamOperatorTestHarness<>(new ProcessOperator<>(fromAvro))) {
      harness.setup(parser.rowType().createSerializer(harness.getExecutionConfig()));
      harness.open();
      byte[] good = click("ad-1", 3, 52.5);
      byte[] longer = java.util.Arrays.copyOf(good, good.length + 1);
      harness.processElement(record(1, good), 0);
      harness.processElement(record(2, "{\"ad\":\"json\"}".getBytes(StandardCharsets.UTF_8)), 0);
      harness.processElement(record(3, longer), 0);
      harness.processElement(record(4, null), 0);
      harness.processElement(record(5, click("ad-2", 4, -1.0)), 0);

      List<Row> rows = harness.extractOutputValues();
      assertThat(rows)
          .containsExactly(Row.of("ad-1", 3, Row.of(52.5)), Row.of("ad-2", 4, Row.of(-1.0)));
      List<DeadLetter> dead =
          harness.getSideOutput(ParseWithDeadLetters.DEAD_LETTERS).stream()
              .map(StreamRecord::getValue)
              .toList();
      assertThat(dead)
          .extracting(d -> d.source)
          .containsExactly("clicks/0@2", "clicks/0@3", "clicks/0@4");
      assertThat(dead).allSatisfy(d -> assertThat(d.error).isNotBlank());
      assertThat(dead.get(1).error).contains("left after the record");
      assertThat(dead.get(2).error).contains("tombstone");
    }
  }
}
