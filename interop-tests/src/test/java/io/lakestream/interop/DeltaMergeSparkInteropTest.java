package io.lakestream.interop;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.merge.DeltaMerge;
import io.lakestream.connectors.delta.merge.DeltaMergeCommit;
import io.lakestream.connectors.delta.merge.DeltaMergeResult;
import io.lakestream.connectors.schema.ColumnType;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Tables merged by lakestream's {@link DeltaMergeCommit} (copy-on-write, and with deletion
 * vectors), read back with delta-spark: the table equals a reference model, and the change data
 * feed ({@code table_changes}) returns exactly the expected change rows per version.
 */
class DeltaMergeSparkInteropTest {
  private static final int OP = 4; // source-only column: "D" deletes
  private static SparkSession spark;

  @TempDir Path dir;

  @BeforeAll
  static void startSpark() {
    spark = InteropSpark.session();
  }

  private static DeltaTableSchema accounts() {
    return accounts(false);
  }

  /** The accounts table; with {@code deletionVectors}, MERGE marks rows deleted (merge-on-read). */
  private static DeltaTableSchema accounts(boolean deletionVectors) {
    DeltaTableSchema.Builder b =
        DeltaTableSchema.builder()
            .column("id", ColumnType.LONG, false)
            .column("region", ColumnType.STRING)
            .column("name", ColumnType.STRING)
            .column("balance", ColumnType.LONG)
            .partitionedBy("region")
            .property("delta.enableChangeDataFeed", "true");
    if (deletionVectors) {
      b.property("delta.enableDeletionVectors", "true");
    }
    return b.build();
  }

  private static String text(Object[] row) {
    return row[0] + "|" + row[1] + "|" + row[2] + "|" + row[3];
  }

  @ParameterizedTest(name = "deletion vectors: {0}")
  @ValueSource(booleans = {false, true})
  void sparkReadsTheMergedTableAndItsChangeDataFeedExactly(boolean deletionVectors)
      throws IOException {
    String path = dir.resolve("merged").toString();
    DeltaTable table = DeltaTable.forPath(path);
    DeltaTableSchema schema = accounts(deletionVectors);
    DeltaMergeCommit commit =
        new DeltaMergeCommit(
            DeltaMerge.into(table, schema, "id")
                .whenMatchedDelete((s, t) -> "D".equals(s[OP]))
                .whenMatchedUpdateAll()
                .whenNotMatchedInsertAll((s, t) -> !"D".equals(s[OP]))
                .build(),
            "interop-merge");
    Map<Long, Object[]> model = new TreeMap<>();
    List<String> expectedChanges = new ArrayList<>();
    Random random = new Random(7);
    List<String> regions = List.of("eu", "us", "ap");
    long firstVersion = -1;
    long lastVersion = -1;
    for (long epoch = 0; epoch < 6; epoch++) {
      List<Long> ids = new ArrayList<>();
      for (long id = 0; id < 40; id++) {
        ids.add(id);
      }
      Collections.shuffle(ids, random);
      List<Object[]> batch = new ArrayList<>();
      List<String[]> changes = new ArrayList<>(); // type, row text
      for (long id : ids.subList(0, epoch == 0 ? 30 : 12)) {
        boolean delete = epoch > 0 && random.nextInt(3) == 0;
        Object[] row = {
          id,
          regions.get(random.nextInt(3)), // an update may move a row to another partition
          "n" + random.nextInt(100),
          (long) random.nextInt(1000),
          delete ? "D" : "U"
        };
        batch.add(row);
        Object[] old = model.get(id);
        Object[] after = Arrays.copyOf(row, 4);
        if (old != null && delete) {
          model.remove(id);
          changes.add(new String[] {"delete", text(old)});
        } else if (old != null) {
          model.put(id, after);
          changes.add(new String[] {"update_preimage", text(old)});
          changes.add(new String[] {"update_postimage", text(after)});
        } else if (!delete) {
          model.put(id, after);
          changes.add(new String[] {"insert", text(after)});
        }
      }
      DeltaMergeResult result = commit.commit(epoch, batch);
      assertThat(result.status()).isEqualTo(DeltaMergeResult.Status.COMMITTED);
      if (deletionVectors) {
        assertThat(result.rowsCopied()).as("merge-on-read copies no rows").isZero();
      }
      for (String[] c : changes) {
        expectedChanges.add(result.version() + "|" + c[0] + "|" + c[1]);
      }
      if (firstVersion < 0) {
        firstVersion = result.version();
      }
      lastVersion = result.version();
    }
    // replaying the last epoch changes nothing Spark can see
    assertThat(
            commit.commit(5, List.<Object[]>of(new Object[] {999L, "eu", "x", 1L, "U"})).status())
        .isEqualTo(DeltaMergeResult.Status.ALREADY_COMMITTED);

    List<String> table_ =
        spark
            .read()
            .format("delta")
            .load(path)
            .select("id", "region", "name", "balance")
            .collectAsList()
            .stream()
            .map(
                r ->
                    r.getLong(0) + "|" + r.getString(1) + "|" + r.getString(2) + "|" + r.getLong(3))
            .toList();
    assertThat(table_)
        .containsExactlyInAnyOrderElementsOf(
            model.values().stream().map(DeltaMergeSparkInteropTest::text).toList());

    List<Row> viaSql =
        spark
            .sql(
                "SELECT _commit_version, _change_type, id, region, name, balance FROM"
                    + " table_changes_by_path('"
                    + path
                    + "', "
                    + firstVersion
                    + ", "
                    + lastVersion
                    + ")")
            .collectAsList();
    List<String> actual =
        viaSql.stream()
            .map(
                r ->
                    r.getLong(0)
                        + "|"
                        + r.getString(1)
                        + "|"
                        + r.getLong(2)
                        + "|"
                        + r.getString(3)
                        + "|"
                        + r.getString(4)
                        + "|"
                        + r.getLong(5))
            .toList();
    assertThat(actual).containsExactlyInAnyOrderElementsOf(expectedChanges);
    assertThat(expectedChanges)
        .anyMatch(c -> c.contains("|update_preimage|"))
        .anyMatch(c -> c.contains("|update_postimage|"))
        .anyMatch(c -> c.contains("|delete|"))
        .anyMatch(c -> c.contains("|insert|"));

    List<Row> readChangeFeed =
        spark
            .read()
            .format("delta")
            .option("readChangeFeed", "true")
            .option("startingVersion", firstVersion)
            .load(path)
            .collectAsList();
    assertThat(readChangeFeed).hasSize(expectedChanges.size());

    long first = firstVersion;
    List<Row> history =
        spark
            .sql("DESCRIBE HISTORY delta.`" + path + "`")
            .select("version", "operation")
            .collectAsList();
    assertThat(history)
        .filteredOn(r -> r.getLong(0) >= first)
        .extracting(r -> r.getString(1))
        .containsOnly("MERGE");
  }

  @Test
  void sparkMergesIntoATableLakestreamMergedAndLakestreamContinues() throws IOException {
    String path = dir.resolve("mixed").toString();
    DeltaTable table = DeltaTable.forPath(path);
    DeltaTableSchema schema = accounts();
    DeltaMergeCommit commit =
        new DeltaMergeCommit(
            DeltaMerge.into(table, schema, "id")
                .whenMatchedUpdateAll()
                .whenNotMatchedInsertAll()
                .build(),
            "mixed");
    commit.commit(
        0,
        List.of(
            new Object[] {1L, "eu", "a", 1L},
            new Object[] {2L, "us", "b", 2L},
            new Object[] {3L, "ap", "c", 3L}));
    commit.commit(1, List.<Object[]>of(new Object[] {2L, "us", "b2", 20L}));
    spark.sql("UPDATE delta.`" + path + "` SET balance = balance + 100 WHERE id = 1");
    commit.commit(
        2,
        List.<Object[]>of(new Object[] {1L, "eu", "a3", 300L}, new Object[] {4L, "eu", "d", 4L}));

    List<String> rows =
        spark.read().format("delta").load(path).orderBy("id").collectAsList().stream()
            .map(r -> r.getAs("id") + "|" + r.getAs("name") + "|" + r.getAs("balance"))
            .toList();
    assertThat(rows).containsExactly("1|a3|300", "2|b2|20", "3|c|3", "4|d|4");
  }
}
