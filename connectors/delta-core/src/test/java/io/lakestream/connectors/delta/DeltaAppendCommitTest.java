package io.lakestream.connectors.delta;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.connectors.sink.EpochCommitOutcome;
import io.lakestream.connectors.sink.EpochCommitOutcome.Status;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DeltaAppendCommitTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  private static DeltaTableSchema.Builder orders() {
    return DeltaTableSchema.builder()
        .column("id", ColumnType.LONG, false)
        .column("customer", ColumnType.STRING)
        .column("qty", ColumnType.INT)
        .column("price", ColumnType.DOUBLE)
        .column("paid", ColumnType.BOOLEAN)
        .column("amount", ColumnType.decimal(10, 2))
        .column("ts", ColumnType.TIMESTAMP)
        .column("day", ColumnType.DATE);
  }

  private static Object[] order(long id, String day) {
    return new Object[] {
      id,
      "c" + (id % 3),
      (int) id,
      id * 1.5,
      id % 2 == 0,
      new BigDecimal(id + ".25"),
      Instant.parse("2024-05-01T10:00:00Z").plusSeconds(id),
      LocalDate.parse(day)
    };
  }

  private static List<Object[]> orders(long from, long to, String day) {
    List<Object[]> rows = new ArrayList<>();
    for (long id = from; id < to; id++) {
      rows.add(order(id, day));
    }
    return rows;
  }

  private String table() {
    return dir.resolve("t").toString();
  }

  /** Every action of every commit JSON, as (version, action) pairs, in version order. */
  private List<JsonNode> commit(long version) throws IOException {
    Path file = dir.resolve("t/_delta_log").resolve(String.format("%020d.json", version));
    List<JsonNode> actions = new ArrayList<>();
    for (String line : Files.readAllLines(file)) {
      actions.add(JSON.readTree(line));
    }
    return actions;
  }

  private long latestVersion() throws IOException {
    try (Stream<Path> files = Files.list(dir.resolve("t/_delta_log"))) {
      return files
          .map(p -> p.getFileName().toString())
          .filter(n -> n.matches("\\d{20}\\.json"))
          .mapToLong(n -> Long.parseLong(n.substring(0, 20)))
          .max()
          .orElse(-1);
    }
  }

  private long recordsInTable() throws IOException {
    long total = 0;
    for (long v = 0; v <= latestVersion(); v++) {
      for (JsonNode a : commit(v)) {
        if (a.has("add")) {
          total += JSON.readTree(a.get("add").get("stats").asText()).get("numRecords").asLong();
        }
      }
    }
    return total;
  }

  @Test
  void createsAppendsAndSkipsAReplayedEpoch() throws IOException {
    DeltaTableSchema schema = orders().build();
    DeltaTable table = DeltaTable.forPath(table());
    DeltaTableWriter writer = new DeltaTableWriter(table, schema);
    List<DeltaWrittenFile> files = writer.write(orders(0, 10, "2024-05-01"));
    assertThat(files).hasSize(1);
    assertThat(files.get(0).numRecords()).isEqualTo(10);
    assertThat(files.get(0).statsJson()).contains("\"numRecords\":10").contains("minValues");

    DeltaAppendCommit commit = new DeltaAppendCommit(table, schema, "app-1");
    commit.open();
    EpochCommitOutcome first = commit.commit(1, files);
    assertThat(first.status()).isEqualTo(Status.COMMITTED);
    assertThat(first.detail()).isEqualTo("version=1");
    assertThat(first.numRows()).isEqualTo(10);

    EpochCommitOutcome replay = commit.commit(1, files);
    assertThat(replay.status()).isEqualTo(Status.ALREADY_COMMITTED);
    assertThat(latestVersion()).isEqualTo(1);
    assertThat(recordsInTable()).isEqualTo(10);

    List<JsonNode> v1 = commit(1);
    assertThat(v1)
        .filteredOn(a -> a.has("txn"))
        .singleElement()
        .satisfies(
            a -> {
              assertThat(a.get("txn").get("appId").asText()).isEqualTo("app-1");
              assertThat(a.get("txn").get("version").asLong()).isEqualTo(1);
            });
    assertThat(commit.commit(2, List.of()).status()).isEqualTo(Status.EMPTY);
    assertThat(latestVersion()).isEqualTo(1);
  }

  @Test
  void theHistoryRecordsWhatSparksStreamingWritesRecord() throws IOException {
    DeltaTableSchema schema = orders().build();
    DeltaTable table = DeltaTable.forPath(table());
    DeltaAppendCommit commit = new DeltaAppendCommit(table, schema, "app-1");
    commit.open();
    List<DeltaWrittenFile> files =
        new DeltaTableWriter(table, schema).write(orders(0, 7, "2024-05-01"));
    commit.commit(4, files);

    JsonNode info = commit(1).get(0).get("commitInfo");
    assertThat(info.get("operation").asText()).isEqualTo("STREAMING UPDATE");
    assertThat(info.get("operationParameters"))
        .isEqualTo(
            JSON.readTree("{\"outputMode\":\"Append\",\"queryId\":\"app-1\",\"epochId\":\"4\"}"));
    assertThat(info.get("operationMetrics").get("numOutputRows").asText()).isEqualTo("7");
    assertThat(info.get("operationMetrics").get("numAddedFiles").asText()).isEqualTo("1");
    assertThat(info.get("operationMetrics").get("numRemovedFiles").asText()).isEqualTo("0");
    assertThat(info.get("operationMetrics").get("numOutputBytes").asLong())
        .isEqualTo(files.get(0).size());
    assertThat(info.get("timestamp").asLong()).isPositive();
    assertThat(commit(1)).filteredOn(a -> a.has("commitInfo")).hasSize(1);
  }

  @Test
  void twoEpochsAreTwoVersionsAndARoundTripOfTheFileDescriptionWorks() throws IOException {
    DeltaTableSchema schema = orders().build();
    DeltaTable table = DeltaTable.forPath(table());
    DeltaTableWriter writer = new DeltaTableWriter(table, schema);
    DeltaAppendCommit commit = new DeltaAppendCommit(table, schema, "app-1");
    commit.open();
    List<DeltaWrittenFile> e1 = writer.write(orders(0, 5, "2024-05-01"));
    List<DeltaWrittenFile> e2 = new ArrayList<>();
    for (DeltaWrittenFile f : writer.write(orders(5, 12, "2024-05-02"))) {
      e2.add(DeltaWrittenFile.fromBytes(DeltaWrittenFile.SERIAL_VERSION, f.toBytes()));
    }
    assertThat(commit.commit(7, e1).detail()).isEqualTo("version=1");
    assertThat(commit.commit(8, e2).detail()).isEqualTo("version=2");
    assertThat(commit.commit(7, e1).status()).isEqualTo(Status.ALREADY_COMMITTED);
    assertThat(latestVersion()).isEqualTo(2);
    assertThat(recordsInTable()).isEqualTo(12);
    assertThat(
            table
                .latestSnapshot()
                .orElseThrow()
                .getLatestTransactionVersion(table.engine(), "app-1"))
        .contains(8L);
  }

  @Test
  void refusesATableWithAnotherSchema() throws IOException {
    DeltaTable table = DeltaTable.forPath(table());
    table.ensureExists(orders().build());
    DeltaTableSchema other =
        DeltaTableSchema.builder()
            .column("id", ColumnType.STRING, false)
            .column("note", ColumnType.STRING)
            .build();
    assertThatThrownBy(
            () ->
                new DeltaTableWriter(table, other)
                    .write(List.<Object[]>of(new Object[] {"a", "b"})))
        .isInstanceOf(DeltaSchemaMismatchException.class)
        .hasMessageContaining(table())
        .hasMessageContaining("id long NOT NULL")
        .hasMessageContaining("id string NOT NULL")
        .hasMessageContaining("write to a new table path")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("DELTA_UNSUPPORTED_SCHEMA_CHANGE");
    assertThatThrownBy(
            () -> new DeltaAppendCommit(table, orders().partitionedBy("day").build(), "a").open())
        .isInstanceOf(DeltaSchemaMismatchException.class)
        .hasMessageContaining("partitioned by [day]")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("DELTA_UNSUPPORTED_SCHEMA_CHANGE");
  }

  @Test
  void rejectsRowsThatDoNotFitWithAClearMessage() throws IOException {
    DeltaTableWriter writer = new DeltaTableWriter(DeltaTable.forPath(table()), orders().build());
    Object[] bad = order(1, "2024-05-01");
    bad[0] = null;
    assertThatThrownBy(() -> writer.write(List.<Object[]>of(order(0, "2024-05-01"), bad)))
        .isInstanceOf(LakestreamException.class)
        .hasMessageContaining("Row 1")
        .hasMessageContaining("'id' is NOT NULL")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("DELTA_INVALID_ROW");
    Object[] wrongType = order(1, "2024-05-01");
    wrongType[2] = "three";
    assertThatThrownBy(() -> writer.write(List.<Object[]>of(wrongType)))
        .hasMessageContaining("'qty' is int but the row holds a java.lang.String")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("DELTA_INVALID_ROW");
  }

  @Test
  void writesOneFilePerPartitionIntoPartitionDirectories() throws IOException {
    DeltaTableSchema schema = orders().partitionedBy("day").build();
    DeltaTable table = DeltaTable.forPath(table());
    List<Object[]> rows = new ArrayList<>(orders(0, 4, "2024-05-01"));
    rows.addAll(orders(4, 10, "2024-05-02"));
    Object[] nullDay = order(10, "2024-05-03");
    nullDay[7] = null;
    rows.add(nullDay);
    List<DeltaWrittenFile> files = new DeltaTableWriter(table, schema).write(rows);
    assertThat(files).hasSize(3);
    assertThat(files)
        .extracting(f -> f.partitionValues().get("day"))
        .containsExactly("2024-05-01", "2024-05-02", null);
    assertThat(files.get(0).path()).contains("day=2024-05-01");
    DeltaAppendCommit commit = new DeltaAppendCommit(table, schema, "app");
    commit.open();
    assertThat(commit.commit(1, files).numRows()).isEqualTo(11);
    List<JsonNode> adds =
        commit(1).stream().filter(a -> a.has("add")).map(a -> a.get("add")).toList();
    assertThat(adds)
        .extracting(
            a ->
                a.get("partitionValues").get("day").isNull()
                    ? null
                    : a.get("partitionValues").get("day").asText())
        .containsExactlyInAnyOrder("2024-05-01", "2024-05-02", null);
    assertThat(adds).allSatisfy(a -> assertThat(a.get("path").asText()).doesNotStartWith("file:"));
    assertThat(
            commit(0).stream()
                .filter(a -> a.has("metaData"))
                .findFirst()
                .orElseThrow()
                .get("metaData")
                .get("partitionColumns")
                .toString())
        .isEqualTo("[\"day\"]");
  }

  @Test
  void setsTheChangeDataFeedPropertyOnCreate() throws IOException {
    DeltaTableSchema schema = orders().property("delta.enableChangeDataFeed", "true").build();
    DeltaTable table = DeltaTable.forPath(table());
    table.ensureExists(schema);
    assertThat(table.latestSnapshot().orElseThrow().getTableProperties())
        .containsEntry("delta.enableChangeDataFeed", "true");
    JsonNode protocol =
        commit(0).stream().filter(a -> a.has("protocol")).findFirst().orElseThrow().get("protocol");
    assertThat(protocol.toString())
        .satisfiesAnyOf(
            p -> assertThat(p).contains("changeDataFeed"),
            p -> assertThat(protocol.get("minWriterVersion").asInt()).isBetween(4, 6));
    DeltaAppendCommit commit = new DeltaAppendCommit(table, schema, "app");
    assertThat(
            commit
                .commit(1, new DeltaTableWriter(table, schema).write(orders(0, 3, "2024-05-01")))
                .status())
        .isEqualTo(Status.COMMITTED);
  }

  @Test
  void writesALogCheckpointEveryCheckpointIntervalVersions() throws IOException {
    DeltaTableSchema schema = orders().property("delta.checkpointInterval", "2").build();
    DeltaTable table = DeltaTable.forPath(table());
    DeltaTableWriter writer = new DeltaTableWriter(table, schema);
    DeltaAppendCommit commit = new DeltaAppendCommit(table, schema, "app");
    commit.open();
    for (int epoch = 1; epoch <= 4; epoch++) {
      commit.commit(epoch, writer.write(orders(epoch * 10, epoch * 10 + 3, "2024-05-01")));
    }
    Path log = dir.resolve("t/_delta_log");
    assertThat(log.resolve(String.format("%020d.checkpoint.parquet", 2))).exists();
    assertThat(log.resolve(String.format("%020d.checkpoint.parquet", 4))).exists();
    assertThat(Files.readString(log.resolve("_last_checkpoint"))).contains("\"version\":4");
    // the txn survives the checkpoint
    DeltaAppendCommit again = new DeltaAppendCommit(table, schema, "app");
    assertThat(again.commit(4, writer.write(orders(0, 1, "2024-05-01"))).status())
        .isEqualTo(Status.ALREADY_COMMITTED);
    assertThat(recordsInTable()).isEqualTo(12);
  }

  @Test
  void concurrentWritersWithDifferentAppIdsAllLand() throws Exception {
    DeltaTableSchema schema = orders().build();
    DeltaTable table = DeltaTable.forPath(table());
    table.ensureExists(schema);
    int epochs = 6;
    int rowsPerEpoch = 5;
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      List<Future<List<EpochCommitOutcome>>> futures = new ArrayList<>();
      for (int w = 0; w < 2; w++) {
        int writerId = w;
        futures.add(
            pool.submit(
                () -> {
                  DeltaTable own = DeltaTable.forPath(table());
                  DeltaTableWriter writer = new DeltaTableWriter(own, schema);
                  DeltaAppendCommit commit =
                      new DeltaAppendCommit(own, schema, "writer-" + writerId);
                  List<EpochCommitOutcome> outcomes = new ArrayList<>();
                  for (int epoch = 1; epoch <= epochs; epoch++) {
                    long base = writerId * 1000L + epoch * 10L;
                    outcomes.add(
                        commit.commit(
                            epoch, writer.write(orders(base, base + rowsPerEpoch, "2024-05-01"))));
                  }
                  return outcomes;
                }));
      }
      List<String> versions = new ArrayList<>();
      for (Future<List<EpochCommitOutcome>> f : futures) {
        for (EpochCommitOutcome o : f.get()) {
          assertThat(o.status()).isEqualTo(Status.COMMITTED);
          versions.add(o.detail());
        }
      }
      assertThat(versions).doesNotHaveDuplicates().hasSize(2 * epochs);
    } finally {
      pool.shutdownNow();
    }
    assertThat(latestVersion()).isEqualTo(2 * epochs);
    assertThat(recordsInTable()).isEqualTo(2L * epochs * rowsPerEpoch);
    var snapshot = table.latestSnapshot().orElseThrow();
    assertThat(snapshot.getLatestTransactionVersion(table.engine(), "writer-0"))
        .contains((long) epochs);
    assertThat(snapshot.getLatestTransactionVersion(table.engine(), "writer-1"))
        .contains((long) epochs);
  }
}
