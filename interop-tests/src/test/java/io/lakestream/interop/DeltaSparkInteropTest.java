package io.lakestream.interop;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.delta.DeltaAppendCommit;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.DeltaTableWriter;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.connectors.sink.EpochCommitOutcome;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tables written by lakestream's Delta layer, read back with delta-spark (the reference reader).
 */
class DeltaSparkInteropTest {
  private static SparkSession spark;

  @TempDir Path dir;

  @BeforeAll
  static void startSpark() {
    spark = InteropSpark.session();
  }

  private static DeltaTableSchema.Builder orders() {
    return DeltaTableSchema.builder()
        .column("id", ColumnType.LONG, false)
        .column("customer", ColumnType.STRING)
        .column("qty", ColumnType.INT)
        .column("price", ColumnType.DOUBLE)
        .column("paid", ColumnType.BOOLEAN)
        .column("amount", ColumnType.decimal(10, 2))
        .column("ts", ColumnType.TIMESTAMP)
        .column("day", ColumnType.DATE);
  }

  private static Object[] order(long id) {
    return new Object[] {
      id,
      id % 5 == 0 ? null : "c" + (id % 3),
      (int) id,
      id * 1.5,
      id % 2 == 0,
      new BigDecimal(id + ".25"),
      Instant.parse("2024-05-01T10:00:00Z").plusSeconds(id),
      LocalDate.parse("2024-05-01").plusDays(id % 2)
    };
  }

  /** The string Spark shows for {@link #order}, for comparison. */
  private static String expected(long id) {
    return id
        + "|"
        + (id % 5 == 0 ? "null" : "c" + (id % 3))
        + "|"
        + id
        + "|"
        + (id * 1.5)
        + "|"
        + (id % 2 == 0)
        + "|"
        + id
        + ".25|"
        + Instant.parse("2024-05-01T10:00:00Z").plusSeconds(id)
        + "|"
        + LocalDate.parse("2024-05-01").plusDays(id % 2);
  }

  private static String show(Row r) {
    return r.get(0)
        + "|"
        + r.get(1)
        + "|"
        + r.get(2)
        + "|"
        + r.get(3)
        + "|"
        + r.get(4)
        + "|"
        + r.getDecimal(5).toPlainString()
        + "|"
        + r.getTimestamp(6).toInstant()
        + "|"
        + r.getDate(7).toLocalDate();
  }

  /** Writes and commits epochs 1..n of {@code rowsPerEpoch} rows each; returns all ids. */
  private List<Long> writeEpochs(
      String path, DeltaTableSchema schema, String appId, int epochs, int rowsPerEpoch)
      throws IOException {
    DeltaTable table = DeltaTable.forPath(path);
    DeltaTableWriter writer = new DeltaTableWriter(table, schema);
    DeltaAppendCommit commit = new DeltaAppendCommit(table, schema, appId);
    commit.open();
    List<Long> ids = new ArrayList<>();
    for (int epoch = 1; epoch <= epochs; epoch++) {
      List<Object[]> rows = new ArrayList<>();
      for (int i = 0; i < rowsPerEpoch; i++) {
        long id = epoch * 100L + i;
        rows.add(order(id));
        ids.add(id);
      }
      var files = writer.write(rows);
      assertThat(commit.commit(epoch, files).status())
          .isEqualTo(EpochCommitOutcome.Status.COMMITTED);
      // a replay after restore changes nothing
      assertThat(commit.commit(epoch, files).status())
          .isEqualTo(EpochCommitOutcome.Status.ALREADY_COMMITTED);
    }
    return ids;
  }

  private List<String> sparkRows(String path) {
    return spark
        .read()
        .format("delta")
        .load(path)
        .select("id", "customer", "qty", "price", "paid", "amount", "ts", "day")
        .collectAsList()
        .stream()
        .map(DeltaSparkInteropTest::show)
        .toList();
  }

  private void assertHistoryAndTxn(String path, String appId, int epochs) {
    List<Row> history =
        spark.sql("DESCRIBE HISTORY delta.`" + path + "`").select("version").collectAsList();
    // version 0 creates the table, then one version per epoch
    assertThat(history).hasSize(epochs + 1);
    List<Row> txns =
        spark
            .read()
            .json(path + "/_delta_log/*.json")
            .where("txn IS NOT NULL")
            .selectExpr("txn.appId AS appId", "txn.version AS version")
            .groupBy("appId")
            .agg(org.apache.spark.sql.functions.max("version"))
            .collectAsList();
    assertThat(txns).hasSize(1);
    assertThat(txns.get(0).getString(0)).isEqualTo(appId);
    assertThat(txns.get(0).getLong(1)).isEqualTo(epochs);
  }

  @Test
  void sparkReadsAPlainTableWithTheRowsOfEveryEpoch() throws IOException {
    String path = dir.resolve("plain").toString();
    List<Long> ids = writeEpochs(path, orders().build(), "query-plain", 3, 7);
    assertThat(sparkRows(path))
        .containsExactlyInAnyOrderElementsOf(
            ids.stream().map(DeltaSparkInteropTest::expected).toList());
    assertHistoryAndTxn(path, "query-plain", 3);
  }

  @Test
  void sparkReadsAPartitionedTable() throws IOException {
    String path = dir.resolve("partitioned").toString();
    List<Long> ids = writeEpochs(path, orders().partitionedBy("day").build(), "query-part", 2, 6);
    assertThat(sparkRows(path))
        .containsExactlyInAnyOrderElementsOf(
            ids.stream().map(DeltaSparkInteropTest::expected).toList());
    assertThat(spark.read().format("delta").load(path).where("day = DATE'2024-05-02'").count())
        .isEqualTo(ids.stream().filter(id -> id % 2 == 1).count());
    assertThat(Files.exists(dir.resolve("partitioned/day=2024-05-02"))).isTrue();
    assertHistoryAndTxn(path, "query-part", 2);
  }

  @Test
  void sparkReadsTheChangeDataFeedOfAppendedVersions() throws IOException {
    String path = dir.resolve("cdf").toString();
    List<Long> ids =
        writeEpochs(
            path,
            orders().property("delta.enableChangeDataFeed", "true").build(),
            "query-cdf",
            2,
            4);
    List<Row> changes =
        spark
            .read()
            .format("delta")
            .option("readChangeFeed", "true")
            .option("startingVersion", 1)
            .load(path)
            .select("id", "_change_type", "_commit_version")
            .collectAsList();
    assertThat(changes).extracting(r -> r.getLong(0)).containsExactlyInAnyOrderElementsOf(ids);
    assertThat(changes).extracting(r -> r.getString(1)).containsOnly("insert");
    assertThat(changes).extracting(r -> r.getLong(2)).containsOnly(1L, 2L);
    List<Row> viaSql =
        spark
            .sql("SELECT count(*) FROM table_changes_by_path('" + path + "', 1, 2)")
            .collectAsList();
    assertThat(viaSql.get(0).getLong(0)).isEqualTo(ids.size());
    assertHistoryAndTxn(path, "query-cdf", 2);
  }

  @Test
  void sparkReadsATableWhoseLogHasCheckpoints() throws IOException {
    String path = dir.resolve("checkpointed").toString();
    List<Long> ids =
        writeEpochs(
            path, orders().property("delta.checkpointInterval", "2").build(), "query-ckpt", 5, 3);
    assertThat(dir.resolve("checkpointed/_delta_log/00000000000000000004.checkpoint.parquet"))
        .exists();
    assertThat(sparkRows(path))
        .containsExactlyInAnyOrderElementsOf(
            ids.stream().map(DeltaSparkInteropTest::expected).toList());
    assertHistoryAndTxn(path, "query-ckpt", 5);
    // Spark's own view of the txn map after replaying the checkpoint + tail
    List<Row> fromCheckpoint =
        spark
            .read()
            .parquet(path + "/_delta_log/00000000000000000004.checkpoint.parquet")
            .where("txn IS NOT NULL")
            .select("txn.appId", "txn.version")
            .collectAsList();
    assertThat(fromCheckpoint)
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.getString(0)).isEqualTo("query-ckpt");
              assertThat(r.getLong(1)).isEqualTo(4L);
            });
  }
}
