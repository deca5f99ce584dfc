package io.lakestream.connectors.delta;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.delta.filter.DeltaFileSkipping;
import io.lakestream.connectors.delta.filter.DeltaFilter;
import io.lakestream.connectors.delta.kernel.KernelSchemaJson;
import io.lakestream.connectors.schema.ColumnType;
import java.io.IOException;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DeltaTableChangesTest {
  @TempDir Path dir;

  private static final DeltaTableSchema SCHEMA =
      DeltaTableSchema.builder()
          .column("id", ColumnType.LONG, false)
          .column("label", ColumnType.STRING)
          .column("day", ColumnType.DATE)
          .partitionedBy("day")
          .build();

  private DeltaTable table;
  private DeltaTableWriter writer;
  private DeltaAppendCommit commit;

  private void open() throws IOException {
    table = DeltaTable.forPath(dir.resolve("t").toUri().toString());
    writer = new DeltaTableWriter(table, SCHEMA);
    commit = new DeltaAppendCommit(table, SCHEMA, "app");
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

  private DeltaTableChanges changes(boolean skipChangeCommits, boolean ignoreDeletes)
      throws IOException {
    String schema = table.latestSnapshot().orElseThrow().getSchema().toJson();
    return new DeltaTableChanges(table, schema, skipChangeCommits, ignoreDeletes);
  }

  private List<Long> ids(List<DeltaAddedFile> files) throws IOException {
    DeltaDataFileReader reader =
        new DeltaDataFileReader(
            table, table.latestSnapshot().orElseThrow().getSchema().toJson(), List.of("day"));
    List<Long> ids = new ArrayList<>();
    for (DeltaAddedFile file : files) {
      try (DeltaDataFileReader.Rows rows = reader.open(file)) {
        while (rows.hasNext()) {
          Object[] row = rows.next();
          assertThat(row[1]).isEqualTo("row-" + row[0]);
          assertThat(row[2]).isEqualTo(LocalDate.of(2024, 5, 1 + (int) ((Long) row[0] % 2)));
          ids.add((Long) row[0]);
        }
      }
    }
    ids.sort(null);
    return ids;
  }

  private static List<Long> range(long from, long to) {
    List<Long> out = new ArrayList<>();
    for (long i = from; i < to; i++) {
      out.add(i);
    }
    return out;
  }

  @Test
  void snapshotAndVersionFilesCoverEveryRowOnceInAStableOrder() throws IOException {
    open();
    assertThat(append(1, 0, 10)).isEqualTo(1);
    assertThat(append(2, 10, 20)).isEqualTo(2);
    assertThat(append(3, 20, 25)).isEqualTo(3);
    DeltaTableChanges changes = changes(false, false);

    List<DeltaAddedFile> snapshot = changes.snapshotFiles(2);
    assertThat(snapshot).hasSize(4); // two partitions per version
    assertThat(snapshot).extracting(DeltaAddedFile::index).containsExactly(0, 1, 2, 3);
    assertThat(snapshot).allSatisfy(f -> assertThat(f.initialSnapshot()).isTrue());
    assertThat(changes.snapshotFiles(2)).isEqualTo(snapshot); // deterministic for resuming
    assertThat(ids(snapshot)).isEqualTo(range(0, 20));

    List<DeltaAddedFile> later = changes.versionFiles(3, 3);
    assertThat(later).extracting(DeltaAddedFile::positionId).containsExactly("v-3-0", "v-3-1");
    assertThat(later.get(0).partitionValues()).containsKey("day");
    assertThat(later.stream().mapToLong(DeltaAddedFile::numRecords).sum()).isEqualTo(5);
    assertThat(snapshot.stream().mapToLong(DeltaAddedFile::numRecords).sum()).isEqualTo(20);
    assertThat(ids(later)).isEqualTo(range(20, 25));
    assertThat(ids(changes.versionFiles(1, 3))).isEqualTo(range(0, 25));
    assertThat(changes.versionFiles(4, 3)).isEmpty();
  }

  @Test
  void aFilterLeavesOutTheFilesThatCannotMatchOfTheSnapshotAndOfLaterVersionsKeepingTheirIndex()
      throws IOException {
    open();
    append(1, 0, 10);
    append(2, 10, 20);
    append(3, 20, 25);
    append(4, 25, 30);
    String schema = table.latestSnapshot().orElseThrow().getSchema().toJson();
    DeltaTableChanges all = changes(false, false);
    DeltaFilter filter =
        DeltaFilter.and(
            DeltaFilter.between("id", 12L, 26L),
            DeltaFilter.equalTo("day", LocalDate.of(2024, 5, 2)));
    DeltaTableChanges filtered =
        new DeltaTableChanges(
            table,
            schema,
            false,
            false,
            DeltaFileSkipping.of(filter, KernelSchemaJson.parse(schema), List.of("day"), "t"));

    DeltaTableChanges.Listing snapshot = filtered.listSnapshot(2);
    // version 2's file of the second day (ids 11, 13, .., 19); version 1's ids end at 9
    assertThat(snapshot.skipped()).isEqualTo(3);
    assertThat(snapshot.files()).hasSize(1);
    assertThat(all.snapshotFiles(2)).contains(snapshot.files().get(0)); // same index as unfiltered
    assertThat(ids(snapshot.files())).isEqualTo(List.of(11L, 13L, 15L, 17L, 19L));

    DeltaTableChanges.Listing later = filtered.listVersions(3, 4);
    assertThat(later.skipped()).isEqualTo(2);
    assertThat(later.files())
        .containsExactlyElementsOf(
            all.versionFiles(3, 4).stream()
                .filter(f -> f.partitionValues().get("day").equals("2024-05-02"))
                .toList());
    assertThat(ids(later.files())).isEqualTo(List.of(21L, 23L, 25L, 27L, 29L));
  }

  @Test
  void compactionIsSkippedSilently() throws IOException {
    open();
    append(1, 0, 10);
    long compacted = KernelChangeCommits.compact(table, SCHEMA);
    append(2, 10, 12);
    assertThat(new DeltaTableReader(table).readLatest()).hasSize(12);
    DeltaTableChanges changes = changes(false, false);
    assertThat(changes.versionFiles(compacted, compacted)).isEmpty();
    assertThat(ids(changes.versionFiles(1, compacted + 1))).isEqualTo(range(0, 12));
  }

  @Test
  void aChangeCommitFailsNamingTheVersionUnlessSkipped() throws IOException {
    open();
    append(1, 0, 10);
    long deleted = KernelChangeCommits.deleteOneFile(table);
    long after = append(2, 10, 14);

    assertThatThrownBy(() -> changes(false, false).versionFiles(1, after))
        .isInstanceOfSatisfying(
            DeltaChangeCommitException.class, e -> assertThat(e.version()).isEqualTo(deleted))
        .hasMessageContaining("Version " + deleted)
        .hasMessageContaining(table.path())
        .hasMessageContaining("skipChangeCommits=true")
        .hasMessageContaining("startingVersion " + (deleted + 1))
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("DELTA_SOURCE_TABLE_IGNORE_CHANGES");
    // skipChangeCommits: the change version is skipped, the others still read
    assertThat(ids(changes(true, false).versionFiles(1, after))).isEqualTo(range(0, 14));
    // ignoreDeletes: a version that only deletes is skipped too
    assertThat(ids(changes(false, true).versionFiles(1, after))).isEqualTo(range(0, 14));
  }

  @Test
  void aVersionThatChangesTheSchemaFailsNamingIt() throws IOException {
    open();
    long v1 = append(1, 0, 4);
    DeltaTableChanges changes = changes(false, false);
    DeltaTableSchema evolved =
        DeltaTableSchema.builder()
            .column("id", ColumnType.LONG, false)
            .column("label", ColumnType.STRING)
            .column("day", ColumnType.DATE)
            .column("note", ColumnType.STRING)
            .partitionedBy("day")
            .build();
    long latest = table.ensureExists(evolved, true);

    assertThat(latest).isGreaterThan(v1);
    assertThatThrownBy(() -> changes.versionFiles(v1 + 1, latest))
        .isInstanceOf(DeltaTableException.class)
        // the first version after v1 turns on column mapping, which changes the schema's metadata
        .hasMessageStartingWith(
            "[DELTA_SCHEMA_CHANGED] Version "
                + (v1 + 1)
                + " of the Delta table at "
                + table.path()
                + " changes the table")
        .hasMessageContaining("startingVersion");
  }

  @Test
  void aRemovedCommitFileIsAClearError() throws IOException {
    open();
    append(1, 0, 4);
    append(2, 4, 8);
    DeltaTableChanges changes = changes(false, false);
    // log cleanup after a checkpoint at version 2 would remove commit 1 like this
    table.kernelTable().checkpoint(table.engine(), 2);
    java.nio.file.Files.delete(dir.resolve("t/_delta_log/00000000000000000001.json"));
    assertThatThrownBy(() -> changes.versionFiles(1, 2))
        .isInstanceOf(DeltaTableException.class)
        .hasMessageContaining("Cannot read versions 1 to 2")
        .hasMessageContaining("startingVersion")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("DELTA_TABLE_READ_FAILED");
  }

  @SuppressWarnings("unused")
  private static List<List<Object>> sorted(List<Object[]> rows) {
    return rows.stream()
        .sorted(Comparator.comparingLong(r -> (Long) r[0]))
        .map(r -> Arrays.asList(r))
        .toList();
  }
}
