package io.lakestream.connectors.delta;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.schema.ColumnType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A table damaged outside Delta: a truncated commit file, a deleted data file. Reading and
 * committing fail with the damaged file named and what to do, and nothing more is written.
 */
class DamagedTableTest {
  private static final DeltaTableSchema SCHEMA =
      DeltaTableSchema.builder().column("id", ColumnType.LONG, false).build();

  @TempDir Path dir;

  private DeltaTable table() {
    return DeltaTable.forPath(dir.resolve("t").toString());
  }

  private static List<Object[]> rows(long from) {
    List<Object[]> rows = new ArrayList<>();
    for (long id = from; id < from + 3; id++) {
      rows.add(new Object[] {id});
    }
    return rows;
  }

  /** Versions 1 and 2 (epochs 1 and 2 of app "app"), after the table's creation (version 0). */
  private void writeTwoEpochs() throws IOException {
    DeltaAppendCommit commit = new DeltaAppendCommit(table(), SCHEMA, "app");
    commit.open();
    DeltaTableWriter writer = new DeltaTableWriter(table(), SCHEMA);
    commit.commit(1, writer.write(rows(10)));
    commit.commit(2, writer.write(rows(20)));
  }

  private static String errorClass(Throwable e) {
    return ((LakestreamException) e).errorClass();
  }

  @Test
  void aTruncatedCommitFileIsNamedAndNothingMoreIsCommitted() throws IOException {
    writeTwoEpochs();
    Path damaged = dir.resolve("t/_delta_log/00000000000000000002.json");
    Files.writeString(damaged, Files.readString(damaged).substring(0, 40)); // as S3 would keep it
    Files.deleteIfExists(damaged.resolveSibling("." + damaged.getFileName() + ".crc"));

    assertThatThrownBy(() -> new DeltaTableReader(table()).readLatest())
        .satisfies(e -> assertThat(errorClass(e)).isEqualTo("DELTA_TABLE_CORRUPT"))
        .hasMessageContaining("00000000000000000002.json")
        .hasMessageContaining("Restore the file");
    DeltaAppendCommit next = new DeltaAppendCommit(table(), SCHEMA, "app");
    List<DeltaWrittenFile> files = new DeltaTableWriter(table(), SCHEMA).write(rows(30));
    assertThatThrownBy(
            () -> {
              next.open();
              next.commit(3, files);
            })
        .satisfies(e -> assertThat(errorClass(e)).isEqualTo("DELTA_TABLE_CORRUPT"))
        .hasMessageContaining("00000000000000000002.json");
    assertThat(dir.resolve("t/_delta_log/00000000000000000003.json")).doesNotExist();
  }

  @Test
  void aDeletedDataFileIsNamedWithTheWayOut() throws IOException {
    writeTwoEpochs();
    Path gone;
    try (Stream<Path> files = Files.list(dir.resolve("t"))) {
      gone = files.filter(p -> p.toString().endsWith(".parquet")).findFirst().orElseThrow();
    }
    Files.delete(gone);

    assertThatThrownBy(() -> new DeltaTableReader(table()).readLatest())
        .satisfies(e -> assertThat(errorClass(e)).isEqualTo("DELTA_FILE_NOT_FOUND"))
        .hasMessageContaining(gone.getFileName().toString())
        .hasMessageContaining("RESTORE the table");
  }

  @Test
  void aTableWhoseLogWasDeletedIsNotSilentlyCreatedAgain() throws IOException {
    writeTwoEpochs();
    try (Stream<Path> files = Files.list(dir.resolve("t/_delta_log"))) {
      for (Path file : files.toList()) {
        Files.delete(file);
      }
    }
    Files.delete(dir.resolve("t/_delta_log"));

    assertThatThrownBy(() -> new DeltaTableReader(table()).readLatest())
        .satisfies(e -> assertThat(errorClass(e)).isEqualTo("DELTA_TABLE_NOT_FOUND"));
    assertThatThrownBy(() -> new DeltaAppendCommit(table(), SCHEMA, "app").open())
        .satisfies(e -> assertThat(errorClass(e)).isEqualTo("DELTA_TABLE_CORRUPT"))
        .hasMessageContaining("no _delta_log")
        .hasMessageContaining("restore _delta_log");
    assertThat(dir.resolve("t/_delta_log")).doesNotExist();
  }
}
