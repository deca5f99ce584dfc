package io.lakestream.connectors.delta.merge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.delta.DeltaAppendCommit;
import io.lakestream.connectors.delta.DeltaCommitConflictException;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.DeltaTableWriter;
import io.lakestream.connectors.schema.ColumnType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DeltaMergeCommitTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Index of the source-only "op" column (D = delete) after the table's 4 columns. */
  private static final int OP = 4;

  @TempDir Path dir;

  private static DeltaTableSchema accounts(boolean cdf) {
    DeltaTableSchema.Builder b =
        DeltaTableSchema.builder()
            .column("id", ColumnType.LONG, false)
            .column("name", ColumnType.STRING)
            .column("balance", ColumnType.LONG)
            .column("seq", ColumnType.LONG);
    if (cdf) {
      b.property("delta.enableChangeDataFeed", "true");
    }
    return b.build();
  }

  private static Object[] src(long id, String name, long balance, long seq, String op) {
    return new Object[] {id, name, balance, seq, op};
  }

  private static List<Object[]> batch(Object[]... rows) {
    return Arrays.asList(rows);
  }

  /** Upsert all, delete when op = D (deletes of absent keys are not inserted). */
  private static DeltaMerge upsertMerge(DeltaTable table, DeltaTableSchema schema) {
    return DeltaMerge.into(table, schema, "id")
        .whenMatchedDelete((s, t) -> "D".equals(s[OP]))
        .whenMatchedUpdateAll()
        .whenNotMatchedInsertAll((s, t) -> !"D".equals(s[OP]))
        .build();
  }

  private static Map<Long, List<Object>> contents(DeltaTable table) throws IOException {
    Map<Long, List<Object>> out = new TreeMap<>();
    for (Object[] row : new DeltaTableReader(table).readLatest()) {
      assertThat(out.put((Long) row[0], Arrays.asList(row))).as("duplicate id " + row[0]).isNull();
    }
    return out;
  }

  private List<JsonNode> commitActions(String tablePath, long version) throws IOException {
    List<JsonNode> actions = new ArrayList<>();
    for (String line :
        Files.readAllLines(
            Path.of(tablePath, "_delta_log", String.format("%020d.json", version)))) {
      actions.add(JSON.readTree(line));
    }
    return actions;
  }

  private static long count(List<JsonNode> actions, String type) {
    return actions.stream().filter(a -> a.has(type)).count();
  }

  @Test
  void randomUpsertsAndDeletesOverEpochsMatchAReferenceModel() throws IOException {
    String path = dir.resolve("model").toString();
    DeltaTable table = DeltaTable.forPath(path);
    DeltaTableSchema schema = accounts(true);
    DeltaMergeCommit commit = new DeltaMergeCommit(upsertMerge(table, schema), "model-app");
    Map<Long, List<Object>> model = new TreeMap<>();
    Random random = new Random(42);
    long seq = 0;
    for (long epoch = 0; epoch < 8; epoch++) {
      List<Object[]> batch = new ArrayList<>();
      List<Long> ids = new ArrayList<>();
      for (long id = 0; id < 60; id++) {
        ids.add(id);
      }
      Collections.shuffle(ids, random);
      for (long id : ids.subList(0, 25)) {
        boolean delete = random.nextInt(4) == 0;
        Object[] row =
            src(id, "n" + random.nextInt(1000), random.nextInt(10_000), ++seq, delete ? "D" : "U");
        batch.add(row);
        if (delete) {
          model.remove(id);
        } else {
          model.put(id, Arrays.asList(Arrays.copyOf(row, 4)));
        }
      }
      DeltaMergeResult result = commit.commit(epoch, batch);
      assertThat(result.status()).isEqualTo(DeltaMergeResult.Status.COMMITTED);
      assertThat(contents(table)).as("after epoch " + epoch).isEqualTo(model);
      List<JsonNode> actions = commitActions(path, result.version());
      assertThat(actions.get(0).path("commitInfo").path("operation").asText()).isEqualTo("MERGE");
      JsonNode txn = actions.stream().filter(a -> a.has("txn")).findFirst().orElseThrow();
      assertThat(txn.path("txn").path("appId").asText()).isEqualTo("model-app");
      assertThat(txn.path("txn").path("version").asLong()).isEqualTo(epoch);
      if (result.rowsUpdated() + result.rowsDeleted() > 0) {
        assertThat(count(actions, "cdc")).isPositive();
        assertThat(actions.stream().filter(a -> a.has("cdc")))
            .allSatisfy(
                a -> {
                  assertThat(a.path("cdc").path("path").asText()).startsWith("_change_data/");
                  assertThat(a.path("cdc").path("dataChange").asBoolean(true)).isFalse();
                });
      } else {
        assertThat(count(actions, "cdc")).isZero();
      }
      assertThat(actions.stream().filter(a -> a.has("remove")))
          .allSatisfy(
              a -> {
                assertThat(a.path("remove").path("dataChange").asBoolean()).isTrue();
                assertThat(a.path("remove").has("deletionTimestamp")).isTrue();
                assertThat(a.path("remove").has("size")).isTrue();
              });
      assertThat(actions.stream().filter(a -> a.has("add")))
          .allSatisfy(a -> assertThat(a.path("add").path("stats").asText()).contains("numRecords"));
    }
  }

  @Test
  void duplicateSourceKeysFailNamingTheKeyAndTheOption() throws IOException {
    DeltaTable table = DeltaTable.forPath(dir.resolve("dup").toString());
    DeltaTableSchema schema = accounts(false);
    DeltaMergeCommit commit = new DeltaMergeCommit(upsertMerge(table, schema), "dup-app");
    List<Object[]> batch =
        batch(src(1, "a", 1, 1, "U"), src(7, "b", 2, 2, "U"), src(7, "c", 3, 3, "U"));
    assertThatThrownBy(() -> commit.commit(0, batch))
        .isInstanceOf(DuplicateMergeKeyException.class)
        .hasMessageContaining("{id=7}")
        .hasMessageContaining("lastByOrderingColumn")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("DELTA_DUPLICATE_MERGE_KEY");
    assertThat(new DeltaTableReader(table).readLatest()).isEmpty();
  }

  @Test
  void lastByOrderingColumnIsDeterministicWhateverTheRowOrder() throws IOException {
    DeltaTableSchema schema = accounts(false);
    List<Object[]> batch = new ArrayList<>();
    for (long seq = 0; seq < 30; seq++) {
      batch.add(src(seq % 3, "v" + seq, seq * 10, seq, "U"));
    }
    batch.add(src(2, "tie-a", 999, 29, "U")); // ties with seq 29 of id 2: broken by row values
    Map<Long, List<Object>> first = null;
    for (int run = 0; run < 3; run++) {
      DeltaTable table = DeltaTable.forPath(dir.resolve("order" + run).toString());
      DeltaMerge merge =
          DeltaMerge.into(table, schema, "id")
              .whenMatchedUpdateAll()
              .whenNotMatchedInsertAll()
              .lastByOrderingColumn("seq")
              .build();
      List<Object[]> shuffled = new ArrayList<>(batch);
      Collections.shuffle(shuffled, new Random(run));
      new DeltaMergeCommit(merge, "order-app").commit(0, shuffled);
      Map<Long, List<Object>> rows = contents(table);
      assertThat(rows.get(0L).get(3)).isEqualTo(27L);
      assertThat(rows.get(1L).get(3)).isEqualTo(28L);
      if (first == null) {
        first = rows;
      }
      assertThat(rows).isEqualTo(first);
    }
  }

  @Test
  void aReplayedEpochIsANoOp() throws IOException {
    String path = dir.resolve("replay").toString();
    DeltaTable table = DeltaTable.forPath(path);
    DeltaMergeCommit commit = new DeltaMergeCommit(upsertMerge(table, accounts(true)), "replay");
    commit.commit(0, batch(src(1, "a", 10, 1, "U"), src(2, "b", 20, 2, "U")));
    DeltaMergeResult first = commit.commit(1, batch(src(1, "a", 11, 3, "U")));
    long version = new DeltaTableReader(table).latestVersion();
    Map<Long, List<Object>> before = contents(table);

    DeltaMergeResult again = commit.commit(1, batch(src(1, "a", 11, 3, "U")));

    assertThat(first.status()).isEqualTo(DeltaMergeResult.Status.COMMITTED);
    assertThat(again.status()).isEqualTo(DeltaMergeResult.Status.ALREADY_COMMITTED);
    assertThat(new DeltaTableReader(table).latestVersion()).isEqualTo(version);
    assertThat(contents(table)).isEqualTo(before);
    // an older epoch is skipped too
    assertThat(commit.commit(0, batch(src(9, "z", 1, 1, "U"))).status())
        .isEqualTo(DeltaMergeResult.Status.ALREADY_COMMITTED);
  }

  @Test
  void aMergeTouchingOneKeyRewritesOnlyTheFileHoldingIt() throws IOException {
    String path = dir.resolve("prune").toString();
    DeltaTable table = DeltaTable.forPath(path);
    DeltaTableSchema schema = accounts(true);
    DeltaMergeCommit commit = new DeltaMergeCommit(upsertMerge(table, schema), "prune");
    for (long epoch = 0; epoch < 10; epoch++) { // 10 files, ids 100*epoch .. 100*epoch+49
      List<Object[]> batch = new ArrayList<>();
      for (long id = epoch * 100; id < epoch * 100 + 50; id++) {
        batch.add(src(id, "n", id, 0, "U"));
      }
      assertThat(commit.commit(epoch, batch).filesAdded()).isEqualTo(1);
    }
    DeltaMergeResult result = commit.commit(10, batch(src(512, "changed", -1, 1, "U")));

    assertThat(result.filesInTable()).isEqualTo(10);
    assertThat(result.candidateFiles()).isEqualTo(1);
    List<JsonNode> actions = commitActions(path, result.version());
    assertThat(count(actions, "remove")).isEqualTo(1);
    assertThat(count(actions, "add")).isEqualTo(1);
    assertThat(count(actions, "cdc")).isEqualTo(1);
    JsonNode removed = actions.stream().filter(a -> a.has("remove")).findFirst().orElseThrow();
    JsonNode stats = JSON.readTree(removed.path("remove").path("stats").asText());
    assertThat(stats.path("minValues").path("id").asLong()).isEqualTo(500);
    JsonNode added = actions.stream().filter(a -> a.has("add")).findFirst().orElseThrow();
    assertThat(JSON.readTree(added.path("add").path("stats").asText()).path("numRecords").asLong())
        .isEqualTo(50);
    Map<Long, List<Object>> rows = contents(table);
    assertThat(rows).hasSize(500);

    assertThat(rows.get(512L)).containsExactly(512L, "changed", -1L, 1L);

    // a key outside every file's range reads no file and only adds one
    DeltaMergeResult insert = commit.commit(11, batch(src(5000, "new", 1, 1, "U")));
    assertThat(insert.candidateFiles()).isZero();
    List<JsonNode> insertActions = commitActions(path, insert.version());
    assertThat(count(insertActions, "remove")).isZero();
    assertThat(count(insertActions, "cdc")).isZero(); // insert-only: adds are the change feed
    assertThat(count(insertActions, "add")).isEqualTo(1);

    // an update plus an insert: the rewritten file keeps its key range, the insert gets its own
    DeltaMergeResult mixed =
        commit.commit(12, batch(src(520, "u", 1, 2, "U"), src(7000, "i", 1, 2, "U")));
    assertThat(mixed.filesRemoved()).isEqualTo(1);
    assertThat(mixed.filesAdded()).isEqualTo(2);
    assertThat(
            commitActions(path, mixed.version()).stream()
                .filter(a -> a.has("add"))
                .map(a -> a.path("add").path("stats").asText())
                .toList())
        .anySatisfy(s -> assertThat(s).contains("\"maxValues\":{\"id\":549"))
        .anySatisfy(s -> assertThat(s).contains("\"minValues\":{\"id\":7000"));
  }

  @Test
  void partitionValuesPruneFilesWhenTheKeyHoldsThePartitionColumn() throws IOException {
    DeltaTableSchema schema =
        DeltaTableSchema.builder()
            .column("region", ColumnType.STRING, false)
            .column("id", ColumnType.LONG, false)
            .column("v", ColumnType.LONG)
            .partitionedBy("region")
            .property("delta.enableChangeDataFeed", "true")
            .build();
    String path = dir.resolve("parts").toString();
    DeltaTable table = DeltaTable.forPath(path);
    DeltaMergeCommit commit =
        new DeltaMergeCommit(
            DeltaMerge.into(table, schema, "region", "id")
                .whenMatchedUpdate((s, t) -> new Object[] {t[0], t[1], (Long) t[2] + (Long) s[2]})
                .whenNotMatchedInsertAll()
                .build(),
            "parts");
    List<Object[]> rows = new ArrayList<>();
    for (String region : List.of("eu", "us", "ap")) {
      for (long id = 0; id < 5; id++) {
        rows.add(new Object[] {region, id, 1L});
      }
    }
    commit.commit(0, rows);
    DeltaMergeResult result = commit.commit(1, List.<Object[]>of(new Object[] {"us", 3L, 5L}));
    assertThat(result.filesInTable()).isEqualTo(3);
    assertThat(result.candidateFiles()).isEqualTo(1);
    assertThat(result.filesRemoved()).isEqualTo(1);
    List<JsonNode> actions = commitActions(path, result.version());
    JsonNode remove = actions.stream().filter(a -> a.has("remove")).findFirst().orElseThrow();
    assertThat(remove.path("remove").path("partitionValues").path("region").asText())
        .isEqualTo("us");
    JsonNode cdc = actions.stream().filter(a -> a.has("cdc")).findFirst().orElseThrow();
    assertThat(cdc.path("cdc").path("partitionValues").path("region").asText()).isEqualTo("us");
    List<Object[]> read = new DeltaTableReader(table).readLatest();
    assertThat(read).hasSize(15);
    assertThat(read)
        .filteredOn(r -> r[0].equals("us") && r[1].equals(3L))
        .singleElement()
        .satisfies(r -> assertThat(r[2]).isEqualTo(6L));
  }

  @Test
  void aConcurrentAppendOfOtherKeysIsKeptAndTheMergeRebasesOnIt() throws IOException {
    String path = dir.resolve("concurrent").toString();
    DeltaTable table = DeltaTable.forPath(path);
    DeltaTableSchema schema = accounts(true);
    DeltaMergeCommit commit = new DeltaMergeCommit(upsertMerge(table, schema), "merger");
    commit.commit(0, batch(src(1, "a", 1, 1, "U"), src(2, "b", 2, 2, "U")));
    PreparedMerge prepared =
        commit.prepare(1, batch(src(1, "a2", 10, 3, "U"), src(3, "c", 3, 4, "U")));

    // another writer appends ids 100..102 before the merge commits
    DeltaTableWriter writer = new DeltaTableWriter(table, schema);
    new DeltaAppendCommit(table, schema, "batch-job")
        .commit(
            0,
            writer.write(
                List.of(
                    new Object[] {100L, "x", 0L, 0L},
                    new Object[] {101L, "y", 0L, 0L},
                    new Object[] {102L, "z", 0L, 0L})));

    DeltaMergeResult result = commit.commitPrepared(prepared);

    assertThat(result.status()).isEqualTo(DeltaMergeResult.Status.COMMITTED);
    assertThat(result.attempts()).isEqualTo(2);
    assertThat(result.version()).isEqualTo(prepared.readVersion() + 2);
    assertThat(contents(table).keySet()).containsExactly(1L, 2L, 3L, 100L, 101L, 102L);
    assertThat(contents(table).get(1L)).containsExactly(1L, "a2", 10L, 3L);
  }

  @Test
  void aConcurrentAppendOfAMergedKeyIsAConflictAndTheRetriedEpochSeesIt() throws IOException {
    String path = dir.resolve("conflict").toString();
    DeltaTable table = DeltaTable.forPath(path);
    DeltaTableSchema schema = accounts(false);
    DeltaMergeCommit commit = new DeltaMergeCommit(upsertMerge(table, schema), "merger");
    commit.commit(0, batch(src(1, "a", 1, 1, "U")));
    PreparedMerge prepared = commit.prepare(1, batch(src(5, "mine", 50, 2, "U")));
    new DeltaAppendCommit(table, schema, "batch-job")
        .commit(
            0,
            new DeltaTableWriter(table, schema)
                .write(List.<Object[]>of(new Object[] {5L, "theirs", 5L, 0L})));

    assertThatThrownBy(() -> commit.commitPrepared(prepared))
        .isInstanceOf(DeltaCommitConflictException.class)
        .hasMessageContaining("conflicts with version " + (prepared.readVersion() + 1))
        .hasMessageContaining("may hold rows with keys of this MERGE batch")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("DELTA_CONCURRENT_APPEND");
    assertThat(contents(table).get(5L)).containsExactly(5L, "theirs", 5L, 0L);

    // the epoch run again is planned on the new version: it updates the appended row
    assertThat(commit.commit(1, batch(src(5, "mine", 50, 2, "U"))).rowsUpdated()).isEqualTo(1);
    assertThat(contents(table).keySet()).containsExactly(1L, 5L);
    assertThat(contents(table).get(5L)).containsExactly(5L, "mine", 50L, 2L);
  }

  @Test
  void commitPlansAgainOnTheNewVersionWhenAConcurrentAppendConflicts() throws IOException {
    DeltaTable table = DeltaTable.forPath(dir.resolve("replan").toString());
    DeltaTableSchema schema = accounts(false);
    DeltaMergeCommit commit = new DeltaMergeCommit(upsertMerge(table, schema), "merger");
    commit.commit(0, batch(src(1, "a", 1, 1, "U")));
    int[] appends = {0};
    commit.afterPlanning(
        () -> {
          if (appends[0] < DeltaMergeCommit.MAX_REPLANS) { // every plan but the last one loses
            new DeltaAppendCommit(table, schema, "batch-job")
                .commit(
                    appends[0],
                    new DeltaTableWriter(table, schema)
                        .write(
                            List.<Object[]>of(new Object[] {5L, "theirs-" + appends[0], 5L, 0L})));
            appends[0]++;
          }
        });
    DeltaMergeResult result = commit.commit(1, batch(src(5, "mine", 50, 2, "U")));
    assertThat(result.status()).isEqualTo(DeltaMergeResult.Status.COMMITTED);
    assertThat(appends[0]).isEqualTo(DeltaMergeCommit.MAX_REPLANS);
    // the appended rows stand and the MERGE applied after them: key 5 appears once per append,
    // every copy updated
    List<Object[]> rows = new DeltaTableReader(table).readLatest();
    assertThat(rows).hasSize(1 + DeltaMergeCommit.MAX_REPLANS);
    assertThat(rows.stream().filter(r -> r[0].equals(5L)))
        .allSatisfy(r -> assertThat(r).containsExactly(5L, "mine", 50L, 2L));

    commit.afterPlanning(
        () -> {
          new DeltaAppendCommit(table, schema, "batch-job")
              .commit(
                  appends[0]++,
                  new DeltaTableWriter(table, schema)
                      .write(List.<Object[]>of(new Object[] {6L, "theirs", 6L, 0L})));
        });
    assertThatThrownBy(() -> commit.commit(2, batch(src(6, "mine", 60, 3, "U"))))
        .isInstanceOf(DeltaCommitConflictException.class)
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("DELTA_CONCURRENT_APPEND");
  }

  @Test
  void twoMergesRewritingOneFileConflictAndTheWinnerStands() throws IOException {
    String path = dir.resolve("two").toString();
    DeltaTable table = DeltaTable.forPath(path);
    DeltaTableSchema schema = accounts(true);
    DeltaMergeCommit a = new DeltaMergeCommit(upsertMerge(table, schema), "app-a");
    DeltaMergeCommit b = new DeltaMergeCommit(upsertMerge(table, schema), "app-b");
    a.commit(0, batch(src(1, "a", 1, 1, "U"), src(2, "b", 2, 2, "U")));
    PreparedMerge fromA = a.prepare(1, batch(src(1, "from-a", 1, 3, "U")));
    PreparedMerge fromB = b.prepare(0, batch(src(2, "from-b", 2, 4, "U")));
    assertThat(b.commitPrepared(fromB).status()).isEqualTo(DeltaMergeResult.Status.COMMITTED);
    assertThatThrownBy(() -> a.commitPrepared(fromA))
        .isInstanceOf(DeltaCommitConflictException.class)
        .hasMessageContaining("which this MERGE rewrites")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("DELTA_CONCURRENT_APPEND");
    assertThat(contents(table).get(2L)).containsExactly(2L, "from-b", 2L, 4L);
    assertThat(contents(table).get(1L)).containsExactly(1L, "a", 1L, 1L);
  }

  @Test
  void anUpdateThatChangesTheKeyIsRefused() throws IOException {
    DeltaTable table = DeltaTable.forPath(dir.resolve("key").toString());
    DeltaTableSchema schema = accounts(false);
    DeltaMergeCommit commit =
        new DeltaMergeCommit(
            DeltaMerge.into(table, schema, "id")
                .whenMatchedUpdate((s, t) -> new Object[] {99L, t[1], t[2], t[3]})
                .whenNotMatchedInsertAll()
                .build(),
            "key");
    commit.commit(0, batch(src(1, "a", 1, 1, "U")));
    assertThatThrownBy(() -> commit.commit(1, batch(src(1, "a", 1, 1, "U"))))
        .isInstanceOf(LakestreamException.class)
        .hasMessageContaining("changed the merge key {id=1}")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("DELTA_INVALID_MERGE");
  }

  @Test
  void theBuilderRejectsUnknownColumnsAndUnreachableClauses() {
    DeltaTable table = DeltaTable.forPath(dir.resolve("b").toString());
    DeltaTableSchema schema = accounts(false);
    assertThatThrownBy(() -> DeltaMerge.into(table, schema, "nope").whenMatchedDelete().build())
        .hasMessageContaining("Key column 'nope'")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("DELTA_INVALID_MERGE");
    assertThatThrownBy(
            () ->
                DeltaMerge.into(table, schema, "id")
                    .whenMatchedDelete()
                    .whenMatchedUpdateAll()
                    .build())
        .hasMessageContaining("could never apply")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("DELTA_INVALID_MERGE");
    assertThatThrownBy(
            () ->
                DeltaMerge.into(table, schema, "id")
                    .whenMatchedUpdateAll()
                    .lastByOrderingColumn("ts")
                    .build())
        .hasMessageContaining("lastByOrderingColumn")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("DELTA_INVALID_MERGE");
  }
}
