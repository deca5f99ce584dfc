package io.lakestream.connectors.autoloader.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.autoloader.AutoLoader;
import io.lakestream.connectors.autoloader.AutoLoaderBuilder;
import io.lakestream.connectors.autoloader.discovery.DiscoveredFile;
import io.lakestream.connectors.autoloader.ledger.FileLedgerFunction;
import io.lakestream.connectors.autoloader.schema.AutoLoaderSchema;
import io.lakestream.connectors.autoloader.schema.RecordConverter;
import io.lakestream.connectors.autoloader.schema.SchemaEvolutionMode;
import java.io.File;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.avro.Conversions;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cloudFiles.format=avro} on real Avro container files: the schema comes from the files' own
 * schema (logical types included), rows are typed, a field the schema lacks goes to the rescued
 * data, and a damaged file is FAILED_READ_FILE.
 */
class AvroFormatTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Schema DECIMAL =
      LogicalTypes.decimal(10, 2).addToSchema(Schema.create(Schema.Type.BYTES));
  private static final Schema DATE =
      LogicalTypes.date().addToSchema(Schema.create(Schema.Type.INT));
  private static final Schema TIMESTAMP =
      LogicalTypes.timestampMillis().addToSchema(Schema.create(Schema.Type.LONG));

  private static final Schema ORDERS =
      SchemaBuilder.record("order")
          .fields()
          .requiredLong("id")
          .optionalString("name")
          .name("amount")
          .type(DECIMAL)
          .noDefault()
          .name("day")
          .type(DATE)
          .noDefault()
          .name("at")
          .type(TIMESTAMP)
          .noDefault()
          .optionalInt("qty")
          .name("tags")
          .type()
          .array()
          .items()
          .stringType()
          .noDefault()
          .endRecord();

  @TempDir Path dir;

  @Test
  void schemaAndRowsComeFromTheFilesOwnSchema() throws Exception {
    DiscoveredFile f = write("region=eu/a.avro", ORDERS, order(ORDERS, 1, "a", "12.50", 3));
    AutoLoader loader = build();
    assertThat(loader.schema().ddl())
        .isEqualTo(
            "amount DECIMAL(10,2), at TIMESTAMP, day DATE, id BIGINT, name STRING, qty INT,"
                + " tags STRING");
    assertThat(loader.rowType().getFieldNames()).endsWith("region", "_rescued_data");
    List<Row> rows = read(loader.schema(), f);
    assertThat(rows)
        .containsExactly(
            Row.of(
                new BigDecimal("12.50"),
                Instant.ofEpochMilli(1_700_000_000_123L),
                LocalDate.of(2026, 12, 6),
                1L,
                "a",
                3,
                "[\"x\",\"y\"]",
                "eu",
                null));
  }

  @Test
  void aFieldTheSchemaLacksIsRescued() throws Exception {
    write("region=eu/a.avro", ORDERS, order(ORDERS, 1, "a", "1.00", null));
    AutoLoaderSchema schema = build().schema();
    Schema wider =
        SchemaBuilder.record("order")
            .fields()
            .requiredLong("id")
            .requiredString("coupon")
            .endRecord();
    GenericRecord record = new GenericData.Record(wider);
    record.put("id", 2L);
    record.put("coupon", "X1");
    DiscoveredFile f = write("region=us/b.avro", wider, record);
    Row row = read(schema, f).get(0);
    assertThat(row.getField(3)).isEqualTo(2L);
    assertThat(row.getField(7)).isEqualTo("us");
    assertThat(JSON.readTree((String) row.getField(8)).get("coupon").asText()).isEqualTo("X1");
  }

  @Test
  void aFileThatIsNotAvroOrIsTruncatedIsFailedReadFile() throws Exception {
    write("region=eu/a.avro", ORDERS, order(ORDERS, 1, "a", "1.00", null));
    AutoLoaderSchema schema = build().schema();
    Path notAvro = dir.resolve("in/region=eu/b.avro");
    Files.writeString(notAvro, "{\"id\": 1}\n");
    assertThatThrownBy(() -> read(schema, discovered("region=eu/b.avro")))
        .isInstanceOf(CorruptFileException.class)
        .hasMessageContaining("as avro")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("FAILED_READ_FILE");

    GenericRecord[] many = new GenericRecord[200];
    for (int i = 0; i < many.length; i++) {
      many[i] = order(ORDERS, i, "name " + i, "1.00", i);
    }
    write("region=eu/c.avro", ORDERS, many);
    Path full = dir.resolve("in/region=eu/c.avro");
    byte[] bytes = Files.readAllBytes(full);
    Files.write(full, Arrays.copyOf(bytes, bytes.length - 40));
    assertThatThrownBy(() -> read(schema, discovered("region=eu/c.avro")))
        .isInstanceOf(CorruptFileException.class)
        .hasMessageContaining("c.avro");
  }

  @Test
  void withIgnoreCorruptFilesTheLedgerSkipsADamagedFileAndReadsTheNext() throws Exception {
    write("region=eu/a.avro", ORDERS, order(ORDERS, 1, "a", "1.00", null));
    AutoLoaderSchema schema = build().schema();
    Files.writeString(dir.resolve("in/region=eu/b.avro"), "not avro\n");
    try (KeyedOneInputStreamOperatorTestHarness<String, DiscoveredFile, Row> harness =
        ProcessFunctionTestHarnesses.forKeyedProcessFunction(
            new FileLedgerFunction(reader(schema, true)), f -> f.key, Types.STRING)) {
      harness.processElement(discovered("region=eu/b.avro"), 0);
      harness.processElement(discovered("region=eu/a.avro"), 0);
      assertThat(harness.extractOutputValues()).extracting(r -> r.getField(3)).containsExactly(1L);
    }
  }

  private static GenericRecord order(
      Schema schema, long id, String name, String amount, Integer qty) {
    GenericRecord record = new GenericData.Record(schema);
    record.put("id", id);
    record.put("name", name);
    BigDecimal decimal = new BigDecimal(amount);
    record.put(
        "amount",
        new Conversions.DecimalConversion().toBytes(decimal, DECIMAL, DECIMAL.getLogicalType()));
    record.put("day", (int) LocalDate.of(2026, 12, 6).toEpochDay());
    record.put("at", 1_700_000_000_123L);
    record.put("qty", qty);
    record.put("tags", List.of("x", "y"));
    return record;
  }

  private DiscoveredFile write(String key, Schema schema, GenericRecord... records)
      throws Exception {
    File file = dir.resolve("in").resolve(key).toFile();
    Files.createDirectories(file.getParentFile().toPath());
    try (DataFileWriter<GenericRecord> writer =
        new DataFileWriter<>(new GenericDatumWriter<GenericRecord>(schema))) {
      writer.create(schema, file);
      for (GenericRecord record : records) {
        writer.append(record);
      }
    }
    return discovered(key);
  }

  private DiscoveredFile discovered(String key) throws Exception {
    Path f = dir.resolve("in").resolve(key);
    return new DiscoveredFile(key, Files.size(f), Files.getLastModifiedTime(f).toMillis());
  }

  private AutoLoader build() {
    return AutoLoaderBuilder.forPath(dir.resolve("in").toString())
        .name("files")
        .option("cloudFiles.format", "avro")
        .option("cloudFiles.schemaLocation", dir.resolve("schema").toString())
        .option("cloudFiles.schemaEvolutionMode", "rescue")
        .build();
  }

  private FileRowReader reader(AutoLoaderSchema schema, boolean ignoreCorruptFiles) {
    return new FileRowReader(
        dir.resolve("in").toUri().toString(),
        Map.of(),
        FileFormat.AVRO,
        new RecordConverter(schema),
        SchemaEvolutionMode.RESCUE,
        null,
        0,
        false,
        ignoreCorruptFiles);
  }

  private List<Row> read(AutoLoaderSchema schema, DiscoveredFile f) throws Exception {
    List<Row> rows = new ArrayList<>();
    reader(schema, false).read(f, rows::add);
    return rows;
  }
}
