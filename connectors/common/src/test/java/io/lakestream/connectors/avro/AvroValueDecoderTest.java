package io.lakestream.connectors.avro;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.schema.ColumnType;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.avro.Conversions;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * from_avro on plain Avro and on the Confluent wire format against a loopback HTTP server speaking
 * the schema registry's {@code GET /schemas/ids/{id}}: types and values convert, a writer schema
 * resolves against the reader's (a field it lacks takes its default), schemas are fetched once per
 * id, and every kind of bad value is an {@link AvroDecodeException} (for the dead letters) while an
 * unreachable registry fails with {@code AVRO_SCHEMA_REGISTRY_UNAVAILABLE}.
 */
class AvroValueDecoderTest {
  private static final String READER =
      "{\"type\":\"record\",\"name\":\"Order\",\"fields\":["
          + "{\"name\":\"id\",\"type\":\"long\"},"
          + "{\"name\":\"customer\",\"type\":\"string\"},"
          + "{\"name\":\"amount\",\"type\":{\"type\":\"bytes\",\"logicalType\":\"decimal\","
          + "\"precision\":10,\"scale\":2}},"
          + "{\"name\":\"day\",\"type\":{\"type\":\"int\",\"logicalType\":\"date\"}},"
          + "{\"name\":\"at\",\"type\":{\"type\":\"long\",\"logicalType\":\"timestamp-millis\"}},"
          + "{\"name\":\"tags\",\"type\":{\"type\":\"array\",\"items\":\"string\"}},"
          + "{\"name\":\"note\",\"type\":[\"null\",\"string\"],\"default\":null}]}";

  /** The reader schema without {@code note}: what an older producer wrote. */
  private static final String WRITER_V1 =
      READER.replace(",{\"name\":\"note\",\"type\":[\"null\",\"string\"],\"default\":null}", "");

  private HttpServer registry;
  private final AtomicInteger fetches = new AtomicInteger();

  @AfterEach
  void stop() {
    if (registry != null) {
      registry.stop(0);
    }
  }

  private static byte[] avro(String schemaJson, boolean withNote) throws IOException {
    Schema schema = new Schema.Parser().parse(schemaJson);
    GenericRecord r = new GenericData.Record(schema);
    r.put("id", 42L);
    r.put("customer", "c-7");
    Schema amount = schema.getField("amount").schema();
    r.put(
        "amount",
        new Conversions.DecimalConversion()
            .toBytes(new BigDecimal("123.45"), amount, LogicalTypes.decimal(10, 2)));
    r.put("day", (int) LocalDate.parse("2026-12-06").toEpochDay());
    r.put("at", Instant.parse("2026-12-06T17:00:00Z").toEpochMilli());
    r.put("tags", List.of("a", "b"));
    if (withNote) {
      r.put("note", "gift");
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
    new GenericDatumWriter<GenericRecord>(schema).write(r, encoder);
    encoder.flush();
    return out.toByteArray();
  }

  private static byte[] wire(int id, byte[] body) {
    return ByteBuffer.allocate(5 + body.length).put((byte) 0).putInt(id).put(body).array();
  }

  private String startRegistry() throws IOException {
    registry = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    registry.createContext(
        "/schemas/ids/",
        exchange -> {
          fetches.incrementAndGet();
          String id = exchange.getRequestURI().getPath().substring("/schemas/ids/".length());
          String body;
          int status;
          if (id.equals("7")) {
            status = 200;
            body = "{\"schema\":" + quote(WRITER_V1) + "}";
          } else {
            status = 404;
            body = "{\"error_code\":40403,\"message\":\"Schema " + id + " not found\"}";
          }
          byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
          exchange
              .getResponseHeaders()
              .add("Content-Type", "application/vnd.schemaregistry.v1+json");
          exchange.sendResponseHeaders(status, bytes.length);
          try (OutputStream os = exchange.getResponseBody()) {
            os.write(bytes);
          }
        });
    registry.start();
    return "http://127.0.0.1:" + registry.getAddress().getPort() + "/";
  }

  private static String quote(String json) {
    return "\"" + json.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  @Test
  void decodesPlainAvroWithTheGivenSchema(@TempDir Path dir) throws Exception {
    Path file = Files.writeString(dir.resolve("order.avsc"), READER);
    AvroValueDecoder decoder = AvroValueDecoder.ofFile(file, null);
    assertThat(decoder.rowSchema().columnNames())
        .containsExactly("id", "customer", "amount", "day", "at", "tags", "note");
    assertThat(decoder.rowSchema().column(2).type()).isEqualTo(ColumnType.decimal(10, 2));
    assertThat(decoder.rowSchema().column(6).nullable()).isTrue();
    Object[] row = decoder.decode(avro(READER, true));
    assertThat(Arrays.asList(row))
        .containsExactly(
            42L,
            "c-7",
            new BigDecimal("123.45"),
            LocalDate.parse("2026-12-06"),
            Instant.parse("2026-12-06T17:00:00Z"),
            List.of("a", "b"),
            "gift");
  }

  @Test
  void badValuesAreDecodeErrors() throws Exception {
    AvroValueDecoder decoder = AvroValueDecoder.of(READER, null);
    byte[] good = avro(READER, true);
    assertThatThrownBy(() -> decoder.decode("not avro at all".getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(AvroDecodeException.class);
    byte[] longer = Arrays.copyOf(good, good.length + 3);
    assertThatThrownBy(() -> decoder.decode(longer))
        .isInstanceOf(AvroDecodeException.class)
        .hasMessageContaining("left after the record");
    assertThatThrownBy(() -> decoder.decode(Arrays.copyOf(good, good.length - 2)))
        .isInstanceOf(AvroDecodeException.class);
    assertThatThrownBy(() -> decoder.decode(null)).isInstanceOf(AvroDecodeException.class);
    // still usable after failures
    assertThat(decoder.decode(good)[0]).isEqualTo(42L);
  }

  @Test
  void confluentWireFormatResolvesTheRegisteredWriterSchema() throws Exception {
    AvroValueDecoder decoder = AvroValueDecoder.of(READER, startRegistry());
    Object[] first = decoder.decode(wire(7, avro(WRITER_V1, false)));
    Object[] second = decoder.decode(wire(7, avro(WRITER_V1, false)));
    assertThat(first[1]).isEqualTo("c-7");
    assertThat(first[6]).as("a field the writer lacks takes its default").isNull();
    assertThat(second[0]).isEqualTo(42L);
    assertThat(fetches).as("one fetch per id").hasValue(1);

    assertThatThrownBy(() -> decoder.decode(wire(9, avro(WRITER_V1, false))))
        .isInstanceOf(AvroDecodeException.class)
        .hasMessageContaining("schema id 9 is not in the schema registry");
    assertThatThrownBy(() -> decoder.decode(avro(READER, true)))
        .isInstanceOf(AvroDecodeException.class)
        .hasMessageContaining("magic byte");
    assertThatThrownBy(() -> decoder.decode(new byte[] {0, 0, 0}))
        .isInstanceOf(AvroDecodeException.class)
        .hasMessageContaining("5-byte header");
  }

  @Test
  void anUnreachableRegistryFailsTheTaskNotTheRecord() throws Exception {
    String url = startRegistry();
    registry.stop(0);
    registry = null;
    AvroValueDecoder decoder = AvroValueDecoder.of(READER, url);
    assertThatThrownBy(() -> decoder.decode(wire(7, avro(WRITER_V1, false))))
        .isInstanceOfSatisfying(
            LakestreamException.class,
            e ->
                assertThat(e.errorClass())
                    .isEqualTo(AvroErrorClass.AVRO_SCHEMA_REGISTRY_UNAVAILABLE.name()));
  }

  @Test
  void unreadableSchemasFailWhenTheDecoderIsMade() {
    for (String schema :
        List.of(
            "{not json",
            "\"string\"",
            "{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"u\","
                + "\"type\":[\"int\",\"string\"]}]}")) {
      assertThatThrownBy(() -> AvroValueDecoder.of(schema, null))
          .isInstanceOfSatisfying(
              LakestreamException.class,
              e -> assertThat(e.errorClass()).isEqualTo(AvroErrorClass.AVRO_SCHEMA_INVALID.name()));
    }
  }

  @Test
  void mapsAndRecordsNest() throws Exception {
    String schema =
        "{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"m\",\"type\":{\"type\":"
            + "\"map\",\"values\":\"int\"}},{\"name\":\"s\",\"type\":{\"type\":\"record\","
            + "\"name\":\"S\",\"fields\":[{\"name\":\"x\",\"type\":\"double\"}]}}]}";
    Schema parsed = new Schema.Parser().parse(schema);
    GenericRecord r = new GenericData.Record(parsed);
    r.put("m", Map.of("k", 1));
    GenericRecord s = new GenericData.Record(parsed.getField("s").schema());
    s.put("x", 2.5);
    r.put("s", s);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
    new GenericDatumWriter<GenericRecord>(parsed).write(r, encoder);
    encoder.flush();
    Object[] row = AvroValueDecoder.of(schema, null).decode(out.toByteArray());
    assertThat(row[0]).isEqualTo(Map.of("k", 1));
    assertThat((Object[]) row[1]).containsExactly(2.5);
  }
}
