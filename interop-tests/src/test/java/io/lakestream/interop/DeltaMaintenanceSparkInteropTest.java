package io.lakestream.interop;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.delta.DeltaAppendCommit;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.DeltaTableWriter;
import io.lakestream.connectors.delta.maintenance.DeltaOptimize;
import io.lakestream.connectors.delta.maintenance.DeltaOptimizeResult;
import io.lakestream.connectors.delta.maintenance.DeltaVacuum;
import io.lakestream.connectors.schema.ColumnType;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * lakestream's OPTIMIZE and VACUUM beside delta-spark: many one-row epochs of a change data feed
 * table are compacted into one file; Spark reads the same rows as before, sees one file, no change
 * rows in the OPTIMIZE version and Spark's own OPTIMIZE entry in DESCRIBE HISTORY; after a forced
 * VACUUM Spark still reads the latest version and finds VACUUM START/END in the history. A table as
 * Databricks writes it (deletion vectors, column mapping with a renamed and a dropped column,
 * in-commit timestamps) is compacted too: the deleted rows are purged, Spark reads the same rows.
 */
class DeltaMaintenanceSparkInteropTest {
  /** 1,000 in the campaign ({@code -Dlakestream.maintenance.epochs=1000}); fewer in CI. */
  private static final int EPOCHS = Integer.getInteger("lakestream.maintenance.epochs", 100);

  private static SparkSession spark;

  @TempDir Path dir;

  @BeforeAll
  static void startSpark() {
    spark = InteropSpark.session();
  }

  @Test
  void sparkReadsACompactedAndVacuumedTableAsBeforeAndRecognisesItsHistory() throws Exception {
    String path = dir.resolve("events").toUri().toString();
    DeltaTable table = DeltaTable.forPath(path);
    DeltaTableSchema schema =
        DeltaTableSchema.builder()
            .column("id", ColumnType.LONG, false)
            .column("label", ColumnType.STRING)
            .property("delta.enableChangeDataFeed", "true")
            .build();
    DeltaAppendCommit commit = new DeltaAppendCommit(table, schema, "small-epochs");
    commit.open();
    for (long epoch = 1; epoch <= EPOCHS; epoch++) {
      commit.commit(
          epoch,
          new DeltaTableWriter(table, schema)
              .write(List.<Object[]>of(new Object[] {epoch, "e" + epoch})));
    }
    long before = table.latestSnapshot().orElseThrow().getVersion();

    DeltaOptimizeResult optimized = DeltaOptimize.forTable(table).build().run();

    assertThat(optimized.filesRemoved()).isEqualTo(EPOCHS);
    Dataset<Row> now = spark.read().format("delta").load(path);
    Dataset<Row> then = spark.read().format("delta").option("versionAsOf", before).load(path);
    assertThat(now.count()).isEqualTo(EPOCHS);
    assertThat(now.exceptAll(then).count()).isZero();
    assertThat(then.exceptAll(now).count()).isZero();
    assertThat(detail(path, "numFiles")).isEqualTo("1");
    assertThat(changeRows(path, optimized.version()))
        .as("an OPTIMIZE version holds no change rows")
        .isZero();
    Row history =
        spark
            .sql("DESCRIBE HISTORY delta.`" + path + "`")
            .where("version = " + optimized.version())
            .first();
    assertThat(history.<String>getAs("operation")).isEqualTo("OPTIMIZE");
    assertThat(
            history
                .<scala.collection.Map<String, String>>getAs("operationMetrics")
                .get("numRemovedFiles")
                .get())
        .isEqualTo(String.valueOf(EPOCHS));

    Row checksum = sumAndCount(path);
    Thread.sleep(5); // the replaced files are now older than a zero retention
    assertThat(DeltaVacuum.of(table, Duration.ZERO, false, true).run().files()).hasSize(EPOCHS);
    assertThat(sumAndCount(path)).as("the latest version reads the same").isEqualTo(checksum);
    assertThat(
            spark
                .sql("DESCRIBE HISTORY delta.`" + path + "`")
                .where("operation LIKE 'VACUUM%'")
                .count())
        .isEqualTo(2);
  }

  @Test
  void aTableWithDeletionVectorsAndColumnMappingIsCompactedAndSparkReadsTheSameRows()
      throws Exception {
    String path = dir.resolve("databricks").toString();
    String t = "delta.`" + path + "`";
    sql(
        "CREATE TABLE "
            + t
            + " (id BIGINT, region STRING, name STRING, extra STRING) USING delta"
            + " PARTITIONED BY (region) TBLPROPERTIES ('delta.enableDeletionVectors'='true',"
            + " 'delta.columnMapping.mode'='name', 'delta.enableInCommitTimestamps'='true',"
            + " 'delta.enableChangeDataFeed'='true')");
    for (int batch = 0; batch < 4; batch++) {
      sql(
          "INSERT INTO "
              + t
              + " SELECT id, concat('r', id % 2), concat('n', id), 'e' FROM range("
              + batch * 10
              + ", "
              + (batch + 1) * 10
              + ")");
    }
    sql("DELETE FROM " + t + " WHERE id % 3 = 0");
    sql("ALTER TABLE " + t + " RENAME COLUMN name TO title");
    sql("ALTER TABLE " + t + " DROP COLUMN extra");
    List<Row> before = spark.sql("SELECT * FROM " + t + " ORDER BY id").collectAsList();

    DeltaOptimizeResult optimized = DeltaOptimize.forTable(DeltaTable.forPath(path)).build().run();

    assertThat(optimized.status()).isEqualTo(DeltaOptimizeResult.Status.COMMITTED);
    assertThat(spark.sql("SELECT * FROM " + t + " ORDER BY id").collectAsList()).isEqualTo(before);
    assertThat(detail(path, "numFiles")).as("one file per region").isEqualTo("2");
    assertThat(changeRows(path, optimized.version())).isZero();
    java.nio.file.Path commit =
        Path.of(path, "_delta_log", String.format("%020d.json", optimized.version()));
    String log = java.nio.file.Files.readString(commit);
    assertThat(log).contains("\"inCommitTimestamp\"");
    assertThat(log.lines().filter(l -> l.startsWith("{\"add\"")))
        .as("the deleted rows are purged: no add carries a deletion vector")
        .noneMatch(l -> l.contains("deletionVector"));
    sql("INSERT INTO " + t + " VALUES (100, 'r0', 'n100')");
    assertThat(spark.sql("SELECT count(*) FROM " + t).first().getLong(0))
        .as("Spark writes on after it")
        .isEqualTo(before.size() + 1L);
  }

  private static long changeRows(String path, long version) {
    return spark
        .sql(
            "SELECT * FROM table_changes_by_path('" + path + "', " + version + ", " + version + ")")
        .count();
  }

  private static void sql(String statement) {
    spark.sql(statement).collectAsList();
  }

  private static Row sumAndCount(String path) {
    return spark.read().format("delta").load(path).selectExpr("sum(id)", "count(*)").first();
  }

  private static String detail(String path, String column) {
    return String.valueOf(
        spark.sql("DESCRIBE DETAIL delta.`" + path + "`").select(column).first().get(0));
  }
}
