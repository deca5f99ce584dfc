package io.lakestream.sql.connector.kinesis;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.sql.SqlQueries;
import io.lakestream.testkit.delta.DeltaLogTxns;
import io.lakestream.testkit.kinesis.KinesaliteExtension;
import io.lakestream.testkit.kinesis.KinesisStreams;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.kinesis.KinesisClient;
import software.amazon.awssdk.services.kinesis.model.PutRecordResponse;

/**
 * Kinesis to Delta in Flink SQL under the query runtime, against kinesalite: JSON and Avro data
 * decoded into the declared columns with the Kinesis columns as metadata, every record that does
 * not decode in the dead-letter table with its reason and {@code stream/shard@sequence}, and a
 * second availableNow run reading only what arrived since the first, all checked row for row
 * against the records put (their shards and sequence numbers as PutRecord answered them).
 */
class KinesisSqlITCase {
  @RegisterExtension static final KinesaliteExtension KINESIS = new KinesaliteExtension();

  private static final String AVRO_SCHEMA =
      "{\"type\":\"record\",\"name\":\"Order\",\"fields\":["
          + "{\"name\":\"id\",\"type\":\"long\"},"
          + "{\"name\":\"name\",\"type\":[\"null\",\"string\"],\"default\":null},"
          + "{\"name\":\"qty\",\"type\":\"int\"}]}";

  private static KinesisClient client;
  @TempDir Path dir;
  private final List<List<Object>> goodModel = new ArrayList<>();
  private final List<List<Object>> deadModel = new ArrayList<>();

  @BeforeAll
  static void client() {
    client = KINESIS.client();
  }

  @Test
  void jsonDataReachesTheTableWithKinesisColumnsAndMalformedDataTheDeadLetters() throws Exception {
    createStream("orders-json", 2);
    Instant before = Instant.now().minusSeconds(1);
    putJson("orders-json", 0, 30);
    run(jsonScript("orders-json"), "sql-kinesis-json");
    assertThat(sorted(bronzeRows(before))).containsExactlyElementsOf(sorted(goodModel));
    assertThat(deadLetterRows()).containsExactlyInAnyOrderElementsOf(deadModel);
    assertThat(rows(deadLetters()))
        .extracting(r -> (String) r.get(1))
        .anyMatch(e -> e.contains("not JSON"))
        .anyMatch(e -> e.contains("not an object"))
        .anyMatch(e -> e.contains("field 'id'"));

    putJson("orders-json", 30, 45); // the second run reads only these
    run(jsonScript("orders-json"), "sql-kinesis-json");
    assertThat(sorted(bronzeRows(before))).containsExactlyElementsOf(sorted(goodModel));
    assertThat(deadLetterRows()).containsExactlyInAnyOrderElementsOf(deadModel);
    DeltaLogTxns.read(dir.resolve("bronze")).assertEachEpochOnce();
    DeltaLogTxns.read(dir.resolve("dead")).assertEachEpochOnce();
  }

  @Test
  void avroDataReachesTheTableAndUndecodableDataTheDeadLetters() throws Exception {
    createStream("orders-avro", 1);
    Schema schema = new Schema.Parser().parse(AVRO_SCHEMA);
    List<List<Object>> good = new ArrayList<>();
    List<String> dead = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      byte[] data = avro(schema, i);
      if (i % 7 == 3) {
        data = i < 7 ? new byte[] {(byte) 0xff, 1, 2} : Arrays.copyOf(data, 1);
      }
      PutRecordResponse put = put("orders-avro", "k" + i, data);
      if (i % 7 == 3) {
        dead.add("orders-avro/" + put.shardId() + "@" + put.sequenceNumber());
      } else {
        good.add(
            Arrays.asList(
                (long) i,
                i % 5 == 0 ? null : "n" + i,
                (long) i * 3,
                "k" + i,
                HexFormat.of().formatHex(data)));
      }
    }
    String script =
        """
        CREATE TABLE orders (id BIGINT, NAME STRING, qty BIGINT,
                             pk STRING METADATA FROM 'partitionKey' VIRTUAL,
                             payload BYTES METADATA FROM 'data' VIRTUAL)
        WITH ('connector' = 'spark-kinesis', 'streamName' = 'orders-avro',
              'region' = 'us-east-1', 'endpoint' = '%s', 'awsAccessKey' = 'test',
              'awsSecretKey' = 'test', 'initialPosition' = 'trim_horizon', 'format' = 'avro',
              'avroSchema' = '%s', 'deadLetterTable' = '%s');
        CREATE TABLE bronze (id BIGINT, name STRING, qty BIGINT, pk STRING, payload BYTES)
        WITH ('connector' = 'delta', 'path' = '%s');
        INSERT INTO bronze SELECT id, NAME, qty, pk, payload FROM orders;
        """
            .formatted(KINESIS.endpoint(), AVRO_SCHEMA.replace("'", "''"), deadLetters(), bronze());
    run(script, "sql-kinesis-avro");
    List<List<Object>> rows = new ArrayList<>();
    for (List<Object> row : sorted(rows(bronze()))) { // the data as hex, comparable
      List<Object> comparable = new ArrayList<>(row.subList(0, 4));
      comparable.add(HexFormat.of().formatHex((byte[]) row.get(4)));
      rows.add(comparable);
    }
    assertThat(rows).containsExactlyElementsOf(good);
    assertThat(rows(deadLetters()))
        .extracting(r -> (String) r.get(2))
        .containsExactlyInAnyOrderElementsOf(dead);
    assertThat(rows(deadLetters()))
        .extracting(r -> (String) r.get(1))
        .allMatch(e -> e.startsWith("from_avro: "));
  }

  private String jsonScript(String stream) {
    return """
        CREATE TABLE orders (
          id BIGINT NOT NULL, name STRING, amount DECIMAL(12, 2),
          pk STRING METADATA FROM 'partitionKey' VIRTUAL, `stream` STRING METADATA VIRTUAL,
          shard STRING METADATA FROM 'shardId' VIRTUAL,
          seq STRING METADATA FROM 'sequenceNumber' VIRTUAL,
          arrived TIMESTAMP_LTZ(3) METADATA FROM 'approximateArrivalTimestamp' VIRTUAL
        ) WITH ('connector' = 'spark-kinesis', 'streamName' = '%s', 'region' = 'us-east-1',
                'endpoint' = '%s', 'awsAccessKey' = 'test', 'awsSecretKey' = 'test',
                'initialPosition' = 'trim_horizon', 'maxRecordsPerEpoch' = '10',
                'format' = 'json', 'deadLetterTable' = '%s');
        CREATE TABLE bronze (
          id BIGINT, name STRING, amount DECIMAL(12, 2), pk STRING, `stream` STRING,
          shard STRING, seq STRING, arrived TIMESTAMP_LTZ(6)
        ) WITH ('connector' = 'delta', 'path' = '%s');
        INSERT INTO bronze
        SELECT id, name, amount, pk, `stream`, shard, seq, CAST(arrived AS TIMESTAMP_LTZ(6))
        FROM orders;
        """
        .formatted(stream, KINESIS.endpoint(), deadLetters(), bronze());
  }

  /** Puts records {@code from..to-1}: every seventh malformed, the others good. */
  private void putJson(String stream, int from, int to) {
    for (int i = from; i < to; i++) {
      boolean bad = i % 7 == 3;
      String data = bad ? malformed(i) : good(i);
      PutRecordResponse put = put(stream, "k" + i, data.getBytes(StandardCharsets.UTF_8));
      String position = stream + "/" + put.shardId() + "@" + put.sequenceNumber();
      if (bad) {
        deadModel.add(Arrays.asList(data, position));
      } else {
        goodModel.add(
            Arrays.asList(
                (long) i,
                i % 5 == 0 ? null : "n" + i,
                BigDecimal.valueOf(i * 25L, 2),
                "k" + i,
                stream,
                put.shardId(),
                put.sequenceNumber()));
      }
    }
  }

  private static String good(int i) {
    String name = i % 5 == 0 ? "" : ", \"name\": \"n" + i + "\"";
    return "{\"id\": " + i + name + ", \"AMOUNT\": " + BigDecimal.valueOf(i * 25L, 2) + "}";
  }

  private static String malformed(int i) {
    return switch ((i / 7) % 3) {
      case 0 -> "{\"id\": " + i + ", \"name\": "; // cut short
      case 1 -> "[" + i + "]";
      default -> "{\"id\": \"id-" + i + "\"}";
    };
  }

  private static byte[] avro(Schema schema, int i) throws IOException {
    GenericRecord record = new GenericData.Record(schema);
    record.put("id", (long) i);
    record.put("name", i % 5 == 0 ? null : "n" + i);
    record.put("qty", i * 3);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
    new GenericDatumWriter<GenericRecord>(schema).write(record, encoder);
    encoder.flush();
    return out.toByteArray();
  }

  private void run(String script, String name) throws Exception {
    SqlQueries.availableNow(script, name, dir.resolve("checkpoint")).awaitTermination();
  }

  /**
   * The bronze rows without their arrival time, each checked to have arrived between {@code before}
   * and now.
   */
  private List<List<Object>> bronzeRows(Instant before) throws IOException {
    List<List<Object>> out = new ArrayList<>();
    for (List<Object> row : rows(bronze())) {
      assertThat((Instant) row.get(7)).isBetween(before, Instant.now().plusSeconds(1));
      out.add(row.subList(0, 7));
    }
    return out;
  }

  /** The dead letters as (raw, position), each checked to carry a reason. */
  private List<List<Object>> deadLetterRows() throws IOException {
    List<List<Object>> out = new ArrayList<>();
    for (List<Object> row : rows(deadLetters())) {
      assertThat((String) row.get(1)).as("reason of %s", row).isNotBlank();
      out.add(Arrays.asList(row.get(0), row.get(2)));
    }
    return out;
  }

  private String bronze() {
    return dir.resolve("bronze").toUri().toString();
  }

  private String deadLetters() {
    return dir.resolve("dead").toUri().toString();
  }

  private static List<List<Object>> rows(String table) throws IOException {
    return new DeltaTableReader(DeltaTable.forPath(table))
        .readLatest().stream().map(Arrays::asList).collect(Collectors.toList());
  }

  private static List<List<Object>> sorted(List<List<Object>> rows) {
    return rows.stream()
        .sorted((a, b) -> Long.compare((Long) a.get(0), (Long) b.get(0)))
        .collect(Collectors.toList());
  }

  private static PutRecordResponse put(String stream, String key, byte[] data) {
    return client.putRecord(
        r -> r.streamName(stream).partitionKey(key).data(SdkBytes.fromByteArray(data)));
  }

  private static void createStream(String stream, int shards) throws InterruptedException {
    KinesisStreams.create(client, stream, shards);
  }
}
