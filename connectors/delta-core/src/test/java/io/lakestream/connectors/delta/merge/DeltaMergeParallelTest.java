package io.lakestream.connectors.delta.merge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.delta.DeltaAppendCommit;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.DeltaTableWriter;
import io.lakestream.connectors.delta.DeltaWrittenFile;
import io.lakestream.connectors.delta.cdf.DeltaChangeDataFeed;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.connectors.sink.EpochFunction;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A MERGE whose per-file work runs on several threads ({@link DeltaMergeCommit#withParallelism})
 * commits what the sequential one commits (table row for row, change data, actions in the same
 * order), and a failing worker commits nothing.
 */
class DeltaMergeParallelTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int FILES = 6;
  private static final int FILE_ROWS = 200;
  private static final DeltaTableSchema SCHEMA =
      DeltaTableSchema.builder()
          .column("id", ColumnType.LONG, false)
          .column("name", ColumnType.STRING)
          .column("balance", ColumnType.LONG)
          .property("delta.enableChangeDataFeed", "true")
          .build();

  @TempDir Path dir;

  /** Upserts, deleting where name is "D" (absent keys with "D" are not inserted). */
  private static DeltaMerge upserts(DeltaTable table) {
    return DeltaMerge.into(table, SCHEMA, "id")
        .whenMatchedDelete((s, t) -> "D".equals(s[1]))
        .whenMatchedUpdateAll()
        .whenNotMatchedInsertAll((s, t) -> !"D".equals(s[1]))
        .build();
  }

  /** A table of FILES files of FILE_ROWS consecutive ids each, copied to each given path. */
  private void writeTable(Path... copies) throws IOException {
    Path base = dir.resolve("base");
    DeltaTable table = DeltaTable.forPath(base.toString());
    DeltaTableWriter writer = new DeltaTableWriter(table, SCHEMA);
    List<DeltaWrittenFile> files = new ArrayList<>();
    for (int f = 0; f < FILES; f++) {
      List<Object[]> rows = new ArrayList<>();
      for (long id = (long) f * FILE_ROWS; id < (long) (f + 1) * FILE_ROWS; id++) {
        rows.add(new Object[] {id, "n" + id, id * 10});
      }
      files.addAll(writer.write(rows));
    }
    new DeltaAppendCommit(table, SCHEMA, "loader").commit(0, files);
    for (Path copy : copies) {
      try (Stream<Path> all = Files.walk(base)) {
        for (Path p : all.sorted().toList()) {
          Files.copy(p, copy.resolve(base.relativize(p).toString()));
        }
      }
    }
  }

  /** Epoch e: updates every 7th id and deletes every 50th of files 0, 2, 3 and 5, inserts 20. */
  private static List<Object[]> batch(int epoch) {
    List<Object[]> rows = new ArrayList<>();
    for (int f : new int[] {0, 2, 3, 5}) {
      for (long id = (long) f * FILE_ROWS + epoch; id < (long) (f + 1) * FILE_ROWS; id += 7) {
        boolean delete = id % 50 == 0;
        rows.add(new Object[] {id, delete ? "D" : "e" + epoch, id * 10 + epoch});
      }
    }
    for (long id = 10_000 + 20L * epoch; id < 10_000 + 20L * (epoch + 1); id++) {
      rows.add(new Object[] {id, "new" + epoch, id});
    }
    return rows;
  }

  @Test
  void parallelRewriteCommitsTheSameTableChangeDataAndActionsAsSequential() throws IOException {
    Path sequentialPath = dir.resolve("sequential");
    Path parallelPath = dir.resolve("parallel");
    writeTable(sequentialPath, parallelPath);
    DeltaTable sequential = DeltaTable.forPath(sequentialPath.toString());
    DeltaTable parallel = DeltaTable.forPath(parallelPath.toString());
    DeltaMergeCommit one = new DeltaMergeCommit(upserts(sequential), "app").withParallelism(1);
    DeltaMergeCommit four = new DeltaMergeCommit(upserts(parallel), "app").withParallelism(4);

    for (int epoch = 0; epoch < 3; epoch++) {
      DeltaMergeResult a = one.commit(epoch, batch(epoch));
      DeltaMergeResult b = four.commit(epoch, batch(epoch));

      assertThat(b.status()).isEqualTo(DeltaMergeResult.Status.COMMITTED);
      assertThat(b.version()).isEqualTo(a.version());
      assertThat(b.filesRemoved()).isEqualTo(a.filesRemoved()).isEqualTo(4);
      assertThat(b.filesAdded()).isEqualTo(a.filesAdded());
      assertThat(b.rowsUpdated()).isEqualTo(a.rowsUpdated()).isPositive();
      assertThat(b.rowsDeleted()).isEqualTo(a.rowsDeleted()).isPositive();
      assertThat(b.rowsInserted()).isEqualTo(a.rowsInserted()).isEqualTo(20);
      assertThat(actions(parallelPath, b.version()))
          .as("epoch %d's actions, in order", epoch)
          .isEqualTo(actions(sequentialPath, a.version()));
      assertThat(changes(parallel, b.version()))
          .as("epoch %d's change data", epoch)
          .isEqualTo(changes(sequential, a.version()));
    }
    assertThat(rows(parallel)).isEqualTo(rows(sequential));
    assertThat(rows(parallel)).contains(List.of(10_059L, "new2", 10_059L));
  }

  @Test
  void aFailingRewriteWorkerCommitsNothingAndTheEpochCanRunAgain() throws IOException {
    Path path = dir.resolve("failing");
    writeTable(path);
    DeltaTable table = DeltaTable.forPath(path.toString());
    long before = table.latestSnapshot().orElseThrow().getVersion();
    List<List<Object>> rowsBefore = rows(table);
    // The update of id 649 (file 3) puts a string into the long column: its rewrite task fails
    // while the other files' tasks write theirs.
    DeltaMerge bad =
        DeltaMerge.into(table, SCHEMA, "id")
            .whenMatchedUpdate(
                (s, t) -> new Object[] {s[0], s[1], (Long) s[0] == 649L ? "oops" : s[2]})
            .whenNotMatchedInsertAll()
            .build();

    assertThatThrownBy(
            () -> new DeltaMergeCommit(bad, "app").withParallelism(3).commit(0, batch(0)))
        .isInstanceOf(LakestreamException.class);

    assertThat(table.latestSnapshot().orElseThrow().getVersion()).isEqualTo(before);
    assertThat(rows(table)).isEqualTo(rowsBefore);
    DeltaMergeResult retried =
        new DeltaMergeCommit(upserts(table), "app").withParallelism(3).commit(0, batch(0));
    assertThat(retried.status()).isEqualTo(DeltaMergeResult.Status.COMMITTED);
    assertThat(retried.version()).isEqualTo(before + 1);
  }

  @Test
  void aFailingReadWorkerCommitsNothing() throws IOException {
    Path path = dir.resolve("failing-read");
    writeTable(path);
    DeltaTable table = DeltaTable.forPath(path.toString());
    long before = table.latestSnapshot().orElseThrow().getVersion();
    DeltaMerge bad =
        DeltaMerge.into(table, SCHEMA, "id")
            .whenMatchedUpdateAll(
                (s, t) -> {
                  if ((Long) t[0] == 1049L) {
                    throw new IllegalStateException("condition failed on 1049");
                  }
                  return true;
                })
            .whenNotMatchedInsertAll()
            .build();

    assertThatThrownBy(
            () -> new DeltaMergeCommit(bad, "app").withParallelism(4).commit(0, batch(0)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("condition failed on 1049");

    assertThat(table.latestSnapshot().orElseThrow().getVersion()).isEqualTo(before);
  }

  @Test
  void theEpochFunctionRunsAtTheParallelismTheSinkOpensItWith() throws Exception {
    Path path = dir.resolve("function");
    writeTable(path);
    DeltaTable table = DeltaTable.forPath(path.toString());
    Set<String> threads = ConcurrentHashMap.newKeySet();
    DeltaMerge recording =
        DeltaMerge.into(table, SCHEMA, "id")
            .whenMatchedUpdateAll(
                (s, t) -> {
                  threads.add(Thread.currentThread().getName());
                  return true;
                })
            .build();

    EpochFunction one = new DeltaMergeCommit(recording, "one").asEpochFunction();
    one.open(1);
    one.call(0, batch(0));
    assertThat(threads).containsExactly(Thread.currentThread().getName());

    threads.clear();
    EpochFunction three = new DeltaMergeCommit(recording, "three").asEpochFunction();
    three.open(3);
    three.call(0, batch(0));
    assertThat(threads).allMatch(name -> name.startsWith("merge-read-")).hasSizeBetween(1, 3);
  }

  @Test
  void theDefaultParallelismIsTheAvailableProcessors() {
    DeltaTable table = DeltaTable.forPath(dir.resolve("t").toString());
    DeltaMergeCommit commit = new DeltaMergeCommit(upserts(table), "app");
    assertThat(commit.parallelism()).isEqualTo(Runtime.getRuntime().availableProcessors());
    assertThat(commit.withParallelism(3).parallelism()).isEqualTo(3);
    assertThat(commit.withParallelism(3).withDeletionVectors(false).parallelism()).isEqualTo(3);
    assertThatThrownBy(() -> commit.withParallelism(0))
        .isInstanceOf(IllegalArgumentException.class);
  }

  /**
   * The commit's actions without what differs between two writers: times, the new files' random
   * names (kept: their order, row counts and statistics, which say which rows each holds; for a
   * removed file its name where both tables share it, the initial files).
   */
  private static List<String> actions(Path table, long version) throws IOException {
    List<String> out = new ArrayList<>();
    for (String line :
        Files.readAllLines(
            table.resolve("_delta_log").resolve(String.format("%020d.json", version)))) {
      JsonNode action = JSON.readTree(line);
      if (action.has("commitInfo")) {
        ObjectNode metrics = (ObjectNode) action.path("commitInfo").path("operationMetrics");
        // Parquet files of the same rows may differ by a few bytes between two runs
        metrics.remove("numTargetBytesAdded");
        metrics.remove("numTargetBytesRemoved");
        out.add("commitInfo " + metrics);
      } else if (action.has("remove")) {
        JsonNode remove = action.path("remove");
        String name = remove.path("path").asText();
        boolean initial = Files.exists(table.resolveSibling("base").resolve(name));
        out.add("remove " + (initial ? name : "a file an earlier epoch added"));
      } else if (action.has("add")) {
        out.add("add " + action.path("add").path("stats").asText());
      } else if (action.has("cdc")) {
        out.add("cdc");
      } else if (action.has("txn")) {
        out.add("txn " + action.path("txn").path("version").asLong());
      } else {
        out.add(line);
      }
    }
    return out;
  }

  /** The change rows of {@code version} (data columns and change type), sorted. */
  private static List<List<Object>> changes(DeltaTable table, long version) {
    List<List<Object>> out = new ArrayList<>();
    for (Object[] row : DeltaChangeDataFeed.tableChanges(table, version, version)) {
      out.add(Arrays.asList(Arrays.copyOf(row, 4)));
    }
    out.sort(Comparator.comparing(Object::toString));
    return out;
  }

  private static List<List<Object>> rows(DeltaTable table) throws IOException {
    List<List<Object>> out = new ArrayList<>();
    for (Object[] row : new DeltaTableReader(table).readLatest()) {
      out.add(Arrays.asList(row));
    }
    out.sort(Comparator.comparing(r -> (Long) r.get(0)));
    return out;
  }
}
