package io.lakestream.connectors.delta.merge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakestream.connectors.delta.DeltaAddedFile;
import io.lakestream.connectors.delta.DeltaAppendCommit;
import io.lakestream.connectors.delta.DeltaDataFileReader;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.DeltaTableWriter;
import io.lakestream.connectors.delta.cdf.DeltaChangeDataFeed;
import io.lakestream.connectors.delta.kernel.KernelScanFile;
import io.lakestream.connectors.delta.maintenance.DeltaOptimize;
import io.lakestream.connectors.delta.maintenance.DeltaOptimizeResult;
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

/**
 * MERGE on the tables Databricks writes: deletion vectors (merge-on-read), row tracking, in-commit
 * timestamps and column mapping. Every epoch is checked row for row against a model, and its change
 * data feed against the model's changes.
 */
class DeltaMergeTableFeaturesTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int OP = 4;

  @TempDir Path dir;

  private static DeltaTableSchema accounts(Map<String, String> properties) {
    DeltaTableSchema.Builder b =
        DeltaTableSchema.builder()
            .column("id", ColumnType.LONG, false)
            .column("name", ColumnType.STRING)
            .column("region", ColumnType.STRING)
            .column("seq", ColumnType.LONG)
            .partitionedBy("region")
            .property("delta.enableChangeDataFeed", "true");
    properties.forEach(b::property);
    return b.build();
  }

  private static DeltaMerge upsert(DeltaTable table, DeltaTableSchema schema) {
    return DeltaMerge.into(table, schema, "id")
        .whenMatchedDelete((s, t) -> "D".equals(s[OP]))
        .whenMatchedUpdateAll()
        .whenNotMatchedInsertAll((s, t) -> !"D".equals(s[OP]))
        .build();
  }

  /** Runs random upserts and deletes over epochs, checking rows and change feed each epoch. */
  private List<Long> runModel(DeltaTable table, DeltaMergeCommit commit) throws IOException {
    Map<Long, List<Object>> model = new TreeMap<>();
    Random random = new Random(7);
    List<Long> versions = new ArrayList<>();
    long seq = 0;
    for (long epoch = 0; epoch < 6; epoch++) {
      List<Object[]> batch = new ArrayList<>();
      List<String> expectedChanges = new ArrayList<>();
      List<Long> ids = new ArrayList<>();
      for (long id = 0; id < 60; id++) {
        ids.add(id);
      }
      Collections.shuffle(ids, random);
      for (long id : ids.subList(0, epoch == 0 ? 50 : 12)) {
        boolean delete = random.nextInt(4) == 0;
        Object[] row = {id, "n" + random.nextInt(1000), "r" + (id % 3), ++seq, delete ? "D" : "U"};
        batch.add(row);
        List<Object> before = model.get(id);
        List<Object> after = Arrays.asList(Arrays.copyOf(row, 4));
        if (delete) {
          if (before != null) {
            expectedChanges.add(before + " delete");
          }
          model.remove(id);
        } else {
          expectedChanges.add(after + (before == null ? " insert" : " update_postimage"));
          if (before != null) {
            expectedChanges.add(before + " update_preimage");
          }
          model.put(id, after);
        }
      }
      DeltaMergeResult result = commit.commit(epoch, batch);
      versions.add(result.version());
      assertThat(contents(table)).as("after epoch %d", epoch).isEqualTo(model);
      assertThat(changes(table, result.version()))
          .as("change feed of epoch %d", epoch)
          .containsExactlyInAnyOrderElementsOf(expectedChanges);
    }
    return versions;
  }

  private static Map<Long, List<Object>> contents(DeltaTable table) {
    Map<Long, List<Object>> out = new TreeMap<>();
    for (Object[] row : new DeltaTableReader(table).readLatest()) {
      assertThat(out.put((Long) row[0], Arrays.asList(row))).as("duplicate id " + row[0]).isNull();
    }
    return out;
  }

  private static List<String> changes(DeltaTable table, long version) {
    List<String> out = new ArrayList<>();
    for (Object[] r : DeltaChangeDataFeed.tableChanges(table, version, version)) {
      out.add(Arrays.asList(Arrays.copyOf(r, 4)) + " " + r[4]);
    }
    return out;
  }

  private List<JsonNode> actions(DeltaTable table, long version) throws IOException {
    List<JsonNode> out = new ArrayList<>();
    Path log = Path.of(java.net.URI.create(table.path())).resolve("_delta_log");
    for (String line : Files.readAllLines(log.resolve(String.format("%020d.json", version)))) {
      out.add(JSON.readTree(line));
    }
    return out;
  }

  @Test
  void deletionVectorMergesRewriteNoFileAndMatchTheModel() throws IOException {
    DeltaTable table = DeltaTable.forPath(dir.resolve("dv").toUri().toString());
    DeltaTableSchema schema = accounts(Map.of("delta.enableDeletionVectors", "true"));
    DeltaMergeCommit commit = new DeltaMergeCommit(upsert(table, schema), "dv-app");

    List<Long> versions = runModel(table, commit);

    for (long version : versions.subList(1, versions.size())) {
      List<JsonNode> actions = actions(table, version);
      List<String> removed = paths(actions, "remove");
      assertThat(removed).isNotEmpty();
      for (JsonNode add : actions.stream().filter(a -> a.has("add")).toList()) {
        JsonNode a = add.path("add");
        if (removed.contains(a.path("path").asText())) {
          assertThat(a.path("deletionVector").path("storageType").asText()).isEqualTo("u");
          assertThat(a.path("stats").asText()).contains("\"tightBounds\":false");
        }
      }
      assertThat(paths(actions, "add")).as("files given vectors").containsAnyElementsOf(removed);
      assertThat(
              actions
                  .get(0)
                  .path("commitInfo")
                  .path("operationMetrics")
                  .path("numTargetRowsCopied")
                  .asText())
          .isEqualTo("0");
    }
  }

  private static List<String> paths(List<JsonNode> actions, String kind) {
    return actions.stream()
        .filter(a -> a.has(kind))
        .map(a -> a.path(kind).path("path").asText())
        .toList();
  }

  @Test
  void rowTrackingInCommitTimestampsAndColumnMappingAreKept() throws IOException {
    DeltaTable table = DeltaTable.forPath(dir.resolve("features").toUri().toString());
    DeltaTableSchema schema =
        accounts(
            Map.of(
                "delta.enableDeletionVectors", "true",
                "delta.enableRowTracking", "true",
                "delta.enableInCommitTimestamps", "true",
                "delta.columnMapping.mode", "name"));
    DeltaMergeCommit commit = new DeltaMergeCommit(upsert(table, schema), "rt-app");

    List<Long> versions = runModel(table, commit);

    long previous = 0;
    long highWaterMark = -1;
    for (long version : versions) {
      List<JsonNode> actions = actions(table, version);
      long ict = actions.get(0).path("commitInfo").path("inCommitTimestamp").asLong(-1);
      assertThat(ict).as("in-commit timestamp of version %d", version).isGreaterThan(previous);
      assertThat(
              new DeltaTableReader(table).snapshotAtVersion(version).getTimestamp(table.engine()))
          .isEqualTo(ict);
      previous = ict;
      for (JsonNode add : actions.stream().filter(a -> a.has("add")).toList()) {
        assertThat(add.path("add").has("baseRowId")).isTrue();
        assertThat(add.path("add").path("partitionValues").fieldNames().next())
            .as("partition values keyed by physical name")
            .startsWith("col-");
      }
      for (JsonNode domain : actions.stream().filter(a -> a.has("domainMetadata")).toList()) {
        highWaterMark =
            JSON.readTree(domain.path("domainMetadata").path("configuration").asText())
                .path("rowIdHighWaterMark")
                .asLong();
      }
    }
    assertRowIdsUnique(table, highWaterMark);
    // Kernel's own append continues above the high water mark the MERGE recorded
    DeltaAppendCommit append = new DeltaAppendCommit(table, schema, "append-app");
    append.open();
    append.commit(
        1,
        new DeltaTableWriter(table, schema)
            .write(List.<Object[]>of(new Object[] {100L, "x", "r1", 0L})));
    assertRowIdsUnique(table, Long.MAX_VALUE);
  }

  @Test
  void rowsKeepTheirRowIdsThroughCopyOnWriteAndDeletionVectorMergesAndOptimize()
      throws IOException {
    DeltaTable table = DeltaTable.forPath(dir.resolve("stable").toUri().toString());
    DeltaTableSchema schema =
        accounts(Map.of("delta.enableRowTracking", "true", "delta.enableDeletionVectors", "true"));
    DeltaMerge merge = upsert(table, schema);
    List<Object[]> inserts = new ArrayList<>();
    for (long id = 0; id < 20; id++) {
      inserts.add(new Object[] {id, "n" + id, "r" + (id % 2), 0L, "U"});
    }
    long v0 = new DeltaMergeCommit(merge, "ids").commit(0, inserts).version();
    Map<Long, List<Long>> before = rowIdentities(table);
    assertThat(before.values().stream().map(l -> l.get(1))).allMatch(v -> v == v0);

    DeltaMergeCommit copyOnWrite = new DeltaMergeCommit(merge, "ids").withDeletionVectors(false);
    long v1 =
        copyOnWrite.commit(1, List.<Object[]>of(new Object[] {3L, "x", "r1", 1L, "U"})).version();
    DeltaMergeCommit onRead = new DeltaMergeCommit(merge, "ids").withDeletionVectors(true);
    long v2 = onRead.commit(2, List.<Object[]>of(new Object[] {7L, "y", "r1", 2L, "U"})).version();
    long v3 = onRead.commit(3, List.<Object[]>of(new Object[] {3L, "z", "r1", 3L, "U"})).version();

    Map<Long, List<Long>> after = rowIdentities(table);
    assertThat(after.keySet()).isEqualTo(before.keySet());
    for (long id = 0; id < 20; id++) {
      long version = id == 3 ? v3 : id == 7 ? v2 : v0;
      assertThat(after.get(id))
          .as("row %d: its id kept (copied in %d), its commit version %d", id, v1, version)
          .containsExactly(before.get(id).get(0), version);
    }

    DeltaOptimizeResult compacted = DeltaOptimize.forTable(table).build().run();
    assertThat(compacted.status()).isEqualTo(DeltaOptimizeResult.Status.COMMITTED);
    assertThat(rowIdentities(table)).as("OPTIMIZE keeps every row's identity").isEqualTo(after);
    assertRowIdsUnique(table, Long.MAX_VALUE);
  }

  /**
   * Each row's id and commit version as the protocol defines them: the materialized columns' values
   * where set, else the file's {@code baseRowId} plus the row's index, and its default version.
   */
  private static Map<Long, List<Long>> rowIdentities(DeltaTable table) throws IOException {
    var snapshot = table.latestSnapshot().orElseThrow();
    Map<String, String> properties = snapshot.getTableProperties();
    List<String> materialized =
        List.of(
            properties.get(MergeTableFeatures.ROW_ID_COLUMN),
            properties.get(MergeTableFeatures.COMMIT_VERSION_COLUMN));
    DeltaDataFileReader reader =
        new DeltaDataFileReader(
            table,
            snapshot.getSchema().toJson(),
            snapshot.getPartitionColumnNames(),
            snapshot.getSchema().fieldNames(),
            "none",
            materialized);
    Map<Long, List<Long>> out = new TreeMap<>();
    KernelScanFile.forEach(
        table.engine(),
        snapshot.getScanBuilder().build(),
        true,
        file -> {
          DeltaAddedFile added =
              new DeltaAddedFile(
                  file.status().getPath(),
                  snapshot.getVersion(),
                  0,
                  true,
                  file.partitionValues(),
                  file.status().getSize(),
                  -1,
                  file.deletionVector());
          try (DeltaDataFileReader.Rows rows = reader.open(added)) {
            while (rows.hasNext()) {
              long id = (Long) rows.next()[0];
              Long rowId = rows.hidden(0);
              Long version = rows.hidden(1);
              out.put(
                  id,
                  List.of(
                      rowId != null ? rowId : file.baseRowId().orElseThrow() + rows.rowIndex(),
                      version != null ? version : file.defaultRowCommitVersion().orElseThrow()));
            }
          }
        });
    return out;
  }

  /** Every file's row ids [baseRowId, baseRowId + numRecords) are disjoint and under the mark. */
  private static void assertRowIdsUnique(DeltaTable table, long highWaterMark) throws IOException {
    List<long[]> ranges = new ArrayList<>();
    var snapshot = table.latestSnapshot().orElseThrow();
    KernelScanFile.forEach(
        table.engine(),
        snapshot.getScanBuilder().build(),
        true,
        file -> {
          long base = file.baseRowId().orElseThrow();
          long records = JSON.readTree(file.stats()).path("numRecords").asLong();
          assertThat(file.defaultRowCommitVersion()).isPresent();
          ranges.add(new long[] {base, base + records});
        });
    ranges.sort((a, b) -> Long.compare(a[0], b[0]));
    for (int i = 1; i < ranges.size(); i++) {
      assertThat(ranges.get(i)[0]).isGreaterThanOrEqualTo(ranges.get(i - 1)[1]);
    }
    assertThat(ranges.get(ranges.size() - 1)[1] - 1).isLessThanOrEqualTo(highWaterMark);
  }
}
