package io.lakestream.sql.connector.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.runtime.StreamingQuery;
import io.lakestream.sql.FailOnce;
import io.lakestream.sql.SqlQueries;
import io.lakestream.testkit.delta.DeltaLogTxns;
import io.lakestream.testkit.kafka.KafkaBroker;
import io.lakestream.testkit.kafka.KafkaBrokerExtension;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.stream.Collectors;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kafka to Delta in Flink SQL under the query runtime, with a real broker: JSON values decoded into
 * the declared columns with Kafka's columns as metadata, every malformed record in the dead-letter
 * table with its reason and position, a task failure mid-epoch and a second run from the first
 * one's savepoint changing nothing, all checked row for row against the records sent.
 */
class KafkaSqlITCase {
  @RegisterExtension static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

  private static final Instant T0 = Instant.parse("2026-05-01T00:00:00Z");

  @TempDir Path dir;
  private String topic;
  private final long[] nextOffset = new long[2];
  private final List<List<Object>> goodModel = new ArrayList<>();
  private final List<List<Object>> deadModel = new ArrayList<>();

  @BeforeEach
  void createTopic() {
    FailOnce.disarm();
    topic = "orders-" + dir.getFileName().toString().replaceAll("[^A-Za-z0-9]", "");
    KAFKA.broker().createTopic(topic, 2);
  }

  /**
   * Sends records {@code from..to-1}, record i to partition i % 2: every seventh malformed (in turn
   * not JSON, a JSON array, a field of the wrong type, a tombstone, a decimal too wide), the others
   * good; records what the tables must hold.
   */
  private void send(int from, int to) {
    try (KafkaProducer<byte[], byte[]> producer = producer(KAFKA.broker())) {
      for (int i = from; i < to; i++) {
        int partition = i % 2;
        long offset = nextOffset[partition]++;
        String value = i % 7 == 3 ? malformed(i) : good(i);
        byte[] bytes = value == null ? null : value.getBytes(StandardCharsets.UTF_8);
        producer.send(
            new ProducerRecord<>(
                topic, partition, ("k" + i).getBytes(StandardCharsets.UTF_8), bytes));
        String position = topic + "/" + partition + "@" + offset;
        if (i % 7 == 3) {
          deadModel.add(Arrays.asList(value, position));
        } else {
          goodModel.add(
              Arrays.asList(
                  (long) i,
                  i % 5 == 0 ? null : "n" + i,
                  BigDecimal.valueOf(i * 25L, 2),
                  T0.plusMillis(i * 1001L),
                  partition,
                  offset,
                  "k" + i));
        }
      }
      producer.flush();
    }
  }

  private static String good(int i) {
    String name = i % 5 == 0 ? "" : ", \"name\": \"n" + i + "\"";
    return "{\"id\": "
        + i
        + name
        + ", \"AMOUNT\": "
        + BigDecimal.valueOf(i * 25L, 2)
        + ", \"ts\": \""
        + T0.plusMillis(i * 1001L)
        + "\", \"extra\": {\"ignored\": true}}";
  }

  private static String malformed(int i) {
    return switch ((i / 7) % 5) {
      case 0 -> "{\"id\": " + i + ", \"name\": "; // cut short
      case 1 -> "[" + i + "]";
      case 2 -> "{\"id\": \"id-" + i + "\"}";
      case 3 -> null;
      default -> "{\"id\": " + i + ", \"amount\": 1e40}";
    };
  }

  private static KafkaProducer<byte[], byte[]> producer(KafkaBroker broker) {
    Properties p = broker.clientProperties();
    p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    return new KafkaProducer<>(p);
  }

  private String bronze() {
    return dir.resolve("bronze").toUri().toString();
  }

  private String deadLetters() {
    return dir.resolve("dead").toUri().toString();
  }

  private StreamingQuery startJson() throws Exception {
    String script =
        """
        CREATE TABLE orders (
          id BIGINT, name STRING, amount DECIMAL(12, 2), ts TIMESTAMP_LTZ(3),
          `partition` INT METADATA VIRTUAL, `offset` BIGINT METADATA VIRTUAL,
          k BYTES METADATA FROM 'key' VIRTUAL
        ) WITH ('connector' = 'spark-kafka', 'kafka.bootstrap.servers' = '%s',
                'subscribe' = '%s', 'startingOffsets' = 'earliest',
                'maxOffsetsPerTrigger' = '30', 'format' = 'json', 'deadLetterTable' = '%s');
        CREATE TABLE bronze (
          id BIGINT, name STRING, amount DECIMAL(12, 2), ts TIMESTAMP_LTZ(6), part INT,
          off BIGINT, k STRING
        ) WITH ('connector' = 'delta', 'path' = '%s');
        CREATE TEMPORARY FUNCTION fail_once AS '%s';
        INSERT INTO bronze
        SELECT fail_once(id), name, amount, CAST(ts AS TIMESTAMP_LTZ(6)), `partition`, `offset`,
               CAST(k AS STRING)
        FROM orders;
        """
            .formatted(
                KAFKA.broker().bootstrapServers(),
                topic,
                deadLetters(),
                bronze(),
                FailOnce.class.getName());
    return SqlQueries.availableNow(script, "sql-kafka-bronze", dir.resolve("checkpoint"));
  }

  private static List<List<Object>> rows(String table) throws IOException {
    return new DeltaTableReader(DeltaTable.forPath(table))
        .readLatest().stream().map(Arrays::asList).collect(Collectors.toList());
  }

  private List<List<Object>> sorted(List<List<Object>> rows) {
    return rows.stream()
        .sorted((a, b) -> Long.compare((Long) a.get(0), (Long) b.get(0)))
        .collect(Collectors.toList());
  }

  /** The dead letters as (raw, position), each checked to carry a reason. */
  private List<List<Object>> deadLetterRows() throws IOException {
    List<List<Object>> out = new ArrayList<>();
    for (List<Object> row : rows(deadLetters())) {
      assertThat((String) row.get(1)).as("reason of %s", row).isNotBlank();
      assertThat(row.get(3)).isInstanceOf(Instant.class);
      out.add(Arrays.asList(row.get(0), row.get(2)));
    }
    return out;
  }

  @Test
  void jsonRecordsReachTheTableAndMalformedOnesTheDeadLettersExactlyOnceThroughAFailure()
      throws Exception {
    send(0, 140);
    FailOnce.arm(dir.resolve("checkpoint"));
    StreamingQuery first = startJson();
    first.awaitTermination();
    assertThat(FailOnce.failed()).as("the injected task failure happened").isTrue();
    assertThat(sorted(rows(bronze()))).containsExactlyElementsOf(sorted(goodModel));
    assertThat(deadLetterRows()).containsExactlyInAnyOrderElementsOf(deadModel);
    assertThat(rows(deadLetters()))
        .extracting(r -> (String) r.get(1))
        .anyMatch(e -> e.contains("not JSON"))
        .anyMatch(e -> e.contains("not an object"))
        .anyMatch(e -> e.contains("field 'id'"))
        .anyMatch(e -> e.contains("tombstone"))
        .anyMatch(e -> e.contains("field 'amount'"));

    send(140, 200); // the second run resumes from the first one's savepoint and offsets
    StreamingQuery second = startJson();
    second.awaitTermination();
    assertThat(sorted(rows(bronze()))).containsExactlyElementsOf(sorted(goodModel));
    assertThat(deadLetterRows()).containsExactlyInAnyOrderElementsOf(deadModel);
    assertThat(second.recentProgress())
        .as("epochs of at most maxOffsetsPerTrigger records")
        .allSatisfy(p -> assertThat(p.numInputRows()).isLessThanOrEqualTo(30))
        .anySatisfy(p -> assertThat(p.numInputRows()).isPositive());
    DeltaLogTxns.read(dir.resolve("bronze")).assertEachEpochOnce();
    DeltaLogTxns.read(dir.resolve("dead")).assertEachEpochOnce();
  }

  @Test
  void rawRecordsCarrySparksKafkaColumns() throws Exception {
    try (KafkaProducer<byte[], byte[]> producer = producer(KAFKA.broker())) {
      for (int i = 0; i < 6; i++) {
        ProducerRecord<byte[], byte[]> record =
            new ProducerRecord<>(
                topic,
                i % 2,
                T0.toEpochMilli() + i,
                i == 4 ? null : ("k" + i).getBytes(StandardCharsets.UTF_8),
                ("v" + i).getBytes(StandardCharsets.UTF_8));
        record.headers().add("src", ("h" + i).getBytes(StandardCharsets.UTF_8));
        producer.send(record);
      }
    }
    String script =
        """
        CREATE TABLE raw_orders (
          key STRING, `value` STRING, topic STRING, `partition` INT, `offset` BIGINT,
          `timestamp` TIMESTAMP_LTZ(3), timestampType INT, headers MAP<STRING, BYTES>
        ) WITH ('connector' = 'spark-kafka', 'kafka.bootstrap.servers' = '%s',
                'subscribe' = '%s', 'startingOffsets' = 'earliest');
        CREATE TABLE copy (
          k STRING, v STRING, topic STRING, part INT, off BIGINT, ts TIMESTAMP_LTZ(6),
          ts_type INT, src STRING
        ) WITH ('connector' = 'delta', 'path' = '%s');
        INSERT INTO copy
        SELECT key, `value`, topic, `partition`, `offset`, CAST(`timestamp` AS TIMESTAMP_LTZ(6)),
               timestampType, CAST(headers['src'] AS STRING)
        FROM raw_orders;
        """
            .formatted(KAFKA.broker().bootstrapServers(), topic, bronze());
    SqlQueries.availableNow(script, "sql-kafka-raw", dir.resolve("checkpoint")).awaitTermination();
    List<List<Object>> expected = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      expected.add(
          Arrays.asList(
              i == 4 ? null : "k" + i,
              "v" + i,
              topic,
              i % 2,
              (long) (i / 2),
              T0.plusMillis(i),
              0, // CreateTime
              "h" + i));
    }
    assertThat(rows(bronze())).containsExactlyInAnyOrderElementsOf(expected);
  }

  private static final String AVRO_SCHEMA =
      "{\"type\":\"record\",\"name\":\"Order\",\"fields\":["
          + "{\"name\":\"id\",\"type\":\"long\"},"
          + "{\"name\":\"name\",\"type\":[\"null\",\"string\"],\"default\":null},"
          + "{\"name\":\"qty\",\"type\":\"int\"}]}";

  /**
   * from_avro in SQL: Avro values decoded into the declared columns (int widened to BIGINT, names
   * matched ignoring case), and every value that does not decode (garbage, cut short, a tombstone)
   * in the dead-letter table with its position.
   */
  @Test
  void avroRecordsReachTheTableAndUndecodableOnesTheDeadLetters() throws Exception {
    org.apache.avro.Schema schema = new org.apache.avro.Schema.Parser().parse(AVRO_SCHEMA);
    List<List<Object>> good = new ArrayList<>();
    List<String> dead = new ArrayList<>();
    try (KafkaProducer<byte[], byte[]> producer = producer(KAFKA.broker())) {
      for (int i = 0; i < 30; i++) {
        byte[] value = avro(schema, i);
        if (i % 7 == 3) {
          value =
              switch ((i / 7) % 3) {
                case 0 -> new byte[] {(byte) 0xff, 1, 2};
                case 1 -> java.util.Arrays.copyOf(value, 1);
                default -> null;
              };
          dead.add(topic + "/" + (i % 2) + "@" + nextOffset[i % 2]);
        } else {
          good.add(Arrays.asList((long) i, i % 5 == 0 ? null : "n" + i, (long) i * 3));
        }
        nextOffset[i % 2]++;
        producer.send(new ProducerRecord<>(topic, i % 2, null, value));
      }
    }
    String script =
        """
        CREATE TABLE orders (id BIGINT, NAME STRING, qty BIGINT)
        WITH ('connector' = 'spark-kafka', 'kafka.bootstrap.servers' = '%s',
              'subscribe' = '%s', 'startingOffsets' = 'earliest', 'format' = 'avro',
              'avroSchema' = '%s', 'deadLetterTable' = '%s');
        CREATE TABLE bronze (id BIGINT, name STRING, qty BIGINT)
        WITH ('connector' = 'delta', 'path' = '%s');
        INSERT INTO bronze SELECT id, NAME, qty FROM orders;
        """
            .formatted(
                KAFKA.broker().bootstrapServers(),
                topic,
                AVRO_SCHEMA.replace("'", "''"),
                deadLetters(),
                bronze());
    SqlQueries.availableNow(script, "sql-kafka-avro", dir.resolve("checkpoint")).awaitTermination();
    assertThat(sorted(rows(bronze()))).containsExactlyElementsOf(good);
    assertThat(rows(deadLetters()))
        .extracting(r -> (String) r.get(2))
        .containsExactlyInAnyOrderElementsOf(dead);
    assertThat(rows(deadLetters()))
        .extracting(r -> (String) r.get(1))
        .allMatch(e -> e.startsWith("from_avro: "));
  }

  private static byte[] avro(org.apache.avro.Schema schema, int i) throws IOException {
    org.apache.avro.generic.GenericRecord record =
        new org.apache.avro.generic.GenericData.Record(schema);
    record.put("id", (long) i);
    record.put("name", i % 5 == 0 ? null : "n" + i);
    record.put("qty", i * 3);
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    org.apache.avro.io.BinaryEncoder encoder =
        org.apache.avro.io.EncoderFactory.get().binaryEncoder(out, null);
    new org.apache.avro.generic.GenericDatumWriter<org.apache.avro.generic.GenericRecord>(schema)
        .write(record, encoder);
    encoder.flush();
    return out.toByteArray();
  }
}
