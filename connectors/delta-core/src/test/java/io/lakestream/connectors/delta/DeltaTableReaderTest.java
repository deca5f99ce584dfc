package io.lakestream.connectors.delta;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.connectors.sink.EpochCommitOutcome.Status;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DeltaTableReaderTest {
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
      Instant.parse("2024-05-01T10:00:00.123456Z").plusSeconds(id),
      LocalDate.parse(day)
    };
  }

  /** A row with null in every nullable column. */
  private static Object[] nulls(long id) {
    Object[] row = new Object[8];
    row[0] = id;
    return row;
  }

  private static List<Object[]> orders(long from, long to, String day) {
    List<Object[]> rows = new ArrayList<>();
    for (long id = from; id < to; id++) {
      rows.add(order(id, day));
    }
    return rows;
  }

  private static List<List<Object>> sorted(List<Object[]> rows) {
    return rows.stream()
        .sorted(Comparator.comparingLong(r -> (Long) r[0]))
        .map(r -> Arrays.asList(r))
        .toList();
  }

  private DeltaTable table() {
    return DeltaTable.forPath(dir.resolve("t").toString());
  }

  /** Commits epochs 1, 2, 3 of app "app" (ids [0,4), [4,7) + a null row, [10,12)). */
  private List<List<Object[]>> writeThreeEpochs(DeltaTableSchema schema) throws IOException {
    DeltaTable table = table();
    DeltaTableWriter writer = new DeltaTableWriter(table, schema);
    DeltaAppendCommit commit = new DeltaAppendCommit(table, schema, "app");
    commit.open();
    List<Object[]> e2 = new ArrayList<>(orders(4, 7, "2024-05-02"));
    e2.add(nulls(99));
    List<List<Object[]>> epochs =
        List.of(orders(0, 4, "2024-05-01"), e2, orders(10, 12, "2024-05-03"));
    for (int i = 0; i < epochs.size(); i++) {
      assertThat(commit.commit(i + 1, writer.write(epochs.get(i))).status())
          .isEqualTo(Status.COMMITTED);
    }
    return epochs;
  }

  @Test
  void readsEveryVersionBackExactly() throws IOException {
    List<List<Object[]>> epochs = writeThreeEpochs(orders().build());
    DeltaTableReader reader = new DeltaTableReader(table());
    // version 0 is the table's creation, epoch N is version N
    assertThat(reader.latestVersion()).isEqualTo(3);
    assertThat(reader.columnNames())
        .containsExactly("id", "customer", "qty", "price", "paid", "amount", "ts", "day");

    List<Object[]> all = new ArrayList<>();
    epochs.forEach(all::addAll);
    List<Object[]> latest = reader.readLatest();
    assertThat(sorted(latest)).isEqualTo(sorted(all));
    Object[] first = latest.stream().filter(r -> (Long) r[0] == 1L).findFirst().orElseThrow();
    assertThat(first)
        .containsExactly(
            1L,
            "c1",
            1,
            1.5,
            false,
            new BigDecimal("1.25"),
            Instant.parse("2024-05-01T10:00:01.123456Z"),
            LocalDate.parse("2024-05-01"));
    assertThat(latest)
        .filteredOn(r -> (Long) r[0] == 99L)
        .singleElement()
        .satisfies(r -> assertThat(Arrays.copyOfRange(r, 1, 8)).containsOnlyNulls());

    assertThat(reader.readVersion(0)).isEmpty();
    assertThat(sorted(reader.readVersion(1))).isEqualTo(sorted(epochs.get(0)));
    List<Object[]> upTo2 = new ArrayList<>(epochs.get(0));
    upTo2.addAll(epochs.get(1));
    assertThat(sorted(reader.readVersion(2))).isEqualTo(sorted(upTo2));

    assertThat(reader.count()).isEqualTo(all.size());
    assertThat(reader.countVersion(1)).isEqualTo(epochs.get(0).size());
    assertThat(reader.countVersion(0)).isZero();
  }

  @Test
  void readsPartitionValuesBackAtTheirDeclaredPosition() throws IOException {
    DeltaTableSchema schema = orders().partitionedBy("day", "customer").build();
    List<List<Object[]>> epochs = writeThreeEpochs(schema);
    // and a null partition value
    DeltaTable table = table();
    Object[] nullDay = order(50, "2024-05-09");
    nullDay[7] = null;
    new DeltaAppendCommit(table, schema, "app")
        .commit(4, new DeltaTableWriter(table, schema).write(List.<Object[]>of(nullDay)));

    List<Object[]> all = new ArrayList<>();
    epochs.forEach(all::addAll);
    all.add(nullDay);
    DeltaTableReader reader = new DeltaTableReader(table);
    assertThat(sorted(reader.readLatest())).isEqualTo(sorted(all));
    assertThat(sorted(reader.readVersion(1))).isEqualTo(sorted(epochs.get(0)));
    assertThat(reader.count()).isEqualTo(all.size());
  }

  @Test
  void travelsInTimeByCommitTimestamp() throws Exception {
    DeltaTable table = table();
    DeltaTableSchema schema = orders().build();
    DeltaTableWriter writer = new DeltaTableWriter(table, schema);
    DeltaAppendCommit commit = new DeltaAppendCommit(table, schema, "app");
    commit.open();
    List<Instant> committedAt = new ArrayList<>();
    for (int epoch = 1; epoch <= 3; epoch++) {
      Thread.sleep(20); // distinct commit times
      commit.commit(epoch, writer.write(orders(epoch * 10, epoch * 10 + epoch, "2024-05-01")));
      committedAt.add(
          Instant.ofEpochMilli(
              table
                  .kernelTable()
                  .getSnapshotAsOfVersion(table.engine(), epoch)
                  .getTimestamp(table.engine())));
    }
    DeltaTableReader reader = new DeltaTableReader(table);
    assertThat(reader.readAsOfTimestamp(committedAt.get(0))).hasSize(1);
    assertThat(reader.readAsOfTimestamp(committedAt.get(1).minusMillis(1))).hasSize(1);
    assertThat(reader.readAsOfTimestamp(committedAt.get(1))).hasSize(3);
    assertThat(reader.readAsOfTimestamp(committedAt.get(2))).hasSize(6);

    assertThatThrownBy(() -> reader.readAsOfTimestamp(Instant.parse("2001-01-01T00:00:00Z")))
        .isInstanceOf(DeltaTableException.class)
        .hasMessageContaining(table.path())
        .hasMessageContaining("2001-01-01T00:00:00Z")
        .hasMessageContaining("available commits are from")
        .hasMessageContaining("(version 0)")
        .hasMessageContaining(committedAt.get(2) + " (version 3)")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("DELTA_VERSION_NOT_FOUND");
    assertThatThrownBy(() -> reader.readAsOfTimestamp(committedAt.get(2).plusSeconds(3600)))
        .isInstanceOf(DeltaTableException.class)
        .hasMessageContaining("(version 3)")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("DELTA_VERSION_NOT_FOUND");
  }

  @Test
  void aVersionOutsideTheHistoryNamesTheAvailableRange() throws IOException {
    writeThreeEpochs(orders().build());
    DeltaTableReader reader = new DeltaTableReader(table());
    assertThatThrownBy(() -> reader.readVersion(7))
        .isInstanceOf(DeltaTableException.class)
        .hasMessageContaining("Version 7")
        .hasMessageContaining(table().path())
        .hasMessageContaining("available versions are 0 to 3")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("DELTA_VERSION_NOT_FOUND");
    assertThatThrownBy(() -> reader.readVersion(-1))
        .isInstanceOf(DeltaTableException.class)
        .hasMessageContaining("available versions are 0 to 3")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("DELTA_VERSION_NOT_FOUND");
    assertThatThrownBy(() -> reader.countVersion(4))
        .isInstanceOf(DeltaTableException.class)
        .hasMessageContaining("available versions are 0 to 3")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("DELTA_VERSION_NOT_FOUND");
  }

  @Test
  void afterLogCleanupTheRangeStartsAtTheOldestCheckpoint() throws IOException {
    DeltaTableSchema schema = orders().property("delta.checkpointInterval", "2").build();
    DeltaTable table = table();
    DeltaTableWriter writer = new DeltaTableWriter(table, schema);
    DeltaAppendCommit commit = new DeltaAppendCommit(table, schema, "app");
    commit.open();
    for (int epoch = 1; epoch <= 4; epoch++) {
      commit.commit(epoch, writer.write(orders(epoch * 10, epoch * 10 + 2, "2024-05-01")));
    }
    Path log = dir.resolve("t/_delta_log");
    for (int v = 0; v < 2; v++) {
      Files.deleteIfExists(log.resolve(String.format("%020d.json", v)));
      Files.deleteIfExists(log.resolve(String.format("%020d.crc", v)));
    }
    DeltaTableReader reader = new DeltaTableReader(table);
    assertThat(reader.readVersion(2)).hasSize(4);
    assertThat(reader.readLatest()).hasSize(8);
    assertThatThrownBy(() -> reader.readVersion(1))
        .isInstanceOf(DeltaTableException.class)
        .hasMessageContaining("available versions are 2 to 4")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("DELTA_VERSION_NOT_FOUND");
    assertThatThrownBy(() -> reader.readAsOfTimestamp(Instant.parse("2001-01-01T00:00:00Z")))
        .isInstanceOf(DeltaTableException.class)
        .hasMessageContaining("(version 2)")
        .hasMessageContaining("(version 4)")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("DELTA_VERSION_NOT_FOUND");
  }

  @Test
  void countsFilesWithoutStatisticsByReadingThem() throws IOException {
    DeltaTableSchema schema = orders().build();
    DeltaTable table = table();
    DeltaTableWriter writer = new DeltaTableWriter(table, schema);
    DeltaAppendCommit commit = new DeltaAppendCommit(table, schema, "app");
    commit.open();
    commit.commit(1, writer.write(orders(0, 5, "2024-05-01")));
    List<DeltaWrittenFile> noStats = new ArrayList<>();
    for (DeltaWrittenFile f : writer.write(orders(5, 12, "2024-05-01"))) {
      noStats.add(
          new DeltaWrittenFile(
              f.path(), f.size(), f.modificationTime(), f.partitionValues(), "", f.numRecords()));
    }
    commit.commit(2, noStats);
    assertThat(
            Files.readString(dir.resolve("t/_delta_log").resolve(String.format("%020d.json", 2))))
        .doesNotContain("numRecords");
    DeltaTableReader reader = new DeltaTableReader(table);
    assertThat(reader.count()).isEqualTo(12);
    assertThat(reader.readLatest()).hasSize(12);
  }

  @Test
  void aMissingTableIsAClearError() {
    DeltaTableReader reader = new DeltaTableReader(table());
    assertThatThrownBy(reader::readLatest)
        .isInstanceOf(DeltaTableException.class)
        .hasMessageContaining("No Delta table at " + table().path())
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("DELTA_TABLE_NOT_FOUND");
    assertThatThrownBy(() -> reader.readVersion(0))
        .isInstanceOf(DeltaTableException.class)
        .hasMessageContaining("No Delta table at")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("DELTA_TABLE_NOT_FOUND");
  }
}
