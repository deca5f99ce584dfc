package io.lakestream.connectors.delta.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.delta.DeltaAppendCommit;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.DeltaTableWriter;
import io.lakestream.connectors.schema.ColumnType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Log health of a streaming table: every {@code delta.checkpointInterval} versions a writer writes
 * a log checkpoint, and with it the log files older than {@code delta.logRetentionDuration} that
 * precede the checkpoint are removed; the table still reads whole, and so do all versions from the
 * oldest checkpoint kept.
 */
class LogCleanupTest {
  @TempDir Path dir;

  @Test
  void checkpointsComeAtTheIntervalAndExpiredLogFilesGoWithThem() throws Exception {
    Path root = dir.resolve("t");
    DeltaTable table = DeltaTable.forPath(root.toUri().toString());
    DeltaTableSchema schema =
        DeltaTableSchema.builder()
            .column("id", ColumnType.LONG, false)
            .property("delta.checkpointInterval", "5")
            .property("delta.logRetentionDuration", "interval 1 hour")
            .build();
    DeltaAppendCommit commit = new DeltaAppendCommit(table, schema, "app");
    commit.open();
    for (long epoch = 1; epoch <= 12; epoch++) {
      append(commit, table, schema, epoch);
    }
    assertThat(log(root, "00000000000000000010.checkpoint.parquet")).exists();
    try (Stream<Path> files = Files.list(root.resolve("_delta_log"))) {
      FileTime old = FileTime.from(Instant.now().minus(Duration.ofHours(2)));
      for (Path f : files.toList()) {
        Files.setLastModifiedTime(f, old); // as if written two hours ago
      }
    }
    for (long epoch = 13; epoch <= 15; epoch++) {
      append(commit, table, schema, epoch); // version 15 is checkpointed: cleanup runs
    }

    assertThat(log(root, "00000000000000000015.checkpoint.parquet")).exists();
    assertThat(log(root, "00000000000000000000.json")).doesNotExist();
    assertThat(log(root, "00000000000000000009.json")).doesNotExist();
    assertThat(new DeltaTableReader(table).readLatest()).hasSize(15);
    assertThat(new DeltaTableReader(table).readVersion(15)).hasSize(15);
  }

  private static void append(DeltaAppendCommit commit, DeltaTable t, DeltaTableSchema s, long e)
      throws Exception {
    commit.commit(e, new DeltaTableWriter(t, s).write(List.<Object[]>of(new Object[] {e})));
  }

  private static Path log(Path root, String name) {
    return root.resolve("_delta_log").resolve(name);
  }
}
