package io.lakestream.connectors.delta.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.delta.DeltaAppendCommit;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.DeltaTableWriter;
import io.lakestream.connectors.delta.cdf.DeltaChangeDataFeed;
import io.lakestream.connectors.delta.filter.DeltaFilter;
import io.lakestream.connectors.delta.merge.DeltaMerge;
import io.lakestream.connectors.delta.merge.DeltaMergeCommit;
import io.lakestream.connectors.delta.merge.DeltaMergeResult;
import io.lakestream.connectors.delta.merge.MergeTestHooks;
import io.lakestream.connectors.schema.ColumnType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * OPTIMIZE on real Delta tables: many small epochs become a few files with the same rows and no
 * change rows; a WHERE limits it to partitions (and only takes partition columns); a compaction
 * loses to a commit that removed one of its files and rebases over a plain append; a MERGE that
 * loses to a compaction plans again. The commit records Spark's OPTIMIZE parameters and metrics.
 */
class DeltaOptimizeTest {
  private static final DeltaTableSchema EVENTS =
      DeltaTableSchema.builder()
          .column("id", ColumnType.LONG, false)
          .column("amount", ColumnType.LONG)
          .column("p", ColumnType.STRING)
          .partitionedBy("p")
          .property("delta.enableChangeDataFeed", "true")
          .build();

  @TempDir Path dir;
  private DeltaTable table;
  private long nextId;
  private long epochs;

  @BeforeEach
  void setUp() {
    table = DeltaTable.forPath(dir.resolve("events").toUri().toString());
  }

  /** One epoch: {@code rows} rows over both partitions, one file each. */
  private void appendEpoch(int rows) throws Exception {
    List<Object[]> batch = new ArrayList<>();
    for (int i = 0; i < rows; i++, nextId++) {
      batch.add(new Object[] {nextId, nextId * 10, "p" + (nextId % 2)});
    }
    DeltaAppendCommit commit = new DeltaAppendCommit(table, EVENTS, "writer");
    commit.open();
    commit.commit(++epochs, new DeltaTableWriter(table, EVENTS).write(batch));
  }

  private List<List<Object>> rows() {
    List<Object[]> rows = new ArrayList<>(new DeltaTableReader(table).readLatest());
    rows.sort(Comparator.comparingLong(r -> (Long) r[0]));
    return rows.stream().map(Arrays::asList).toList();
  }

  private long latest() {
    return new DeltaTableReader(table).latestVersion();
  }

  private JsonNode commitInfo(long version) throws Exception {
    for (String line :
        Files.readAllLines(
            dir.resolve("events/_delta_log/" + String.format("%020d.json", version)))) {
      JsonNode action = MaintenanceCommitFile.JSON.readTree(line);
      if (action.has("commitInfo")) {
        return action.get("commitInfo");
      }
    }
    throw new AssertionError("no commitInfo in version " + version);
  }

  @Test
  void manySmallEpochsBecomeAFileAPartitionWithTheSameRowsAndNoChangeRows() throws Exception {
    for (int e = 0; e < 30; e++) {
      appendEpoch(6);
    }
    List<List<Object>> before = rows();
    long beforeVersion = latest();
    assertThat(DeltaMaintenanceFiles.count(table)).isEqualTo(60);

    DeltaOptimizeResult result = DeltaOptimize.forTable(table).build().run();

    assertThat(result.status()).isEqualTo(DeltaOptimizeResult.Status.COMMITTED);
    assertThat(result.filesRemoved()).isEqualTo(60);
    assertThat(result.filesAdded()).isEqualTo(2);
    assertThat(result.partitions()).isEqualTo(2);
    assertThat(DeltaMaintenanceFiles.count(table)).isEqualTo(2);
    assertThat(rows()).isEqualTo(before);
    assertThat(DeltaChangeDataFeed.tableChanges(table, result.version(), result.version()))
        .as("a compaction changes no row")
        .isEmpty();
    assertThat(new DeltaTableReader(table).readVersion(beforeVersion)).hasSize(before.size());
    JsonNode info = commitInfo(result.version());
    assertThat(info.path("operation").asText()).isEqualTo("OPTIMIZE");
    assertThat(info.at("/operationParameters/auto").asText()).isEqualTo("false");
    assertThat(info.at("/operationMetrics/numRemovedFiles").asText()).isEqualTo("60");
    assertThat(info.at("/operationMetrics/numAddedFiles").asText()).isEqualTo("2");

    assertThat(DeltaOptimize.forTable(table).build().run().status())
        .as("the second run finds nothing small to pack")
        .isEqualTo(DeltaOptimizeResult.Status.NOTHING_TO_COMPACT);
  }

  @Test
  void whereLimitsItToPartitionsAndTakesPartitionColumnsOnly() throws Exception {
    for (int e = 0; e < 5; e++) {
      appendEpoch(4);
    }
    DeltaOptimizeResult result =
        DeltaOptimize.forTable(table).where(DeltaFilter.equalTo("p", "p1")).build().run();
    assertThat(result.filesRemoved()).isEqualTo(5);
    assertThat(DeltaMaintenanceFiles.count(table)).isEqualTo(6); // p0's 5, p1's 1
    assertThat(commitInfo(result.version()).at("/operationParameters/predicate").asText())
        .contains("p")
        .contains("p1");

    assertThatThrownBy(
            () ->
                DeltaOptimize.forTable(table)
                    .where(DeltaFilter.greaterThan("amount", 5L))
                    .build()
                    .run())
        .isInstanceOf(LakestreamException.class)
        .hasMessageStartingWith("[DELTA_INVALID_MAINTENANCE]")
        .hasMessageContaining("'amount', which is not a partition column ([p])");
  }

  @Test
  void aWherePredicateAsSqlWritesItIsReadWithTheColumnsTypes() throws Exception {
    for (int e = 0; e < 3; e++) {
      appendEpoch(4);
    }
    DeltaOptimizeResult result =
        DeltaOptimize.forTable(table).where("P IN ('p0', 'p9') AND p <> 'p1'").build().run();
    assertThat(result.filesRemoved()).isEqualTo(3);
    assertThat(commitInfo(result.version()).at("/operationParameters/predicate").asText())
        .isEqualTo("[\"P IN ('p0', 'p9') AND p <> 'p1'\"]");
    assertThatThrownBy(() -> DeltaOptimize.forTable(table).where("p ~ 'x'").build().run())
        .hasMessageStartingWith("[DELTA_INVALID_MAINTENANCE] OPTIMIZE WHERE: cannot read 'p ~ 'x''")
        .hasMessageContaining("e.g. day >= '2026-12-01' AND region IN ('eu', 'us')");
    assertThatThrownBy(() -> DeltaOptimize.forTable(table).where("id = 'seven'").build().run())
        .hasMessageContaining(
            "'seven' in the predicate \"id = 'seven'\" is not a value of column 'id'");
  }

  @Test
  void aCompactionLosesToACommitThatRemovedItsFilesAndRebasesOverAnAppend() throws Exception {
    for (int e = 0; e < 4; e++) {
      appendEpoch(4);
    }
    DeltaOptimize rebased = DeltaOptimize.forTable(table).build().afterRewrite(this::appendOnce);
    DeltaOptimizeResult overAppend = rebased.run();
    assertThat(overAppend.status()).isEqualTo(DeltaOptimizeResult.Status.COMMITTED);
    assertThat(overAppend.version()).isEqualTo(overAppend.readVersion() + 2);
    assertThat(rows()).hasSize(20);

    for (int e = 0; e < 3; e++) {
      appendEpoch(4);
    }
    DeltaMergeCommit merge = deleteMerge("merge-app");
    DeltaOptimize lost =
        DeltaOptimize.forTable(table)
            .build()
            .afterRewrite(
                () ->
                    commitQuietly(
                        merge, java.util.Collections.singletonList(new Object[] {21L, 0L, "p1"})));
    List<List<Object>> expected = new ArrayList<>(rows());
    expected.removeIf(r -> r.get(0).equals(21L));
    assertThat(lost.run().status()).isEqualTo(DeltaOptimizeResult.Status.LOST_TO_CONCURRENT_COMMIT);
    assertThat(rows()).isEqualTo(expected);
  }

  @Test
  void aMergeThatLosesToACompactionPlansAgainOnIt() throws Exception {
    for (int e = 0; e < 4; e++) {
      appendEpoch(4);
    }
    List<List<Object>> expected = new ArrayList<>(rows());
    expected.removeIf(r -> r.get(0).equals(5L));
    DeltaMerge merge =
        DeltaMerge.into(table, EVENTS, "id").whenMatchedDelete((s, t) -> true).build();
    DeltaMergeCommit commit = new DeltaMergeCommit(merge, "merge-app");
    MergeTestHooks.afterPlanning(commit, this::optimizeOnce);
    DeltaMergeResult result =
        commit.commit(1, java.util.Collections.singletonList(new Object[] {5L, 0L, "p1"}));
    assertThat(result.status()).isEqualTo(DeltaMergeResult.Status.COMMITTED);
    assertThat(rows()).isEqualTo(expected);
    assertThat(DeltaMaintenanceFiles.count(table)).isLessThanOrEqualTo(3);
  }

  @Test
  void rowsADeletionVectorDeletesArePurgedWhenItsFileIsRewritten() throws Exception {
    DeltaTableSchema withVectors =
        DeltaTableSchema.builder()
            .column("id", ColumnType.LONG, false)
            .column("amount", ColumnType.LONG)
            .column("p", ColumnType.STRING)
            .partitionedBy("p")
            .property("delta.enableDeletionVectors", "true")
            .build();
    List<Object[]> batch = new ArrayList<>();
    for (long id = 0; id < 40; id++) {
      batch.add(new Object[] {id, id * 10, "p" + (id % 2)});
    }
    DeltaAppendCommit append = new DeltaAppendCommit(table, withVectors, "writer");
    append.open();
    append.commit(1, new DeltaTableWriter(table, withVectors).write(batch));
    DeltaMergeCommit delete =
        new DeltaMergeCommit(
            DeltaMerge.into(table, withVectors, "id").whenMatchedDelete((s, t) -> true).build(),
            "deleter");
    delete.commit(
        1,
        List.of(
            new Object[] {0L, 0L, "p0"},
            new Object[] {1L, 0L, "p1"},
            new Object[] {3L, 0L, "p1"},
            new Object[] {5L, 0L, "p1"},
            new Object[] {7L, 0L, "p1"}));
    List<List<Object>> before = rows();
    assertThat(before).hasSize(35);

    DeltaOptimizeResult purged = DeltaOptimize.forTable(table).build().run();
    assertThat(purged.filesRemoved())
        .as("a partition's single small file is rewritten for its deletion vector")
        .isEqualTo(2);
    assertThat(rows()).isEqualTo(before);
    assertThat(
            commitInfo(purged.version()).at("/operationMetrics/numDeletionVectorsRemoved").asText())
        .isEqualTo("2");
    String log =
        Files.readString(
            dir.resolve("events/_delta_log/" + String.format("%020d.json", purged.version())));
    assertThat(log.lines().filter(l -> l.startsWith("{\"remove\"")))
        .allMatch(l -> l.contains("\"deletionVector\""));
    assertThat(log.lines().filter(l -> l.startsWith("{\"add\"")))
        .noneMatch(l -> l.contains("deletionVector"));
  }

  private boolean optimized;

  private void optimizeOnce() {
    if (!optimized) {
      optimized = true;
      try {
        assertThat(DeltaOptimize.forTable(table).build().run().status())
            .isEqualTo(DeltaOptimizeResult.Status.COMMITTED);
      } catch (Exception e) {
        throw new AssertionError(e);
      }
    }
  }

  private void appendOnce() {
    try {
      appendEpoch(4);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  private DeltaMergeCommit deleteMerge(String appId) {
    DeltaMerge merge =
        DeltaMerge.into(table, EVENTS, "id").whenMatchedDelete((s, t) -> true).build();
    return new DeltaMergeCommit(merge, appId);
  }

  private static void commitQuietly(DeltaMergeCommit merge, List<Object[]> rows) {
    try {
      merge.commit(1, rows);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }
}
