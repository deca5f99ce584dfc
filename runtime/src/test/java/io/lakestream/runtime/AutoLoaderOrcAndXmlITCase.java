package io.lakestream.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakestream.connectors.autoloader.AutoLoaderBuilder;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.sink.DeltaSinkBuilder;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.state.StateBackendSettings;
import io.lakestream.testkit.delta.DeltaLogTxns;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.types.Row;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hive.common.type.HiveDecimal;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DecimalColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.orc.OrcFile;
import org.apache.orc.TypeDescription;
import org.apache.orc.Writer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Auto Loader's orc and xml formats into a Delta table, exactly once: a task fails mid-run (the run
 * restarts from its checkpoint inside the job), a second run continues from the checkpoint with new
 * files, and the table equals the model row for row after each run. What cannot be read follows the
 * dead-letter rule of the other formats: a field the schema lacks and an XML element that is not
 * well-formed land in {@code _rescued_data}; an ORC file that is not ORC is skipped with {@code
 * ignoreCorruptFiles} (and fails the query without it, as the unit tests show).
 */
class AutoLoaderOrcAndXmlITCase {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int ROWS_PER_FILE = 10;
  private static final DeltaTableSchema SCHEMA =
      DeltaTableSchema.builder()
          .column("amount", ColumnType.decimal(10, 2))
          .column("id", ColumnType.LONG)
          .column("name", ColumnType.STRING)
          .column("_rescued_data", ColumnType.STRING)
          .build();
  private static final TypeDescription ORC_ORDERS =
      TypeDescription.fromString("struct<id:bigint,name:string,amount:decimal(10,2)>");

  static final AtomicBoolean FAILED = new AtomicBoolean();
  static final AtomicLong SEEN = new AtomicLong();
  static volatile long failAfterRows = Long.MAX_VALUE;

  @TempDir Path dir;

  /** The rows the table must hold, as {@code amount|id|name|rescued}, in any order. */
  private final List<String> model = new ArrayList<>();

  @BeforeEach
  @AfterEach
  void resetFailure() {
    failAfterRows = Long.MAX_VALUE;
    FAILED.set(false);
    SEEN.set(0);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"orc", "xml"})
  void everyRowOnceAcrossATaskFailureAndARestartWithRescuedAndSkippedInput(String format)
      throws Exception {
    for (int f = 0; f < 5; f++) {
      writeOrders(format, f);
    }
    failAfterRows = 25; // mid-run, after the first epochs committed
    StreamingQuery first = start(format);
    first.awaitTermination();
    assertThat(FAILED).as("the injected failure happened").isTrue();
    assertThat(table()).containsExactlyInAnyOrderElementsOf(model);

    for (int f = 5; f < 8; f++) {
      writeOrders(format, f);
    }
    writeUnreadable(format, "f-008");
    writeWithNewField(format, "f-009", 900);
    StreamingQuery second = start(format);
    second.awaitTermination();
    assertThat(table()).containsExactlyInAnyOrderElementsOf(model);
    DeltaLogTxns.read(dir.resolve("out"))
        .assertEachEpochOnce()
        .assertVersionPerEpoch(second.appId(), dir.resolve("checkpoint"), "out");
  }

  private StreamingQuery start(String format) throws Exception {
    Map<String, String> options = new TreeMap<>();
    options.put("cloudFiles.format", format);
    options.put("cloudFiles.schemaLocation", dir.resolve("schema").toString());
    options.put("cloudFiles.schemaEvolutionMode", "rescue");
    options.put("cloudFiles.maxFilesPerTrigger", "2");
    if (format.equals("xml")) {
      options.put("rowTag", "order");
      options.put("cloudFiles.inferColumnTypes", "true");
      options.put("cloudFiles.schemaHints", "amount DECIMAL(10,2)");
    } else {
      options.put("ignoreCorruptFiles", "true");
    }
    String out = dir.resolve("out").toUri().toString();
    Dataflow dataflow =
        (env, query) -> {
          DataStream<Row> rows =
              AutoLoaderBuilder.forPath(dir.resolve("landing").toString())
                  .name("orders-files")
                  .options(options)
                  .query(query)
                  .build()
                  .stream(env);
          rows.map(new FailOnce())
              .returns(rows.getType())
              .uid("fail-once")
              .sinkTo(
                  DeltaSinkBuilder.<Row>forTable(
                          out,
                          SCHEMA,
                          r ->
                              new Object[] {
                                r.getField(0), r.getField(1), r.getField(2), r.getField(3)
                              })
                      .query(query)
                      .sinkName("out")
                      .build())
              .uid("out");
        };
    Configuration restarts = new Configuration();
    restarts.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
    restarts.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 3);
    restarts.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(100));
    return StreamingQueryBuilder.of(dataflow)
        .queryName(format + "-orders")
        .checkpointLocation(dir.resolve("checkpoint").toString())
        .trigger(Trigger.availableNow())
        .parallelism(2)
        .stateBackend(StateBackendSettings.defaults())
        .flinkConfiguration(restarts)
        .start();
  }

  /** The table's rows as {@code amount|id|name|rescued}. */
  private List<String> table() throws IOException {
    List<String> rows = new ArrayList<>();
    for (Object[] r :
        new DeltaTableReader(DeltaTable.forPath(dir.resolve("out").toUri().toString()))
            .readLatest()) {
      rows.add(r[0] + "|" + r[1] + "|" + r[2] + "|" + rescued((String) r[3]));
    }
    rows.sort(Comparator.naturalOrder());
    return rows;
  }

  /** What a row rescued: the malformed element's text, or the fields the schema lacks. */
  private static String rescued(String json) throws IOException {
    if (json == null) {
      return null;
    }
    JsonNode node = JSON.readTree(json);
    assertThat(node.path("_file_path").asText()).contains("/landing/");
    if (node.has("_corrupt_record")) {
      return "corrupt=" + node.get("_corrupt_record").asText();
    }
    return "coupon=" + node.get("coupon").asText();
  }

  private static String amount(long id) {
    return new BigDecimal(id).movePointLeft(2).add(BigDecimal.ONE).toString(); // id 7: 1.07
  }

  /** File {@code f}: orders f*10 .. f*10+9; in xml, file 3 also has a malformed element. */
  private void writeOrders(String format, int f) throws Exception {
    List<Long> ids = new ArrayList<>();
    for (long id = (long) f * ROWS_PER_FILE; id < (f + 1L) * ROWS_PER_FILE; id++) {
      ids.add(id);
      model.add(amount(id) + "|" + id + "|n-" + id + "|null");
    }
    String name = String.format("f-%03d", f);
    if (format.equals("orc")) {
      writeOrc(name, ids, null);
      return;
    }
    StringBuilder xml = new StringBuilder("<?xml version=\"1.0\"?>\n<orders>\n");
    for (long id : ids) {
      xml.append(order(id, ""));
      if (f == 3 && id == 33) {
        String bad = "<order><id>999</id><name>bad</nme></order>";
        xml.append(bad).append('\n');
        model.add("null|null|null|corrupt=" + bad);
      }
    }
    write(name + ".xml", xml.append("</orders>\n").toString());
  }

  private static String order(long id, String more) {
    return "<order><id>"
        + id
        + "</id><name>n-"
        + id
        + "</name><amount>"
        + amount(id)
        + "</amount>"
        + more
        + "</order>\n";
  }

  /** A file with one order of a field the schema lacks: the field is rescued. */
  private void writeWithNewField(String format, String name, long id) throws Exception {
    model.add(amount(id) + "|" + id + "|n-" + id + "|coupon=C" + id);
    if (format.equals("orc")) {
      writeOrc(name, List.of(id), "C" + id);
    } else {
      write(name + ".xml", "<orders>" + order(id, "<coupon>C" + id + "</coupon>") + "</orders>");
    }
  }

  /**
   * In orc, a file that is not ORC (skipped with ignoreCorruptFiles: no rows); in xml, an element
   * that is not UTF-8 (rescued) beside one that is read.
   */
  private void writeUnreadable(String format, String name) throws IOException {
    if (format.equals("orc")) {
      write(name + ".orc", "{\"id\": 1}\n".getBytes(StandardCharsets.UTF_8));
      return;
    }
    byte[] bad =
        "<order><id>5</id><name>\u00ff</name></order>".getBytes(StandardCharsets.ISO_8859_1);
    String good = order(800, "");
    model.add(amount(800) + "|800|n-800|null");
    model.add("null|null|null|corrupt=" + new String(bad, StandardCharsets.UTF_8));
    java.io.ByteArrayOutputStream file = new java.io.ByteArrayOutputStream();
    file.writeBytes("<orders>\n".getBytes(StandardCharsets.UTF_8));
    file.writeBytes(bad);
    file.writeBytes(("\n" + good + "</orders>\n").getBytes(StandardCharsets.UTF_8));
    write(name + ".xml", file.toByteArray());
  }

  private void write(String name, String text) throws IOException {
    write(name, text.getBytes(StandardCharsets.UTF_8));
  }

  private void write(String name, byte[] bytes) throws IOException {
    Path file = dir.resolve("landing").resolve(name);
    Files.createDirectories(file.getParent());
    Files.write(file, bytes);
  }

  /** An ORC file of the orders, with a string column {@code coupon} if given. */
  private void writeOrc(String name, List<Long> ids, String coupon) throws Exception {
    TypeDescription schema = ORC_ORDERS.clone();
    if (coupon != null) {
      schema.addField("coupon", TypeDescription.createString());
    }
    Path file = dir.resolve("landing").resolve(name + ".orc");
    Files.createDirectories(file.getParent());
    FileSystem fs =
        FileSystem.getLocal(new org.apache.hadoop.conf.Configuration()).getRawFileSystem();
    try (Writer writer =
        OrcFile.createWriter(
            new org.apache.hadoop.fs.Path(file.toUri()),
            OrcFile.writerOptions(fs.getConf()).fileSystem(fs).setSchema(schema))) {
      VectorizedRowBatch batch = schema.createRowBatch();
      for (long id : ids) {
        int r = batch.size++;
        ((LongColumnVector) batch.cols[0]).vector[r] = id;
        ((BytesColumnVector) batch.cols[1]).setVal(r, ("n-" + id).getBytes(StandardCharsets.UTF_8));
        ((DecimalColumnVector) batch.cols[2])
            .set(r, HiveDecimal.create(new BigDecimal(amount(id))));
        if (coupon != null) {
          ((BytesColumnVector) batch.cols[3]).setVal(r, coupon.getBytes(StandardCharsets.UTF_8));
        }
      }
      writer.addRowBatch(batch);
    }
  }

  /** Fails once, after {@link #failAfterRows} rows went through. */
  static final class FailOnce implements MapFunction<Row, Row> {
    @Override
    public Row map(Row row) {
      if (SEEN.incrementAndGet() > failAfterRows && FAILED.compareAndSet(false, true)) {
        throw new IllegalStateException("injected task failure at row " + row);
      }
      return row;
    }
  }
}
