package io.lakestream.connectors.autoloader.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.autoloader.AutoLoader;
import io.lakestream.connectors.autoloader.AutoLoaderBuilder;
import io.lakestream.connectors.autoloader.discovery.DiscoveredFile;
import io.lakestream.connectors.autoloader.format.OrcTestFiles.Order;
import io.lakestream.connectors.autoloader.ledger.FileLedgerFunction;
import io.lakestream.connectors.autoloader.schema.AutoLoaderSchema;
import io.lakestream.connectors.autoloader.schema.RecordConverter;
import io.lakestream.connectors.autoloader.schema.SchemaEvolutionMode;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.apache.flink.types.Row;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cloudFiles.format=orc} on real ORC files: the schema comes from the files' own types, rows
 * are typed, a field the schema lacks goes to the rescued data, hints override the file's types,
 * and a damaged file is FAILED_READ_FILE.
 */
class OrcFormatTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  @Test
  void schemaAndRowsComeFromTheFilesOwnTypes() throws Exception {
    DiscoveredFile f = write("region=eu/a.orc", new Order(1, "a", "12.50", 3));
    AutoLoader loader = build(Map.of());
    assertThat(loader.schema().ddl())
        .isEqualTo(
            "amount DECIMAL(10,2), at TIMESTAMP, day DATE, id BIGINT, name STRING, qty INT,"
                + " tags STRING");
    assertThat(loader.rowType().getFieldNames()).endsWith("region", "_rescued_data");
    assertThat(read(loader.schema(), f))
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
  void nullsAndManyBatchesAreReadInFileOrder() throws Exception {
    List<Order> orders =
        IntStream.range(0, 250)
            .mapToObj(i -> new Order(i, i % 3 == 0 ? null : "n" + i, "1.0" + (i % 10), null))
            .collect(Collectors.toList());
    DiscoveredFile f = write("region=eu/a.orc", orders.toArray(new Order[0]));
    List<Row> rows = read(build(Map.of()).schema(), f);
    assertThat(rows)
        .extracting(r -> r.getField(3))
        .containsExactlyElementsOf(LongStreamIds.upTo(250));
    assertThat(rows.get(3).getField(4)).isNull();
    assertThat(rows.get(4).getField(4)).isEqualTo("n4");
    assertThat(rows.get(4).getField(5)).isNull();
  }

  @Test
  void hintsOverrideTheFilesTypes() throws Exception {
    DiscoveredFile f = write("region=eu/a.orc", new Order(7, "a", "2.50", 3));
    AutoLoader loader = build(Map.of("cloudFiles.schemaHints", "qty BIGINT, amount STRING"));
    assertThat(loader.schema().ddl()).contains("amount STRING").contains("qty BIGINT");
    Row row = read(loader.schema(), f).get(0);
    assertThat(row.getField(0)).isEqualTo("2.50");
    assertThat(row.getField(5)).isEqualTo(3L);
  }

  @Test
  void aFieldTheSchemaLacksIsRescued() throws Exception {
    write("region=eu/a.orc", new Order(1, "a", "1.00", null));
    AutoLoaderSchema schema = build(Map.of()).schema();
    OrcTestFiles.writeWithCoupon(fs(), hadoopPath("region=us/b.orc"), 2, "X1");
    Row row = read(schema, discovered("region=us/b.orc")).get(0);
    assertThat(row.getField(3)).isEqualTo(2L);
    assertThat(row.getField(7)).isEqualTo("us");
    assertThat(JSON.readTree((String) row.getField(8)).get("coupon").asText()).isEqualTo("X1");
  }

  @Test
  void aFileThatIsNotOrcOrIsTruncatedOrCorruptIsFailedReadFile() throws Exception {
    write("region=eu/a.orc", new Order(1, "a", "1.00", null));
    AutoLoaderSchema schema = build(Map.of()).schema();
    Files.writeString(dir.resolve("in/region=eu/b.orc"), "{\"id\": 1}\n");
    assertThatThrownBy(() -> read(schema, discovered("region=eu/b.orc")))
        .isInstanceOf(CorruptFileException.class)
        .hasMessageContaining("as orc")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("FAILED_READ_FILE");

    List<Order> many = new ArrayList<>();
    for (int i = 0; i < 2000; i++) {
      many.add(new Order(i, "name " + i, "1.00", i));
    }
    write("region=eu/c.orc", many.toArray(new Order[0]));
    Path full = dir.resolve("in/region=eu/c.orc");
    byte[] bytes = Files.readAllBytes(full);
    Files.write(full, Arrays.copyOf(bytes, bytes.length - 40));
    assertThatThrownBy(() -> read(schema, discovered("region=eu/c.orc")))
        .isInstanceOf(CorruptFileException.class)
        .hasMessageContaining("c.orc");

    byte[] scrambled = bytes.clone();
    for (int i = 3; i < scrambled.length / 2; i++) {
      scrambled[i] = (byte) (scrambled[i] * 31 + 7); // the stripes' data, not the tail
    }
    Files.write(full, scrambled);
    assertThatThrownBy(() -> read(schema, discovered("region=eu/c.orc")))
        .isInstanceOf(CorruptFileException.class)
        .hasMessageContaining("c.orc");
  }

  @Test
  void withIgnoreCorruptFilesTheLedgerSkipsADamagedFileAndReadsTheNext() throws Exception {
    write("region=eu/a.orc", new Order(1, "a", "1.00", null));
    AutoLoaderSchema schema = build(Map.of()).schema();
    Files.writeString(dir.resolve("in/region=eu/b.orc"), "not orc\n");
    try (KeyedOneInputStreamOperatorTestHarness<String, DiscoveredFile, Row> harness =
        ProcessFunctionTestHarnesses.forKeyedProcessFunction(
            new FileLedgerFunction(reader(schema, true)), f -> f.key, Types.STRING)) {
      harness.processElement(discovered("region=eu/b.orc"), 0);
      harness.processElement(discovered("region=eu/a.orc"), 0);
      assertThat(harness.extractOutputValues()).extracting(r -> r.getField(3)).containsExactly(1L);
    }
  }

  /** Ids 0..n-1 as longs. */
  private static final class LongStreamIds {
    static List<Long> upTo(int n) {
      return java.util.stream.LongStream.range(0, n).boxed().collect(Collectors.toList());
    }
  }

  private FileSystem fs() throws Exception {
    return FileSystem.getLocal(new Configuration()).getRawFileSystem(); // no .crc files beside
  }

  private org.apache.hadoop.fs.Path hadoopPath(String key) throws Exception {
    Path file = dir.resolve("in").resolve(key);
    Files.createDirectories(file.getParent());
    return new org.apache.hadoop.fs.Path(file.toUri());
  }

  private DiscoveredFile write(String key, Order... orders) throws Exception {
    OrcTestFiles.write(fs(), hadoopPath(key), List.of(orders));
    return discovered(key);
  }

  private DiscoveredFile discovered(String key) throws Exception {
    Path f = dir.resolve("in").resolve(key);
    return new DiscoveredFile(key, Files.size(f), Files.getLastModifiedTime(f).toMillis());
  }

  private AutoLoader build(Map<String, String> more) {
    AutoLoaderBuilder builder =
        AutoLoaderBuilder.forPath(dir.resolve("in").toString())
            .name("files")
            .option("cloudFiles.format", "orc")
            .option("cloudFiles.schemaLocation", dir.resolve("schema").toString())
            .option("cloudFiles.schemaEvolutionMode", "rescue");
    more.forEach(builder::option);
    return builder.build();
  }

  private FileRowReader reader(AutoLoaderSchema schema, boolean ignoreCorruptFiles) {
    return new FileRowReader(
        dir.resolve("in").toUri().toString(),
        Map.of(),
        FileFormat.ORC,
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
