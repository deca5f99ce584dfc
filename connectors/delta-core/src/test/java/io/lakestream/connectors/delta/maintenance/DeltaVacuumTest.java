package io.lakestream.connectors.delta.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.delta.DeltaAppendCommit;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.DeltaTableWriter;
import io.lakestream.connectors.delta.merge.DeltaMerge;
import io.lakestream.connectors.delta.merge.DeltaMergeCommit;
import io.lakestream.connectors.schema.ColumnType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * VACUUM on a real Delta table: it refuses a retention below the table's unless forced; with the
 * table's retention it deletes only files older than it that no version needs (an orphan of a
 * failed epoch), keeps checkpoint locations and other {@code _} directories, change data files and
 * every file of every version within the retention (they all still read); forced to zero it deletes
 * what OPTIMIZE and MERGE replaced, and the latest version still reads. Deleting runs record VACUUM
 * START and END.
 */
class DeltaVacuumTest {
  private static final DeltaTableSchema EVENTS =
      DeltaTableSchema.builder()
          .column("id", ColumnType.LONG, false)
          .column("p", ColumnType.STRING)
          .partitionedBy("p")
          .property("delta.enableChangeDataFeed", "true")
          .build();
  private static final FileTime LONG_AGO = FileTime.from(Instant.now().minus(Duration.ofDays(8)));

  @TempDir Path dir;
  private Path root;
  private DeltaTable table;

  @BeforeEach
  void setUp() throws Exception {
    root = dir.resolve("events");
    table = DeltaTable.forPath(root.toUri().toString());
    for (long epoch = 1; epoch <= 4; epoch++) {
      List<Object[]> rows = new ArrayList<>();
      for (long id = epoch * 10; id < epoch * 10 + 4; id++) {
        rows.add(new Object[] {id, "p" + (id % 2)});
      }
      DeltaAppendCommit commit = new DeltaAppendCommit(table, EVENTS, "writer");
      commit.open();
      commit.commit(epoch, new DeltaTableWriter(table, EVENTS).write(rows));
    }
    DeltaOptimize.forTable(table).build().run(); // replaces the small files
    DeltaMerge merge =
        DeltaMerge.into(table, EVENTS, "id").whenMatchedDelete((s, t) -> true).build();
    new DeltaMergeCommit(merge, "deleter")
        .commit(1, Collections.singletonList(new Object[] {11L, "p1"})); // change data files
  }

  private Path oldFile(String relative) throws Exception {
    Path file = root.resolve(relative);
    Files.createDirectories(file.getParent());
    Files.writeString(file, "x");
    Files.setLastModifiedTime(file, LONG_AGO);
    return file;
  }

  private List<Path> dataAndChangeFiles() throws Exception {
    try (Stream<Path> files = Files.walk(root)) {
      return files
          .filter(Files::isRegularFile)
          .filter(f -> !f.getFileName().toString().startsWith(".")) // checksums of the local FS
          .filter(f -> !root.relativize(f).toString().startsWith("_delta_log"))
          .filter(f -> !root.relativize(f).toString().startsWith("_checkpoints"))
          .toList();
    }
  }

  @Test
  void aRetentionBelowTheTablesIsRefusedUnlessForced() {
    assertThatThrownBy(() -> DeltaVacuum.of(table, Duration.ofHours(1), true, false).run())
        .isInstanceOf(LakestreamException.class)
        .hasMessageStartingWith("[DELTA_INVALID_MAINTENANCE]")
        .hasMessageContaining("retention of 1h is below the table's")
        .hasMessageContaining("delta.deletedFileRetentionDuration (168h)")
        .hasMessageContaining("--force");
  }

  @Test
  void theTablesRetentionDeletesOnlyOldUnreferencedFilesAndEveryVersionStillReads()
      throws Exception {
    Path orphan = oldFile("p=p0/part-00000-orphan-of-a-failed-epoch.parquet");
    Path checkpointState = oldFile("_checkpoints/orders/state/chk-3/_metadata");
    Path staging = oldFile("_staging/x.parquet");
    long latest = new DeltaTableReader(table).latestVersion();
    long changeFiles;
    try (Stream<Path> files = Files.walk(root.resolve("_change_data"))) {
      changeFiles = files.filter(Files::isRegularFile).count();
    }
    assertThat(changeFiles).isPositive();

    DeltaVacuumResult dry = DeltaVacuum.of(table, null, true, false).run();
    assertThat(dry.files())
        .singleElement()
        .satisfies(f -> assertThat(f).endsWith(orphan.getFileName().toString()));
    assertThat(orphan).exists();

    DeltaVacuumResult result = DeltaVacuum.of(table, null, false, false).run();
    assertThat(result.files()).hasSize(1);
    assertThat(orphan).doesNotExist();
    assertThat(checkpointState).exists();
    assertThat(staging).exists();
    for (long v = 0; v <= latest; v++) {
      assertThat(new DeltaTableReader(table).countVersion(v)).as("version %d", v).isNotNegative();
    }
    String end =
        Files.readString(root.resolve("_delta_log/" + String.format("%020d.json", latest + 2)));
    assertThat(end).contains("\"VACUUM END\"").contains("\"numDeletedFiles\":\"1\"");
    assertThat(
            Files.readString(root.resolve("_delta_log/" + String.format("%020d.json", latest + 1))))
        .contains("\"VACUUM START\"");
  }

  @Test
  void forcedToZeroItDeletesWhatOptimizeAndMergeReplacedAndTheLatestVersionReads()
      throws Exception {
    List<Object[]> latestRows = new DeltaTableReader(table).readLatest();
    long filesBefore = dataAndChangeFiles().size();
    Thread.sleep(5); // the replaced files are now older than a zero retention

    DeltaVacuumResult result = DeltaVacuum.of(table, Duration.ZERO, false, true).run();

    assertThat(result.files()).isNotEmpty();
    assertThat(dataAndChangeFiles()).hasSize((int) (filesBefore - result.files().size()));
    assertThat(new DeltaTableReader(table).readLatest()).hasSameSizeAs(latestRows);
    assertThat(DeltaMaintenanceFiles.count(table))
        .isEqualTo(
            dataAndChangeFiles().stream()
                .filter(f -> !f.toString().contains("_change_data"))
                .count());
  }
}
