package io.lakestream.connectors.autoloader.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.autoloader.discovery.DiscoveredFile;
import io.lakestream.connectors.autoloader.ledger.FileLedgerFunction;
import io.lakestream.connectors.autoloader.schema.AutoLoaderSchema;
import io.lakestream.connectors.autoloader.schema.RecordConverter;
import io.lakestream.connectors.autoloader.schema.SchemaEvolutionMode;
import io.lakestream.connectors.autoloader.schema.SchemaHistory;
import io.lakestream.connectors.autoloader.schema.SchemaInferenceException;
import io.lakestream.connectors.autoloader.schema.UnknownFieldException;
import io.lakestream.connectors.schema.Column;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.testkit.s3.S3ServerExtension;
import io.lakestream.testkit.s3.S3aSettings;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.apache.flink.types.Row;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cloudFiles.format=parquet}: types come from the files' footers (whatever inferColumnTypes
 * says), values keep their types (decimals, dates, timestamps, nulls), a new column is detected
 * with its declared type, and a file that is not Parquet fails naming it.
 */
class ParquetFormatTest {
  @RegisterExtension static final S3ServerExtension S3 = new S3ServerExtension("parquet-format");

  private static final MessageType ORDERS =
      MessageTypeParser.parseMessageType(
          "message orders {"
              + " required int64 id;"
              + " optional binary name (STRING);"
              + " optional int64 amount (DECIMAL(12,2));"
              + " optional int32 day (DATE);"
              + " optional int64 ts (TIMESTAMP(MICROS,true));"
              + " optional int32 qty;"
              + " optional double score;"
              + " optional boolean vip;"
              + "}");

  private static final MessageType ORDERS_WITH_COUPON =
      MessageTypeParser.parseMessageType(
          "message orders { required int64 id; optional binary coupon (STRING);"
              + " optional int64 qty; }");

  private static final Instant TS = Instant.parse("2026-11-29T10:15:30.123456Z");

  @TempDir Path dir;

  private Path input() {
    return dir.resolve("in");
  }

  private DiscoveredFile write(String key, MessageType schema, List<Group> rows) throws Exception {
    Path file = input().resolve(key);
    Files.createDirectories(file.getParent());
    try (ParquetWriter<Group> writer =
        ExampleParquetWriter.builder(new org.apache.hadoop.fs.Path(file.toUri()))
            .withType(schema)
            .withConf(new Configuration())
            .build()) {
      for (Group row : rows) {
        writer.write(row);
      }
    }
    return new DiscoveredFile(key, Files.size(file), Files.getLastModifiedTime(file).toMillis());
  }

  private DiscoveredFile ordersFile() throws Exception {
    SimpleGroupFactory rows = new SimpleGroupFactory(ORDERS);
    Group full =
        rows.newGroup()
            .append("id", 1L)
            .append("name", "ana")
            .append("amount", 123_45L)
            .append("day", (int) LocalDate.parse("2026-11-29").toEpochDay())
            .append("ts", TS.getEpochSecond() * 1_000_000L + TS.getNano() / 1_000)
            .append("qty", 3)
            .append("score", 0.5)
            .append("vip", true);
    Group sparse = rows.newGroup().append("id", 2L); // every optional column null
    return write("date=2026-11-29/part-0.parquet", ORDERS, List.of(full, sparse));
  }

  private FileRowReader reader(
      AutoLoaderSchema schema, SchemaEvolutionMode mode, SchemaHistory history) {
    return reader(input().toUri().toString(), Map.of(), schema, mode, history);
  }

  private static FileRowReader reader(
      String root,
      Map<String, String> conf,
      AutoLoaderSchema schema,
      SchemaEvolutionMode mode,
      SchemaHistory history) {
    return new FileRowReader(
        root,
        conf,
        FileFormat.PARQUET,
        new RecordConverter(schema),
        mode,
        history,
        0,
        false,
        false);
  }

  private SchemaInference inference() {
    return inference(input().toUri().toString(), Map.of());
  }

  private static SchemaInference inference(String root, Map<String, String> conf) {
    return new SchemaInference(root, conf, FileFormat.PARQUET, false, Map.of(), 1000, 1L << 40);
  }

  @Test
  void readsParquetFromS3WithRangedReads() throws Exception {
    DiscoveredFile file = ordersFile();
    Map<String, String> conf = S3aSettings.of(S3.server());
    String root = S3aSettings.uri(S3.server(), "landing/parquet");
    Configuration hadoop = new Configuration();
    conf.forEach(hadoop::set);
    org.apache.hadoop.fs.Path target = new org.apache.hadoop.fs.Path(root + "/" + file.key);
    try (java.io.OutputStream out = target.getFileSystem(hadoop).create(target, true)) {
      out.write(Files.readAllBytes(input().resolve(file.key)));
    }

    AutoLoaderSchema schema = inference(root, conf).infer(null, false);
    assertThat(schema.column("amount").type().sql()).isEqualTo("DECIMAL(12,2)");
    List<Row> rows = new ArrayList<>();
    reader(root, conf, schema, SchemaEvolutionMode.ADD_NEW_COLUMNS, null).read(file, rows::add);
    assertThat(rows).hasSize(2);
    assertThat(rows.get(0).getField(6)).isEqualTo(TS);
    assertThat(rows.get(1).getField(2)).isEqualTo(2L);
  }

  @Test
  void inferenceReadsTheFootersTypesAndRowsKeepTheirValues() throws Exception {
    DiscoveredFile file = ordersFile();
    AutoLoaderSchema schema = inference().infer(null, false);
    assertThat(schema.ddl())
        .isEqualTo(
            "amount DECIMAL(12,2), day DATE, id BIGINT, name STRING, qty INT, score DOUBLE,"
                + " ts TIMESTAMP, vip BOOLEAN");
    assertThat(schema.partitionColumns()).containsExactly("date");

    List<Row> rows = new ArrayList<>();
    assertThat(reader(schema, SchemaEvolutionMode.ADD_NEW_COLUMNS, null).read(file, rows::add))
        .isEqualTo(2);
    assertThat(rows)
        .containsExactly(
            Row.of(
                new BigDecimal("123.45"),
                LocalDate.parse("2026-11-29"),
                1L,
                "ana",
                3,
                0.5,
                TS,
                true,
                "2026-11-29"),
            Row.of(null, null, 2L, null, null, null, null, null, "2026-11-29"));
  }

  @Test
  void typesWidenAcrossFilesAndANewColumnIsRecordedWithItsDeclaredType() throws Exception {
    DiscoveredFile first = ordersFile();
    AutoLoaderSchema schema = inference().infer(null, false);
    SchemaHistory history = new SchemaHistory(dir.resolve("schema").toUri().toString(), Map.of());
    history.record(0, schema);

    SimpleGroupFactory rows = new SimpleGroupFactory(ORDERS_WITH_COUPON);
    DiscoveredFile second =
        write(
            "date=2026-11-30/part-0.parquet",
            ORDERS_WITH_COUPON,
            List.of(rows.newGroup().append("id", 3L).append("coupon", "X1").append("qty", 7L)));
    assertThatThrownBy(
            () ->
                reader(schema, SchemaEvolutionMode.ADD_NEW_COLUMNS, history).read(second, r -> {}))
        .isInstanceOf(UnknownFieldException.class)
        .hasMessageContaining("new columns [coupon]")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("UNKNOWN_FIELD_EXCEPTION");
    assertThat(history.latest().orElseThrow().schema().column("coupon").type().sql())
        .isEqualTo("STRING");

    // a fresh inference over both files: qty is int32 in one and int64 in the other
    assertThat(inference().infer(null, false).column("qty").type().sql()).isEqualTo("BIGINT");

    List<Row> read = new ArrayList<>();
    reader(history.latest().orElseThrow().schema(), SchemaEvolutionMode.NONE, history)
        .read(first, read::add);
    assertThat(read).hasSize(2);
  }

  @Test
  void aFileThatIsNotParquetFailsNamingItWithoutRestarts() throws Exception {
    Path bogus = input().resolve("date=2026-11-29/bogus.parquet");
    Files.createDirectories(bogus.getParent());
    Files.writeString(bogus, "{\"id\": 1}\n");
    DiscoveredFile file = new DiscoveredFile("date=2026-11-29/bogus.parquet", Files.size(bogus), 0);
    AutoLoaderSchema schema =
        new AutoLoaderSchema(List.of(new Column("id", ColumnType.LONG)), List.of("date"), false);
    assertThatThrownBy(() -> reader(schema, SchemaEvolutionMode.NONE, null).read(file, r -> {}))
        .isInstanceOf(CorruptFileException.class)
        .hasMessageContaining("bogus.parquet as Parquet")
        .hasMessageContaining("set ignoreCorruptFiles=true")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("FAILED_READ_FILE");
    assertThatThrownBy(() -> inference().infer(null, false))
        .isInstanceOf(SchemaInferenceException.class)
        .hasMessageContaining("bogus.parquet")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("CF_SCHEMA_INFERENCE_FAILED");
    // in the stream, a restart would read the same bytes: the job fails without restarts
    assertThatThrownBy(() -> ledger(schema, false, file))
        .isInstanceOf(SuppressRestartsException.class)
        .hasRootCauseInstanceOf(RuntimeException.class)
        .cause()
        .isInstanceOf(CorruptFileException.class);
  }

  @Test
  void aTruncatedFileIsCorruptAndAnEmptyOneHasNoRows() throws Exception {
    DiscoveredFile good = ordersFile();
    byte[] bytes = Files.readAllBytes(input().resolve(good.key));
    for (int length : new int[] {3, bytes.length / 2, bytes.length - 1}) {
      Path cut = input().resolve("date=2026-11-29/cut-" + length + ".parquet");
      Files.write(cut, java.util.Arrays.copyOf(bytes, length));
      DiscoveredFile file = new DiscoveredFile(input().relativize(cut).toString(), length, 0);
      assertThatThrownBy(
              () -> reader(ordersSchema(), SchemaEvolutionMode.NONE, null).read(file, r -> {}))
          .as("%d of %d bytes", length, bytes.length)
          .isInstanceOf(CorruptFileException.class)
          .hasMessageContaining(file.key);
    }
    Path empty = input().resolve("date=2026-11-29/empty.parquet");
    Files.createFile(empty);
    DiscoveredFile emptyFile = new DiscoveredFile("date=2026-11-29/empty.parquet", 0, 0);
    assertThat(reader(ordersSchema(), SchemaEvolutionMode.NONE, null).read(emptyFile, r -> {}))
        .isZero();
  }

  @Test
  void withIgnoreCorruptFilesTheLedgerSkipsACorruptFileAndReadsTheNext() throws Exception {
    DiscoveredFile good = ordersFile();
    Path bogus = input().resolve("date=2026-11-29/bogus.parquet");
    Files.writeString(bogus, "not parquet");
    DiscoveredFile corrupt = new DiscoveredFile("date=2026-11-29/bogus.parquet", 11, 0);
    List<Row> rows = ledger(ordersSchema(), true, corrupt, good);
    assertThat(rows).hasSize(2); // the good file's rows; the corrupt one is skipped, not retried
  }

  private AutoLoaderSchema ordersSchema() {
    return new AutoLoaderSchema(
        List.of(new Column("id", ColumnType.LONG), new Column("qty", ColumnType.INT)),
        List.of("date"),
        false);
  }

  /** The rows the file ledger emits for {@code files}, read with ignoreCorruptFiles or not. */
  private List<Row> ledger(AutoLoaderSchema schema, boolean ignoreCorrupt, DiscoveredFile... files)
      throws Exception {
    FileRowReader reader =
        new FileRowReader(
            input().toUri().toString(),
            Map.of(),
            FileFormat.PARQUET,
            new RecordConverter(schema),
            SchemaEvolutionMode.NONE,
            null,
            0,
            false,
            ignoreCorrupt);
    try (KeyedOneInputStreamOperatorTestHarness<String, DiscoveredFile, Row> harness =
        ProcessFunctionTestHarnesses.forKeyedProcessFunction(
            new FileLedgerFunction(reader), f -> f.key, Types.STRING)) {
      for (DiscoveredFile file : files) {
        harness.processElement(file, 0);
      }
      return harness.extractOutputValues();
    }
  }
}
