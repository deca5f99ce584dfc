package io.lakestream.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lakestream.connectors.delta.DeltaAppendCommit;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.DeltaTableWriter;
import io.lakestream.connectors.delta.cdf.source.DeltaCdfSourceBuilder;
import io.lakestream.connectors.delta.source.DeltaSourceBuilder;
import io.lakestream.connectors.files.JsonLinesFileSink;
import io.lakestream.connectors.files.RowEncoder;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.connectors.sink.CommitRecordListener;
import io.lakestream.state.query.QueryContext;
import io.lakestream.testkit.logging.CapturedLogs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Delta source whose table gains a column while the query runs: the stream stops at the version
 * that changed the schema ({@code DELTA_SCHEMA_CHANGED}, additive), lakestream rebuilds the query
 * with the new schema and restarts it from its checkpoint by itself, and every row arrives once,
 * the new column filled from that version on.
 */
class DeltaSourceSchemaChangeITCase {
  private static final DeltaTableSchema NARROW =
      DeltaTableSchema.builder()
          .column("id", ColumnType.LONG, false)
          .column("label", ColumnType.STRING)
          .build();
  private static final DeltaTableSchema WIDE =
      DeltaTableSchema.builder()
          .column("id", ColumnType.LONG, false)
          .column("label", ColumnType.STRING)
          .column("amount", ColumnType.DOUBLE)
          .build();

  private static final DeltaTableSchema RENAMED =
      DeltaTableSchema.builder()
          .column("id", ColumnType.LONG, false)
          .column("title", ColumnType.STRING)
          .column("amount", ColumnType.DOUBLE)
          .build();

  private static final DeltaTableSchema NARROW_CDF = withChangeFeed(NARROW);
  private static final DeltaTableSchema WIDE_CDF = withChangeFeed(WIDE);
  private static final DeltaTableSchema NOTED_CDF =
      withChangeFeed(
          DeltaTableSchema.builder()
              .column("id", ColumnType.LONG, false)
              .column("title", ColumnType.STRING)
              .column("amount", ColumnType.DOUBLE)
              .column("note", ColumnType.STRING)
              .build());

  private static DeltaTableSchema withChangeFeed(DeltaTableSchema schema) {
    DeltaTableSchema.Builder b = DeltaTableSchema.builder();
    schema.columns().forEach(c -> b.column(c.name(), c.type(), c.nullable()));
    return b.property("delta.enableChangeDataFeed", "true").build();
  }

  private static final ObjectMapper MAPPER = new ObjectMapper();

  @TempDir Path dir;

  private void append(DeltaTableSchema schema, long from, long to, long version)
      throws IOException {
    DeltaTable table = DeltaTable.forPath(dir.resolve("in").toUri().toString());
    DeltaAppendCommit commit = new DeltaAppendCommit(table, schema, "producer");
    commit.open();
    List<Object[]> rows = new ArrayList<>();
    for (long id = from; id < to; id++) {
      rows.add(
          schema == NARROW ? new Object[] {id, "l" + id} : new Object[] {id, "l" + id, id + 0.5});
    }
    commit.commit(version, new DeltaTableWriter(table, schema).write(rows));
  }

  /**
   * Commits version {@code version}: only a metaData action with the {@link #WIDE} schema, as Spark
   * writes it for {@code mergeSchema} on a table without column mapping (lakestream's own writer
   * evolves schemas through column mapping, which the Delta source does not read yet).
   */
  private void addAmountColumn(long version) throws IOException {
    Path log = dir.resolve("in/_delta_log");
    ObjectNode metaData = null;
    for (String line : Files.readAllLines(log.resolve(String.format("%020d.json", 0)))) {
      JsonNode action = MAPPER.readTree(line);
      if (action.has("metaData")) {
        metaData = (ObjectNode) action.get("metaData");
      }
    }
    assertThat(metaData).as("version 0 holds the table's metaData").isNotNull();
    metaData.put("schemaString", WIDE.toStructType().toJson());
    ObjectNode action = MAPPER.createObjectNode();
    action.set("metaData", metaData);
    Files.writeString(
        log.resolve(String.format("%020d.json", version)),
        MAPPER.writeValueAsString(action) + "\n");
  }

  private StreamingQuery start() throws Exception {
    return start(Map.of("pollInterval", "100ms"));
  }

  private StreamingQuery start(Map<String, String> options) throws Exception {
    return start(
        query ->
            DeltaSourceBuilder.forTable(dir.resolve("in").toUri().toString())
                .name("delta-in")
                .options(options)
                .query(query)
                .build(),
        DeltaSourceSchemaChangeITCase::encode);
  }

  /** A query from the source {@code source} builds (again at each rebuild) to JSON lines. */
  private StreamingQuery start(
      java.util.function.Function<QueryContext, Source<Row, ?, ?>> source, RowEncoder<Row> encoder)
      throws Exception {
    String out = dir.resolve("out").toUri().toString();
    Dataflow dataflow =
        (env, query) ->
            env.fromSource(source.apply(query), WatermarkStrategy.noWatermarks(), "delta-in")
                .uid("delta-in")
                .sinkTo(
                    JsonLinesFileSink.create(
                        out, encoder, new CommitRecordListener(query, "out", "out")))
                .uid("out");
    return StreamingQueryBuilder.of(dataflow)
        .queryName("delta-evolving")
        .checkpointLocation(dir.resolve("checkpoint").toString())
        .trigger(Trigger.processingTime(Duration.ofMillis(500)))
        .parallelism(2)
        .flinkConfiguration(restartForever())
        .start();
  }

  /**
   * As the repository's cluster configuration: Flink restarts a failed job forever, so only a
   * failure that suppresses Flink's restarts reaches the query runtime, which rebuilds the query.
   */
  private static Configuration restartForever() {
    Configuration conf = new Configuration();
    conf.setString("restart-strategy.type", "fixed-delay");
    conf.setString("restart-strategy.fixed-delay.attempts", String.valueOf(Integer.MAX_VALUE));
    conf.setString("restart-strategy.fixed-delay.delay", "100 ms");
    return conf;
  }

  private static String encode(Row row) {
    List<String> fields = new ArrayList<>();
    for (int i = 0; i < row.getArity(); i++) {
      fields.add(String.valueOf(row.getField(i)));
    }
    return String.join("|", fields);
  }

  private List<String> out() throws IOException {
    Path dirOut = dir.resolve("out");
    if (!Files.isDirectory(dirOut)) {
      return List.of();
    }
    List<String> lines = new ArrayList<>();
    try (Stream<Path> files = Files.list(dirOut)) {
      for (Path f : files.filter(p -> p.toString().endsWith(".jsonl")).toList()) {
        lines.addAll(Files.readAllLines(f));
      }
    }
    return lines.stream().sorted().toList();
  }

  private void awaitRows(int count) throws Exception {
    long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
    while (out().size() < count) {
      assertThat(System.nanoTime())
          .as("%d rows arrive (have %s)", count, out())
          .isLessThan(deadline);
      Thread.sleep(200);
    }
  }

  @Test
  void anAddedColumnRestartsTheQueryByItselfAndEveryRowArrivesOnce() throws Exception {
    append(NARROW, 0, 5, 1);
    try (CapturedLogs logs = CapturedLogs.of("io.lakestream.runtime")) {
      StreamingQuery query = start();
      String firstRun = query.runId();
      awaitRows(5);
      addAmountColumn(2);
      append(WIDE, 5, 8, 3);
      awaitRows(8);
      assertThat(query.runId()).as("rebuilt and restarted").isNotEqualTo(firstRun);
      query.stop();
      assertThat(logs.lines()).anyMatch(l -> l.contains("input schema changed (columns [amount])"));
    }
    List<String> expected = new ArrayList<>();
    for (long id = 0; id < 8; id++) {
      expected.add(id + "|l" + id + (id < 5 ? "" : "|" + (id + 0.5)));
    }
    assertThat(out())
        .as("rows before the change keep their shape, rows after it carry the new column")
        .containsExactlyInAnyOrderElementsOf(expected.stream().sorted().toList());
  }

  /** Appends ids [from, to) as lakestream's sink does with mergeSchema=true (column mapping). */
  private void appendEvolving(DeltaTableSchema schema, long from, long to, long epoch)
      throws IOException {
    DeltaTable table = DeltaTable.forPath(dir.resolve("in").toUri().toString());
    DeltaAppendCommit commit = new DeltaAppendCommit(table, schema, "producer", 10, true);
    commit.open();
    List<Object[]> rows = new ArrayList<>();
    for (long id = from; id < to; id++) {
      Object[] all = {id, "l" + id, id + 0.5, "n" + id};
      rows.add(java.util.Arrays.copyOf(all, schema.columns().size()));
    }
    commit.commit(epoch, new DeltaTableWriter(table, schema, true).write(rows));
  }

  /** A metaData commit renaming {@code label} to {@code title}, as ALTER TABLE RENAME COLUMN. */
  private void renameLabel(long version) throws IOException {
    Path log = dir.resolve("in/_delta_log");
    ObjectNode metaData = null;
    for (long v = 0; v < version; v++) {
      for (String line : Files.readAllLines(log.resolve(String.format("%020d.json", v)))) {
        JsonNode action = MAPPER.readTree(line);
        if (action.has("metaData")) {
          metaData = (ObjectNode) action.get("metaData");
        }
      }
    }
    assertThat(metaData).isNotNull();
    metaData.put(
        "schemaString", metaData.get("schemaString").asText().replace("\"label\"", "\"title\""));
    ObjectNode action = MAPPER.createObjectNode();
    action.set("metaData", metaData);
    Files.writeString(
        log.resolve(String.format("%020d.json", version)),
        MAPPER.writeValueAsString(action) + "\n");
  }

  @Test
  void theEvolvedBronzeStreamsThroughAnAddedAndARenamedColumn() throws Exception {
    appendEvolving(NARROW, 0, 5, 1); // version 0 creates the table with column mapping
    long version;
    try (CapturedLogs logs = CapturedLogs.of("io.lakestream.runtime")) {
      StreamingQuery query =
          start(Map.of("pollInterval", "100ms", "allowSourceColumnRename", "true"));
      String firstRun = query.runId();
      awaitRows(5);
      appendEvolving(WIDE, 5, 8, 2); // mergeSchema adds amount, then appends
      awaitRows(8);
      String secondRun = query.runId();
      assertThat(secondRun).as("rebuilt for the added column").isNotEqualTo(firstRun);
      version =
          DeltaTable.forPath(dir.resolve("in").toUri().toString())
              .latestSnapshot()
              .orElseThrow()
              .getVersion();
      renameLabel(version + 1);
      append(RENAMED, 8, 10, 3);
      awaitRows(10);
      assertThat(query.runId()).as("rebuilt for the renamed column").isNotEqualTo(secondRun);
      query.stop();
      assertThat(logs.lines()).anyMatch(l -> l.contains("input schema changed (columns [label])"));
    }
    List<String> expected = new ArrayList<>();
    for (long id = 0; id < 10; id++) {
      expected.add(id + "|l" + id + (id < 5 ? "" : "|" + (id + 0.5)));
    }
    assertThat(out()).containsExactlyInAnyOrderElementsOf(expected.stream().sorted().toList());
  }

  /**
   * The change data feed of a table that evolved before the query started (mergeSchema added a
   * column, a column was renamed) streams from version 0 with the latest schema, reading the older
   * versions' files by physical name; a column added while it runs restarts it by itself, and every
   * change row arrives once.
   */
  @Test
  void theChangeFeedOfAnEvolvedTableStreamsFromItsFirstVersionAndFollowsAnAddedColumn()
      throws Exception {
    appendEvolving(NARROW_CDF, 0, 3, 1);
    appendEvolving(WIDE_CDF, 3, 5, 2);
    DeltaTable table = DeltaTable.forPath(dir.resolve("in").toUri().toString());
    renameLabel(table.latestSnapshot().orElseThrow().getVersion() + 1);
    Map<String, String> options =
        Map.of("pollInterval", "100ms", "startingVersion", "0", "allowSourceColumnRename", "true");
    StreamingQuery query =
        start(
            q ->
                DeltaCdfSourceBuilder.forTable(dir.resolve("in").toUri().toString())
                    .name("delta-in")
                    .options(options)
                    .query(q)
                    .build(),
            DeltaSourceSchemaChangeITCase::encodeChange);
    String firstRun = query.runId();
    awaitRows(5);
    appendEvolving(NOTED_CDF, 5, 7, 3);
    awaitRows(7);
    assertThat(query.runId()).as("rebuilt for the added column").isNotEqualTo(firstRun);
    query.stop();
    List<String> expected = new ArrayList<>();
    for (long id = 0; id < 7; id++) {
      expected.add(id + "|l" + id + "|" + (id < 3 ? "null" : id + 0.5) + "|insert");
    }
    assertThat(out()).containsExactlyInAnyOrderElementsOf(expected.stream().sorted().toList());
  }

  /**
   * A Delta source started at version 0 of a table whose schema changed since (a column added, one
   * renamed) reads the whole history with the latest schema instead of stopping at the old
   * versions' metadata.
   */
  @Test
  void aStreamStartedAfterTheTableEvolvedReadsItsHistoryWithTheLatestSchema() throws Exception {
    appendEvolving(NARROW, 0, 3, 1);
    appendEvolving(WIDE, 3, 5, 2);
    DeltaTable table = DeltaTable.forPath(dir.resolve("in").toUri().toString());
    renameLabel(table.latestSnapshot().orElseThrow().getVersion() + 1);
    StreamingQuery query =
        start(
            Map.of(
                "pollInterval",
                "100ms",
                "startingVersion",
                "0",
                "allowSourceColumnRename",
                "true"));
    String run = query.runId();
    awaitRows(5);
    assertThat(query.runId()).as("no restart").isEqualTo(run);
    query.stop();
    assertThat(out())
        .containsExactlyInAnyOrder("0|l0|null", "1|l1|null", "2|l2|null", "3|l3|3.5", "4|l4|4.5");
  }

  /** id, title, amount and the change type of a change row (the columns before it vary). */
  private static String encodeChange(Row row) {
    return row.getField(0)
        + "|"
        + row.getField(1)
        + "|"
        + row.getField(2)
        + "|"
        + row.getField(row.getArity() - 3);
  }
}
