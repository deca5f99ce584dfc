package io.lakestream.connectors.delta;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.connectors.delta.dv.DeletionVectorStore;
import io.lakestream.connectors.schema.ColumnType;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.net.URI;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Data files with deletion vectors: the streaming file reader and the file listing skip the rows a
 * vector deletes, as Kernel's scan does (which also checks that the vectors written here are read
 * as Delta readers read them).
 */
class DeletionVectorReadTest {
  private static final DeltaTableSchema SCHEMA =
      DeltaTableSchema.builder()
          .column("id", ColumnType.LONG, false)
          .column("label", ColumnType.STRING)
          .column("day", ColumnType.DATE)
          .partitionedBy("day")
          .property("delta.enableDeletionVectors", "true")
          .build();

  @TempDir Path dir;

  private DeltaTable table() throws IOException {
    DeltaTable table = DeltaTable.forPath(dir.resolve("t").toUri().toString());
    DeltaAppendCommit commit = new DeltaAppendCommit(table, SCHEMA, "app");
    commit.open();
    List<Object[]> rows = new ArrayList<>();
    for (long id = 0; id < 10; id++) {
      rows.add(new Object[] {id, "row-" + id, LocalDate.of(2024, 5, 1)});
    }
    commit.commit(1, new DeltaTableWriter(table, SCHEMA).write(rows));
    return table;
  }

  private static List<Long> ids(DeltaTable table, List<DeltaAddedFile> files) throws IOException {
    String schema = table.latestSnapshot().orElseThrow().getSchema().toJson();
    DeltaDataFileReader reader = new DeltaDataFileReader(table, schema, List.of("day"));
    List<Long> ids = new ArrayList<>();
    for (DeltaAddedFile file : files) {
      try (DeltaDataFileReader.Rows rows = reader.open(file)) {
        while (rows.hasNext()) {
          ids.add((Long) rows.next()[0]);
        }
      }
    }
    return ids;
  }

  @Test
  void theSnapshotsFilesSkipTheDeletedRowsAsKernelDoes() throws IOException {
    DeltaTable table = table();
    long version = DeletionVectorCommits.deleteRows(table, 1, 5);
    DeletionVectorCommits.deleteRows(table, 9);
    String schema = table.latestSnapshot().orElseThrow().getSchema().toJson();

    List<DeltaAddedFile> files =
        new DeltaTableChanges(table, schema, false, false).snapshotFiles(version + 1);

    assertThat(files).singleElement().satisfies(f -> assertThat(f.numRecords()).isEqualTo(7));
    assertThat(files.get(0).deletionVector().cardinality()).isEqualTo(3);
    assertThat(ids(table, files)).containsExactly(0L, 2L, 3L, 4L, 6L, 7L, 8L);
    assertThat(new DeltaTableReader(table).readLatest())
        .extracting(r -> (Long) r[0])
        .containsExactlyInAnyOrder(0L, 2L, 3L, 4L, 6L, 7L, 8L);
    assertThat(new DeltaTableReader(table).count()).isEqualTo(7);
  }

  @Test
  void aVersionThatAddsADeletionVectorIsAChangeCommit() throws IOException {
    DeltaTable table = table();
    long version = DeletionVectorCommits.deleteRows(table, 2);
    String schema = table.latestSnapshot().orElseThrow().getSchema().toJson();

    assertThatThrownBy(
            () -> new DeltaTableChanges(table, schema, false, false).versionFiles(version, version))
        .isInstanceOf(DeltaChangeCommitException.class)
        .hasMessageContaining("skipChangeCommits=true");
    assertThatThrownBy(
            () -> new DeltaTableChanges(table, schema, false, true).versionFiles(version, version))
        .isInstanceOf(DeltaChangeCommitException.class);
    assertThat(new DeltaTableChanges(table, schema, true, false).versionFiles(version, version))
        .isEmpty();
  }

  @Test
  void aDamagedVectorFileFailsNamingTheTable() throws IOException {
    DeltaTable table = table();
    long version = DeletionVectorCommits.deleteRows(table, 2);
    String schema = table.latestSnapshot().orElseThrow().getSchema().toJson();
    DeltaAddedFile file =
        new DeltaTableChanges(table, schema, false, false).snapshotFiles(version).get(0);
    String dvFile = new DeletionVectorStore(table).absolutePath(file.deletionVector());
    try (RandomAccessFile raf = new RandomAccessFile(Path.of(URI.create(dvFile)).toFile(), "rw")) {
      raf.seek(raf.length() - 6);
      raf.write(0x5a); // a bitmap byte: the checksum no longer matches
    }

    assertThatThrownBy(() -> ids(table, List.of(file)))
        .isInstanceOf(DeltaTableException.class)
        .hasMessageContaining(table.path())
        .satisfies(
            e ->
                assertThat(((DeltaTableException) e).errorClass())
                    .isEqualTo(DeltaErrorClass.DELTA_TABLE_CORRUPT.name()));
  }
}
