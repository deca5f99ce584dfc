package io.lakestream.interop;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.cdf.DeltaChangeDataFeed;
import io.lakestream.connectors.delta.cdf.DeltaChangeFile;
import io.lakestream.connectors.delta.cdf.DeltaChangeFileReader;
import io.lakestream.connectors.delta.cdf.DeltaChangeLog;
import io.lakestream.connectors.delta.maintenance.DeltaOptimize;
import io.lakestream.connectors.delta.maintenance.DeltaOptimizeResult;
import io.lakestream.connectors.delta.merge.DeltaMerge;
import io.lakestream.connectors.delta.merge.DeltaMergeCommit;
import io.lakestream.connectors.delta.merge.DeltaMergeResult;
import io.lakestream.connectors.delta.source.DeltaSourceBuilder;
import io.lakestream.connectors.schema.ColumnType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A table as Databricks writes it by default, written by delta-spark: deletion vectors (DELETE and
 * UPDATE mark rows deleted), column mapping (a renamed and a dropped column), row tracking,
 * in-commit timestamps, a column widened from int to bigint, and the change data feed. lakestream's
 * Delta source, its change data feed reader (the CDF source's snapshot and versions), its MERGE
 * (with deletion vectors) and its OPTIMIZE read and update it; Spark reads the results, and rows
 * keep their row ids through the MERGE and the OPTIMIZE. Every comparison is row for row.
 */
class DatabricksTablesSparkInteropTest {
  private static SparkSession spark;

  @TempDir Path dir;

  @BeforeAll
  static void startSpark() {
    spark = InteropSpark.session();
  }

  private static void sql(String statement) {
    spark.sql(statement).collectAsList();
  }

  private static long latest(String path) {
    return spark
        .sql("DESCRIBE HISTORY delta.`" + path + "`")
        .select("version")
        .collectAsList()
        .stream()
        .mapToLong(r -> r.getLong(0))
        .max()
        .orElseThrow();
  }

  private static List<String> sparkRows(String path) {
    return spark
        .read()
        .format("delta")
        .load(path)
        .select("id", "region", "title", "qty")
        .collectAsList()
        .stream()
        .map(r -> r.get(0) + "|" + r.get(1) + "|" + r.get(2) + "|" + r.get(3))
        .sorted()
        .toList();
  }

  private static Path logFile(String path, long version) {
    return Path.of(path, "_delta_log", String.format("%020d.json", version));
  }

  private static String text(Object... values) {
    List<String> parts = new ArrayList<>();
    for (Object v : values) {
      parts.add(String.valueOf(v));
    }
    return String.join("|", parts);
  }

  @Test
  void lakestreamReadsAndMergesATableSparkWroteWithEveryDefaultFeature() throws Exception {
    String path = dir.resolve("t").toString();
    String t = "delta.`" + path + "`";
    sql(
        "CREATE TABLE "
            + t
            + " (id BIGINT, region STRING, name STRING, qty INT, extra STRING) USING delta"
            + " PARTITIONED BY (region) TBLPROPERTIES ('delta.enableDeletionVectors'='true',"
            + " 'delta.columnMapping.mode'='name', 'delta.enableRowTracking'='true',"
            + " 'delta.enableInCommitTimestamps'='true', 'delta.enableChangeDataFeed'='true',"
            + " 'delta.enableTypeWidening'='true')");
    sql(
        "INSERT INTO "
            + t
            + " SELECT id, concat('r', id % 3), concat('n', id), CAST(id AS INT), 'e'"
            + " FROM range(0, 30)");
    sql("DELETE FROM " + t + " WHERE id % 5 = 0");
    long deleted = latest(path);
    sql("UPDATE " + t + " SET name = concat(name, '-u') WHERE id % 7 = 1");
    long updated = latest(path);
    assertThat(Files.readString(logFile(path, deleted)))
        .as("Spark's DELETE wrote deletion vectors")
        .contains("\"deletionVector\":{");

    // the change data feed of the DELETE and UPDATE (deletion vectors), as Spark reads it
    DeltaTable table = DeltaTable.forPath(path);
    List<String> lakestreamChanges = new ArrayList<>();
    for (Object[] r : DeltaChangeDataFeed.tableChanges(table, deleted, updated)) {
      lakestreamChanges.add(text(r[5], r[6], r[0], r[2], r[3]));
    }
    List<String> sparkChanges =
        spark
            .sql(
                "SELECT _change_type, _commit_version, id, name, qty FROM table_changes_by_path('"
                    + path
                    + "', "
                    + deleted
                    + ", "
                    + updated
                    + ")")
            .collectAsList()
            .stream()
            .map(r -> text(r.get(0), r.get(1), r.get(2), r.get(3), r.get(4)))
            .toList();
    assertThat(sparkChanges).hasSize(6 + 2 * 4); // ids 0,5,..,25 deleted; 1,8,15,22 updated
    assertThat(lakestreamChanges).containsExactlyInAnyOrderElementsOf(sparkChanges);

    // widen qty, rename name, drop extra
    sql("ALTER TABLE " + t + " ALTER COLUMN qty TYPE BIGINT");
    sql("INSERT INTO " + t + " VALUES (100, 'r1', 'n100', 5000000000, 'e')");
    sql("ALTER TABLE " + t + " RENAME COLUMN name TO title");
    sql("ALTER TABLE " + t + " DROP COLUMN extra");
    List<String> expected = sparkRows(path);
    assertThat(expected).hasSize(30 - 6 + 1).contains("100|r1|n100|5000000000", "8|r2|n8-u|8");

    // the Delta source (a bounded Flink read of the latest version)
    assertThat(flinkRead(path, latest(path))).isEqualTo(expected);
    // the change data feed source's first phase: the snapshot as inserts
    assertThat(cdfSnapshot(table, latest(path))).isEqualTo(expected);

    Map<Long, List<Long>> identities = rowIdentities(t);
    // lakestream's MERGE, with deletion vectors (the table enables them)
    DeltaTableSchema schema =
        DeltaTableSchema.builder()
            .column("id", ColumnType.LONG)
            .column("region", ColumnType.STRING)
            .column("title", ColumnType.STRING)
            .column("qty", ColumnType.LONG)
            .partitionedBy("region")
            .build();
    DeltaMergeCommit merge =
        new DeltaMergeCommit(
            DeltaMerge.into(table, schema, "id")
                .whenMatchedDelete((s, r) -> "D".equals(s[4]))
                .whenMatchedUpdateAll()
                .whenNotMatchedInsertAll((s, r) -> !"D".equals(s[4]))
                .build(),
            "interop-features");
    DeltaMergeResult result =
        merge.commit(
            0,
            List.of(
                new Object[] {1L, "r1", "n1-m", 11L, "U"},
                new Object[] {2L, "r2", null, null, "D"},
                new Object[] {100L, "r1", "n100-m", 6000000000L, "U"},
                new Object[] {200L, "r2", "n200", 200L, "U"}));
    assertThat(result.rowsCopied()).as("merge-on-read copies no rows").isZero();
    List<String> model = new ArrayList<>(expected);
    model.remove("1|r1|n1-u|1");
    model.remove("2|r2|n2|2");
    model.remove("100|r1|n100|5000000000");
    model.addAll(List.of("1|r1|n1-m|11", "100|r1|n100-m|6000000000", "200|r2|n200|200"));
    model.sort(null);
    assertThat(sparkRows(path)).isEqualTo(model);
    assertThat(new DeltaTableReader(table).readLatest()).hasSize(model.size());

    List<String> mergeChanges =
        spark
            .sql(
                "SELECT _change_type, id, title, qty FROM table_changes_by_path('"
                    + path
                    + "', "
                    + result.version()
                    + ", "
                    + result.version()
                    + ")")
            .collectAsList()
            .stream()
            .map(r -> text(r.get(0), r.get(1), r.get(2), r.get(3)))
            .toList();
    assertThat(mergeChanges)
        .containsExactlyInAnyOrder(
            "update_preimage|1|n1-u|1",
            "update_postimage|1|n1-m|11",
            "delete|2|n2|2",
            "update_preimage|100|n100|5000000000",
            "update_postimage|100|n100-m|6000000000",
            "insert|200|n200|200");
    Row ids =
        spark
            .sql("SELECT count(*), count(DISTINCT _metadata.row_id) FROM " + t)
            .collectAsList()
            .get(0);
    assertThat(ids.getLong(1)).as("row ids stay unique").isEqualTo(ids.getLong(0));
    Map<Long, List<Long>> after = rowIdentities(t);
    for (long id : List.of(1L, 100L)) {
      assertThat(after.get(id))
          .as("updated row %d keeps its row id, its commit version is the MERGE's", id)
          .containsExactly(identities.get(id).get(0), result.version());
    }
    for (Map.Entry<Long, List<Long>> e : identities.entrySet()) {
      if (e.getKey() != 1L && e.getKey() != 2L && e.getKey() != 100L) {
        assertThat(after.get(e.getKey()))
            .as("untouched row %d", e.getKey())
            .isEqualTo(e.getValue());
      }
    }
    List<Row> history = spark.sql("DESCRIBE HISTORY " + t).orderBy("version").collectAsList();
    assertThat(history.get(history.size() - 1).<String>getAs("operation")).isEqualTo("MERGE");
    assertThat(history.get(history.size() - 1).<java.sql.Timestamp>getAs("timestamp"))
        .as("in-commit timestamps increase")
        .isAfter(history.get(history.size() - 2).<java.sql.Timestamp>getAs("timestamp"));

    // lakestream's OPTIMIZE purges the deletion vectors; rows keep their ids and commit versions
    DeltaOptimizeResult compacted = DeltaOptimize.forTable(table).build().run();
    assertThat(compacted.status()).isEqualTo(DeltaOptimizeResult.Status.COMMITTED);
    assertThat(sparkRows(path)).isEqualTo(model);
    assertThat(rowIdentities(t)).isEqualTo(after);
    assertThat(Files.readString(logFile(path, compacted.version())))
        .contains("\"inCommitTimestamp\"", "\"baseRowId\"");
  }

  /** id to [row id, row commit version], as Spark reads them. */
  private static Map<Long, List<Long>> rowIdentities(String table) {
    Map<Long, List<Long>> out = new java.util.HashMap<>();
    for (Row r :
        spark
            .sql("SELECT id, _metadata.row_id, _metadata.row_commit_version FROM " + table)
            .collectAsList()) {
      out.put(r.getLong(0), List.of(r.getLong(1), r.getLong(2)));
    }
    return out;
  }

  private static List<String> flinkRead(String path, long version) throws Exception {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1);
    List<String> rows = new ArrayList<>();
    try (var it =
        env.fromSource(
                DeltaSourceBuilder.forTable(path)
                    .name("databricks")
                    .options(Map.of("versionAsOf", String.valueOf(version)))
                    .build(),
                WatermarkStrategy.noWatermarks(),
                "databricks")
            .map(r -> text(r.getField(0), r.getField(1), r.getField(2), r.getField(3)))
            .returns(String.class)
            .executeAndCollect()) {
      it.forEachRemaining(rows::add);
    }
    rows.sort(null);
    return rows;
  }

  private static List<String> cdfSnapshot(DeltaTable table, long version) throws Exception {
    var snapshot = new DeltaTableReader(table).snapshotAtVersion(version);
    String schema = snapshot.getSchema().toJson();
    DeltaChangeFileReader reader =
        new DeltaChangeFileReader(table, schema, snapshot.getPartitionColumnNames(), "name");
    List<String> rows = new ArrayList<>();
    for (DeltaChangeFile file : new DeltaChangeLog(table, schema).snapshotFiles(version)) {
      try (DeltaChangeFileReader.Rows it = reader.open(file)) {
        while (it.hasNext()) {
          Object[] r = it.next();
          assertThat(r[4]).isEqualTo("insert");
          rows.add(text(r[0], r[1], r[2], r[3]));
        }
      }
    }
    rows.sort(null);
    return rows;
  }
}
