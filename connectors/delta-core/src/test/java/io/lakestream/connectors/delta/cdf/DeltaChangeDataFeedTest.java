package io.lakestream.connectors.delta.cdf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.delta.DeletionVectorCommits;
import io.lakestream.connectors.delta.DeltaAppendCommit;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableException;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.DeltaTableWriter;
import io.lakestream.connectors.delta.KernelChangeCommits;
import io.lakestream.connectors.schema.ColumnType;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The batch change data feed on tables written by lakestream's Delta layer. */
class DeltaChangeDataFeedTest {
  @TempDir Path dir;

  private DeltaTable table;
  private DeltaTableSchema schema;
  private DeltaTableWriter writer;
  private DeltaAppendCommit commit;

  private void open(boolean cdf) throws IOException {
    DeltaTableSchema.Builder builder =
        DeltaTableSchema.builder()
            .column("id", ColumnType.LONG, false)
            .column("label", ColumnType.STRING)
            .column("day", ColumnType.DATE)
            .partitionedBy("day");
    if (cdf) {
      builder.property(DeltaChangeLog.ENABLE_PROPERTY, "true");
      builder.property("delta.enableDeletionVectors", "true");
    }
    schema = builder.build();
    table = DeltaTable.forPath(dir.resolve("t").toUri().toString());
    writer = new DeltaTableWriter(table, schema);
    commit = new DeltaAppendCommit(table, schema, "app");
    commit.open();
  }

  /** Commits ids [from, to) as epoch {@code epoch}, split over two days; returns the version. */
  private long append(long epoch, long from, long to) throws IOException {
    List<Object[]> rows = new ArrayList<>();
    for (long id = from; id < to; id++) {
      rows.add(new Object[] {id, "row-" + id, LocalDate.of(2024, 5, 1 + (int) (id % 2))});
    }
    String detail = commit.commit(epoch, writer.write(rows)).detail();
    return Long.parseLong(detail.substring("version=".length()));
  }

  /** "id/label/day/type/version" per change row, sorted. */
  private static List<String> describe(List<Object[]> rows) {
    List<String> out = new ArrayList<>();
    for (Object[] r : rows) {
      assertThat(r).hasSize(6);
      assertThat(r[5]).isInstanceOf(Instant.class);
      out.add(r[0] + "/" + r[1] + "/" + r[2] + "/" + r[3] + "/" + r[4]);
    }
    out.sort(null);
    return out;
  }

  private static List<String> expected(long from, long to, String type, long version) {
    List<String> out = new ArrayList<>();
    for (long id = from; id < to; id++) {
      out.add(
          id
              + "/row-"
              + id
              + "/"
              + LocalDate.of(2024, 5, 1 + (int) (id % 2))
              + "/"
              + type
              + "/"
              + version);
    }
    return out;
  }

  @Test
  void appendsAreInsertsWithTheirCommitVersionAndTimestamp() throws IOException {
    open(true);
    long v1 = append(1, 0, 10);
    long v2 = append(2, 10, 15);

    List<Object[]> rows = DeltaChangeDataFeed.tableChanges(table, v1, v2);

    List<String> want = new ArrayList<>(expected(0, 10, "insert", v1));
    want.addAll(expected(10, 15, "insert", v2));
    want.sort(null);
    assertThat(describe(rows)).isEqualTo(want);
    assertThat(new DeltaChangeDataFeed(table).columnNames(v2))
        .containsExactly(
            "id", "label", "day", "_change_type", "_commit_version", "_commit_timestamp");
    Instant v2Time =
        Instant.ofEpochMilli(
            new DeltaTableReader(table).snapshotAtVersion(v2).getTimestamp(table.engine()));
    for (Object[] r : rows) {
      if (r[4].equals(v2)) {
        assertThat(r[5]).isEqualTo(v2Time);
      }
    }
    // a sub-range holds only its own versions
    assertThat(describe(DeltaChangeDataFeed.tableChanges(table, v2, v2)))
        .isEqualTo(expected(10, 15, "insert", v2));
  }

  @Test
  void compactionIsIgnoredAndRemovesWithoutCdcAreDeletes() throws IOException {
    open(true);
    long v1 = append(1, 0, 10);
    long compacted = KernelChangeCommits.compact(table, schema);
    long v3 = append(2, 10, 12);

    assertThat(DeltaChangeDataFeed.tableChanges(table, compacted, compacted)).isEmpty();
    List<String> want = new ArrayList<>(expected(0, 10, "insert", v1));
    want.addAll(expected(10, 12, "insert", v3));
    want.sort(null);
    assertThat(describe(DeltaChangeDataFeed.tableChanges(table, v1, v3))).isEqualTo(want);

    // a version that only removes a file (dataChange=true, no cdc): its rows are deletes
    List<Object[]> before = new DeltaTableReader(table).readLatest();
    long deleted = KernelChangeCommits.deleteOneFile(table);
    List<Object[]> after = new DeltaTableReader(table).readLatest();
    List<String> gone = new ArrayList<>();
    for (Object[] r : before) {
      boolean kept = after.stream().anyMatch(a -> a[0].equals(r[0]));
      if (!kept) {
        gone.add(r[0] + "/" + r[1] + "/" + r[2] + "/delete/" + deleted);
      }
    }
    gone.sort(null);
    assertThat(gone).isNotEmpty();
    assertThat(describe(DeltaChangeDataFeed.tableChanges(table, deleted, deleted))).isEqualTo(gone);
  }

  @Test
  void aTableWithoutTheFeedFailsNamingThePropertyAndVersion() throws IOException {
    open(false);
    long v1 = append(1, 0, 3);

    assertThatThrownBy(() -> DeltaChangeDataFeed.tableChanges(table, v1, v1))
        .isInstanceOf(ChangeDataFeedNotEnabledException.class)
        .hasMessageContaining("delta.enableChangeDataFeed")
        .hasMessageContaining("not enabled at version " + v1)
        .satisfies(e -> assertThat(((ChangeDataFeedNotEnabledException) e).version()).isEqualTo(v1))
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("DELTA_CHANGE_DATA_FEED_NOT_ENABLED");
  }

  @Test
  void aVersionWithAnotherSchemaFailsNamingIt() throws IOException {
    open(true);
    long v1 = append(1, 0, 3);
    DeltaChangeLog log =
        new DeltaChangeLog(table, table.latestSnapshot().orElseThrow().getSchema().toJson());
    DeltaTableSchema evolved =
        DeltaTableSchema.builder()
            .column("id", ColumnType.LONG, false)
            .column("label", ColumnType.STRING)
            .column("day", ColumnType.DATE)
            .column("note", ColumnType.STRING)
            .partitionedBy("day")
            .property(DeltaChangeLog.ENABLE_PROPERTY, "true")
            .build();
    long latest = table.ensureExists(evolved, true);

    assertThat(latest).isGreaterThan(v1);
    assertThat(log.changeFiles(v1, v1)).isNotEmpty();
    assertThatThrownBy(() -> log.changeFiles(v1, latest))
        .isInstanceOf(DeltaTableException.class)
        // the first version after v1 turns on column mapping, which changes the schema's metadata
        .hasMessageStartingWith(
            "[DELTA_SCHEMA_CHANGED] Version "
                + (v1 + 1)
                + " of the Delta table at "
                + table.path()
                + " has the schema ")
        .hasMessageContaining("differs from the schema the change data feed is read with");
  }

  @Test
  void versionsOutsideTheHistoryFail() throws IOException {
    open(true);
    long v1 = append(1, 0, 3);

    assertThatThrownBy(() -> DeltaChangeDataFeed.tableChanges(table, v1, v1 + 5))
        .isInstanceOf(DeltaTableException.class)
        .hasMessageContaining("out of range")
        .hasMessageContaining("latest version " + v1)
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("DELTA_INVALID_VERSION_RANGE");
    assertThatThrownBy(() -> DeltaChangeDataFeed.tableChanges(table, v1, v1 - 1))
        .isInstanceOf(DeltaTableException.class)
        .hasMessageContaining("out of range")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("DELTA_INVALID_VERSION_RANGE");
    assertThatThrownBy(() -> DeltaChangeDataFeed.tableChanges(table, -1, v1))
        .isInstanceOf(DeltaTableException.class)
        .hasMessageContaining("out of range")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("DELTA_INVALID_VERSION_RANGE");
  }

  @Test
  void deletionVectorCommitsDeleteTheRowsTheirNewVectorsAdd() throws IOException {
    open(true);
    append(1, 0, 2); // one file per day: ids 0 (day 1) and 1 (day 2)
    long first = DeletionVectorCommits.deleteRows(table, 0); // no cdc files, as Spark's DELETE
    append(2, 2, 8);
    long second = DeletionVectorCommits.deleteRows(table, 0, 1);

    assertThat(describe(DeltaChangeDataFeed.tableChanges(table, first, first)))
        .containsExactlyElementsOf(
            List.of("0/row-0/2024-05-01/delete/" + first, "1/row-1/2024-05-02/delete/" + first));
    // the second DELETE adds row 1 of every file: the old vectors already held row 0
    assertThat(describe(DeltaChangeDataFeed.tableChanges(table, second, second)))
        .containsExactlyInAnyOrderElementsOf(
            List.of(
                "2/row-2/2024-05-01/delete/" + second,
                "3/row-3/2024-05-02/delete/" + second,
                "4/row-4/2024-05-01/delete/" + second,
                "5/row-5/2024-05-02/delete/" + second));
    long latest = table.latestSnapshot().orElseThrow().getVersion();
    List<String> snapshot = new ArrayList<>();
    DeltaChangeLog log = new DeltaChangeLog(table, schemaJson());
    DeltaChangeFileReader reader = new DeltaChangeFileReader(table, schemaJson(), List.of("day"));
    for (DeltaChangeFile file : log.snapshotFiles(latest)) {
      try (DeltaChangeFileReader.Rows rows = reader.open(file)) {
        while (rows.hasNext()) {
          snapshot.add(String.valueOf(rows.next()[0]));
        }
      }
    }
    assertThat(snapshot).as("the snapshot's inserts skip deleted rows").containsExactly("6", "7");
  }

  private String schemaJson() {
    return table.latestSnapshot().orElseThrow().getSchema().toJson();
  }
}
