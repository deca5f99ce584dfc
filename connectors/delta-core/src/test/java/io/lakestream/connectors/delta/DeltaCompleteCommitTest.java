package io.lakestream.connectors.delta;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.delta.kernel.Snapshot;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.delta.kernel.KernelScanFile;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.connectors.sink.EpochCommitOutcome;
import io.lakestream.connectors.sink.EpochCommitOutcome.Status;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Output mode complete: every epoch replaces the table's contents in one version. */
class DeltaCompleteCommitTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  private static DeltaTableSchema.Builder counts() {
    return DeltaTableSchema.builder()
        .column("key", ColumnType.STRING, false)
        .column("n", ColumnType.LONG)
        .column("part", ColumnType.STRING);
  }

  private static List<Object[]> result(int keys, long epoch) {
    List<Object[]> rows = new ArrayList<>();
    for (int k = 0; k < keys; k++) {
      rows.add(new Object[] {"k" + k, epoch * 100 + k, "p" + (k % 2)});
    }
    return rows;
  }

  private String path() {
    return dir.resolve("t").toString();
  }

  private List<JsonNode> actions(long version) throws IOException {
    List<JsonNode> out = new ArrayList<>();
    for (String line :
        Files.readAllLines(
            dir.resolve("t/_delta_log").resolve(String.format("%020d.json", version)))) {
      out.add(JSON.readTree(line));
    }
    return out;
  }

  private static Set<String> filesOf(DeltaTable table, Snapshot snapshot) throws IOException {
    Set<String> paths = new HashSet<>();
    KernelScanFile.forEach(
        table.engine(),
        snapshot.getScanBuilder().build(),
        false,
        file -> paths.add(file.status().getPath()));
    return paths;
  }

  private Map<String, Long> read(DeltaTable table) throws IOException {
    Map<String, Long> out = new HashMap<>();
    for (Object[] row : new DeltaTableReader(table).readLatest()) {
      assertThat(out.put((String) row[0], (Long) row[1])).as("key %s twice", row[0]).isNull();
    }
    return out;
  }

  @Test
  void eachEpochReplacesTheContentsInOneVersionAndAReplayIsSkipped() throws IOException {
    DeltaTableSchema schema = counts().partitionedBy("part").build();
    DeltaTable table = DeltaTable.forPath(path());
    DeltaTableWriter writer = new DeltaTableWriter(table, schema);
    DeltaCompleteCommit commit = new DeltaCompleteCommit(table, schema, "app");
    commit.open();
    List<DeltaWrittenFile> e1 = writer.write(result(3, 1));
    assertThat(commit.commit(1, e1).detail()).isEqualTo("version=1");
    assertThat(read(table)).containsOnlyKeys("k0", "k1", "k2").containsEntry("k2", 102L);

    EpochCommitOutcome second = commit.commit(2, writer.write(result(4, 2)));
    assertThat(second.status()).isEqualTo(Status.COMMITTED);
    assertThat(second.detail()).isEqualTo("version=2");
    assertThat(read(table)).hasSize(4).containsEntry("k0", 200L).containsEntry("k3", 203L);

    List<JsonNode> v2 = actions(2);
    List<JsonNode> removes =
        v2.stream().filter(a -> a.has("remove")).map(a -> a.get("remove")).toList();
    assertThat(removes).hasSize(e1.size());
    assertThat(removes).allSatisfy(r -> assertThat(r.get("dataChange").asBoolean()).isTrue());
    assertThat(removes)
        .allSatisfy(r -> assertThat(r.get("deletionTimestamp").asLong()).isPositive());
    assertThat(v2.stream().filter(a -> a.has("add")))
        .allSatisfy(a -> assertThat(a.get("add").get("dataChange").asBoolean()).isTrue());
    assertThat(v2.stream().filter(a -> a.has("txn")))
        .singleElement()
        .satisfies(a -> assertThat(a.get("txn").get("version").asLong()).isEqualTo(2));
    JsonNode info = v2.get(0).get("commitInfo");
    assertThat(info.get("operationParameters").get("outputMode").asText()).isEqualTo("Complete");
    assertThat(info.get("operationParameters").get("epochId").asText()).isEqualTo("2");
    assertThat(info.get("operationMetrics").get("numRemovedFiles").asText())
        .isEqualTo(Integer.toString(e1.size()));

    // replaying epoch 1 (restore) must not bring its rows back
    assertThat(commit.commit(1, e1).status()).isEqualTo(Status.ALREADY_COMMITTED);
    assertThat(commit.commit(2, e1).status()).isEqualTo(Status.ALREADY_COMMITTED);
    assertThat(table.latestSnapshot().orElseThrow().getVersion()).isEqualTo(2);
    assertThat(read(table)).hasSize(4).containsEntry("k0", 200L);
    // an epoch without files leaves the last result
    assertThat(commit.commit(3, List.of()).status()).isEqualTo(Status.EMPTY);
    assertThat(read(table)).hasSize(4);
  }

  @Test
  void tablesWithChangeDataFeedOrAppendOnlyAreRefusedNamingTheProperty() throws IOException {
    DeltaTableSchema cdf = counts().property("delta.enableChangeDataFeed", "true").build();
    DeltaTable table = DeltaTable.forPath(path());
    assertThatThrownBy(() -> new DeltaCompleteCommit(table, cdf, "app").open())
        .isInstanceOf(DeltaTableException.class)
        .hasMessageContaining("delta.enableChangeDataFeed=true")
        .hasMessageContaining("output mode append")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("DELTA_UNSUPPORTED_FEATURE");
    DeltaTable other = DeltaTable.forPath(dir.resolve("ao").toString());
    DeltaTableSchema appendOnly = counts().property("delta.appendOnly", "true").build();
    assertThatThrownBy(() -> new DeltaCompleteCommit(other, appendOnly, "app").open())
        .hasMessageContaining("delta.appendOnly=true")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("DELTA_UNSUPPORTED_FEATURE");
  }

  /**
   * Another writer appends while complete-mode epochs commit. Every complete-mode version must hold
   * exactly its own epoch's files: a concurrent append that landed before it must have been removed
   * by it (Kernel alone would rebase the commit and leave those files in the table).
   */
  @Test
  void aConcurrentAppendNeverSurvivesTheNextCompleteVersion() throws Exception {
    DeltaTableSchema schema = counts().build();
    DeltaTable table = DeltaTable.forPath(path());
    table.ensureExists(schema);
    int epochs = 5;
    AtomicBoolean done = new AtomicBoolean();
    ExecutorService pool = Executors.newFixedThreadPool(2);
    Map<Long, Set<String>> versionFiles = new HashMap<>();
    int appends = 0;
    try {
      Future<Integer> appender =
          pool.submit(
              () -> {
                DeltaTable own = DeltaTable.forPath(path());
                DeltaTableWriter writer = new DeltaTableWriter(own, schema);
                DeltaAppendCommit append = new DeltaAppendCommit(own, schema, "appender", 100);
                int epoch = 0;
                while (!done.get() && epoch < 100) {
                  epoch++;
                  append.commit(
                      epoch, writer.write(List.<Object[]>of(new Object[] {"x" + epoch, 1L, "p"})));
                }
                return epoch;
              });
      DeltaTableWriter writer = new DeltaTableWriter(table, schema);
      DeltaCompleteCommit complete = new DeltaCompleteCommit(table, schema, "complete", 200, false);
      for (long epoch = 1; epoch <= epochs; epoch++) {
        List<DeltaWrittenFile> files = writer.write(result(3, epoch));
        EpochCommitOutcome outcome = complete.commit(epoch, files);
        assertThat(outcome.status()).isEqualTo(Status.COMMITTED);
        long version = Long.parseLong(outcome.detail().substring("version=".length()));
        Set<String> mine = new HashSet<>();
        files.forEach(f -> mine.add(f.path()));
        versionFiles.put(version, mine);
      }
      done.set(true);
      appends = appender.get();
    } finally {
      done.set(true);
      pool.shutdownNow();
    }
    assertThat(appends).isPositive();
    List<Long> completeVersions = versionFiles.keySet().stream().sorted().toList();
    assertThat(completeVersions.get(completeVersions.size() - 1) - completeVersions.get(0))
        .as("appends landed between complete-mode versions")
        .isGreaterThan(completeVersions.size() - 1);
    for (Map.Entry<Long, Set<String>> e : versionFiles.entrySet()) {
      Snapshot at = table.kernelTable().getSnapshotAsOfVersion(table.engine(), e.getKey());
      assertThat(filesOf(table, at))
          .as("files of complete-mode version %s", e.getKey())
          .containsExactlyInAnyOrderElementsOf(e.getValue());
    }
    assertThat(
            table
                .latestSnapshot()
                .orElseThrow()
                .getLatestTransactionVersion(table.engine(), "complete"))
        .contains((long) epochs);
  }
}
