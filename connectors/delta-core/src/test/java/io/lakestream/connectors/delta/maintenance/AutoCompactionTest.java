package io.lakestream.connectors.delta.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lakestream.connectors.delta.DeltaAppendCommit;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.DeltaTableWriter;
import io.lakestream.connectors.delta.DeltaWrittenFile;
import io.lakestream.connectors.delta.merge.DeltaMerge;
import io.lakestream.connectors.delta.merge.DeltaMergeCommit;
import io.lakestream.connectors.delta.merge.DeltaMergeResult;
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
 * property the commit is left as it is. A MERGE into a table with {@code
 * delta.autoOptimize.autoCompact=true} compacts the partitions it wrote after its commit.
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

  @Test
  void aMergeIntoATableWithThePropertyCompactsThePartitionsItWrote() throws Exception {
    Path dirOf = dir.resolve("merged");
    DeltaTable table = DeltaTable.forPath(dirOf.toUri().toString());
    table.ensureExists(SCHEMA);
    setProperty(dirOf, 1, PartitionCompaction.PROPERTY, "true");
    DeltaMergeCommit merge =
        new DeltaMergeCommit(
            DeltaMerge.into(table, SCHEMA, "id")
                .whenMatchedUpdateAll()
                .whenNotMatchedInsertAll()
                .build(),
            "silver");
    for (long e = 1; e <= 49; e++) {
      merge.commit(e, List.<Object[]>of(new Object[] {e, "eu"}));
    }
    assertThat(DeltaMaintenanceFiles.count(table)).isEqualTo(49);

    DeltaMergeResult fiftieth = merge.commit(50, List.<Object[]>of(new Object[] {50L, "eu"}));

    assertThat(fiftieth.status()).isEqualTo(DeltaMergeResult.Status.COMMITTED);
    assertThat(DeltaMaintenanceFiles.count(table)).isEqualTo(1);
    assertThat(new DeltaTableReader(table).readLatest()).hasSize(50);
    assertThat(lastCommit(dirOf)).contains("\"OPTIMIZE\"").contains("\"auto\":\"true\"");
  }

  /** Commits version {@code version}: the table's metaData with one more property. */
  private static void setProperty(Path table, long version, String key, String value)
      throws Exception {
    ObjectMapper json = new ObjectMapper();
    ObjectNode metaData = null;
    for (String line : Files.readAllLines(table.resolve("_delta_log/" + logName(0)))) {
      if (json.readTree(line).has("metaData")) {
        metaData = (ObjectNode) json.readTree(line).get("metaData");
      }
    }
    ((ObjectNode) metaData.get("configuration")).put(key, value);
    ObjectNode action = json.createObjectNode();
    action.set("metaData", metaData);
    Files.writeString(table.resolve("_delta_log/" + logName(version)), action + "\n");
  }

  private static String logName(long version) {
    return String.format("%020d.json", version);
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
