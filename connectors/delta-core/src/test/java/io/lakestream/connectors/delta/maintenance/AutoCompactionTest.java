package io.lakestream.connectors.delta.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.delta.DeltaAppendCommit;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.DeltaTableWriter;
import io.lakestream.connectors.delta.DeltaWrittenFile;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.connectors.sink.EpochCommitAction;
import io.lakestream.connectors.sink.EpochCommitOutcome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Auto-compaction in the sink's commit: when the sink asks for it, the epoch that brings a
 * partition to 50 small files compacts it after its own commit (recorded as OPTIMIZE with {@code
 * auto = true}), every row stays, and a replayed epoch neither commits nor compacts; without the
 * property the commit is left as it is.
 */
class AutoCompactionTest {
  @TempDir Path dir;

  private static final DeltaTableSchema SCHEMA =
      DeltaTableSchema.builder()
          .column("id", ColumnType.LONG, false)
          .column("region", ColumnType.STRING)
          .partitionedBy("region")
          .build();

  private static List<DeltaWrittenFile> epochFiles(DeltaTable table, DeltaTableSchema s, long e) {
    return new DeltaTableWriter(table, s)
        .write(List.of(new Object[] {e * 2, "eu"}, new Object[] {e * 2 + 1, "us"}));
  }

  @Test
  void theEpochThatMakesFiftySmallFilesCompactsItsPartitionsAfterItsCommit() throws Exception {
    DeltaTable table = DeltaTable.forPath(dir.resolve("t").toUri().toString());
    DeltaTableSchema schema = SCHEMA;
    DeltaAppendCommit append = new DeltaAppendCommit(table, schema, "query");
    append.open();
    EpochCommitAction<DeltaWrittenFile> commit = AutoCompaction.ifEnabled(append, table, true);
    assertThat(commit).isInstanceOf(AutoCompaction.class);
    for (long e = 1; e <= 49; e++) {
      commit.commit(e, epochFiles(table, schema, e));
    }
    assertThat(DeltaMaintenanceFiles.count(table)).isEqualTo(98);

    List<DeltaWrittenFile> fiftieth = epochFiles(table, schema, 50);
    assertThat(commit.commit(50, fiftieth).status()).isEqualTo(EpochCommitOutcome.Status.COMMITTED);

    assertThat(DeltaMaintenanceFiles.count(table)).isEqualTo(2);
    assertThat(new DeltaTableReader(table).readLatest()).hasSize(100);
    assertThat(lastCommit(dir.resolve("t"))).contains("\"OPTIMIZE\"").contains("\"auto\":\"true\"");
    assertThat(commit.commit(50, fiftieth).status())
        .isEqualTo(EpochCommitOutcome.Status.ALREADY_COMMITTED);
    assertThat(new DeltaTableReader(table).readLatest()).hasSize(100);
  }

  @Test
  void withoutTheOptionOrThePropertyTheCommitIsLeftAsItIs() {
    DeltaTable table = DeltaTable.forPath(dir.resolve("plain").toUri().toString());
    table.ensureExists(SCHEMA);
    DeltaAppendCommit append = new DeltaAppendCommit(table, SCHEMA, "query");
    assertThat(AutoCompaction.ifEnabled(append, table, false)).isSameAs(append);
  }

  private static String lastCommit(Path table) throws Exception {
    try (Stream<Path> files = Files.list(table.resolve("_delta_log"))) {
      Path last =
          files
              .filter(f -> f.getFileName().toString().endsWith(".json"))
              .sorted()
              .reduce((a, b) -> b)
              .orElseThrow();
      return Files.readString(last);
    }
  }
}
