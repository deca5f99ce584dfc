package io.lakestream.interop;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.runtime.StreamingQuery;
import io.lakestream.runtime.StreamingQueryBuilder;
import io.lakestream.runtime.Trigger;
import io.lakestream.sql.SqlDataflow;
import io.lakestream.state.StateBackendSettings;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Flink SQL with {@code 'connector' = 'delta'} beside delta-spark, the reference: a table Spark
 * writes (every type, nested ones included) is read by the SQL source through a Delta catalog, and
 * the partitioned table the SQL sink writes from it under the query runtime is read by Spark, row
 * for row against Spark's own query of its table; Spark reads the upsert sink's table and its
 * change data feed.
 */
class DeltaSqlSparkInteropTest {
  private static SparkSession spark;

  @TempDir Path dir;

  @BeforeAll
  static void startSpark() {
    spark = InteropSpark.session();
  }

  /** Every Delta type Spark writes, nested ones nested in each other, nulls at every level. */
  private static final String EVERY_TYPE =
      "id BIGINT NOT NULL, i INT, s SMALLINT, t TINYINT, b BOOLEAN, f FLOAT, d DOUBLE,"
          + " amount DECIMAL(12,2), label STRING, day DATE, ts TIMESTAMP, ntz TIMESTAMP_NTZ,"
          + " bin BINARY, tags ARRAY<STRING>, attrs MAP<STRING, BIGINT>,"
          + " line STRUCT<sku: STRING, qty: INT, prices: ARRAY<DECIMAL(7,2)>>,"
          + " pairs ARRAY<STRUCT<k: STRING, v: DOUBLE>>";

  private static String everyTypeRows(int from, int to) {
    return "SELECT id, CAST(id * 7 AS INT), CAST(id % 300 AS SMALLINT),"
        + " CAST(id % 100 AS TINYINT), id % 2 = 0, CAST(id / 3.0 AS FLOAT), id / 7.0,"
        + " CAST(id * 1.25 AS DECIMAL(12,2)), IF(id % 9 = 0, NULL, CONCAT('row-', id)),"
        + " DATE_ADD(DATE'2026-01-01', CAST(id % 40 AS INT)),"
        + " TIMESTAMP_MICROS(1767225600000000 + id * 61000123),"
        + " CAST(TIMESTAMP_MICROS(1767225600000000 + id * 1000001) AS TIMESTAMP_NTZ),"
        + " CAST(CONCAT('b', id) AS BINARY),"
        + " IF(id % 5 = 0, NULL, ARRAY(CONCAT('t', id), NULL, '')),"
        + " IF(id % 6 = 0, NULL, MAP('a', id, 'b', IF(id % 4 = 0, NULL, -id))),"
        + " IF(id % 7 = 0, NULL, NAMED_STRUCT('sku', CONCAT('s', id % 13), 'qty',"
        + "   IF(id % 3 = 0, NULL, CAST(id AS INT)),"
        + "   'prices', ARRAY(CAST(id / 8.0 AS DECIMAL(7,2)), NULL))),"
        + " IF(id % 8 = 0, ARRAY(), ARRAY(NAMED_STRUCT('k', 'x', 'v', id * 0.5),"
        + "   NAMED_STRUCT('k', NULL, 'v', CAST(NULL AS DOUBLE))))"
        + " FROM range("
        + from
        + ", "
        + to
        + ")";
  }

  /**
   * Spark writes a table of every type under a Delta catalog's warehouse; Flink SQL reads it
   * through the catalog (schema from the Delta log) and the SQL sink writes a partitioned copy of
   * the same types, which Spark reads back equal to its own table.
   */
  @Test
  void sparkReadsTheSqlSinksCopyOfATableSparkWroteOfEveryType() throws Exception {
    String warehouse = dir.resolve("lake").toUri().toString();
    String in = warehouse + "/db1/events";
    String out = dir.resolve("out").toUri().toString();
    spark.sql("CREATE TABLE delta.`" + in + "` (" + EVERY_TYPE + ") USING delta");
    for (int batch = 0; batch < 3; batch++) { // three versions
      spark.sql("INSERT INTO delta.`" + in + "` " + everyTypeRows(batch * 100, (batch + 1) * 100));
    }
    String script =
        """
        CREATE CATALOG lake WITH ('type' = 'delta', 'warehouse' = '%s');
        CREATE TABLE dst (
          id BIGINT NOT NULL, i INT, s SMALLINT, t TINYINT, b BOOLEAN, f FLOAT, d DOUBLE,
          amount DECIMAL(12, 2), label STRING, `day` DATE, ts TIMESTAMP_LTZ(6), ntz TIMESTAMP(6),
          bin BYTES, tags ARRAY<STRING>, attrs MAP<STRING, BIGINT>,
          line ROW<sku STRING, qty INT, prices ARRAY<DECIMAL(7, 2)>>,
          pairs ARRAY<ROW<k STRING, v DOUBLE>>, bucket STRING
        ) PARTITIONED BY (bucket) WITH ('connector' = 'delta', 'path' = '%s');
        INSERT INTO dst SELECT *, CONCAT('b', CAST(id %% 4 AS STRING)) FROM lake.db1.events;
        """
            .formatted(warehouse, out);
    StreamingQuery query =
        StreamingQueryBuilder.of(SqlDataflow.of(script))
            .queryName("sql-interop")
            .checkpointLocation(dir.resolve("checkpoint").toString())
            .trigger(Trigger.availableNow())
            .parallelism(2)
            .stateBackend(StateBackendSettings.defaults())
            .start();
    query.awaitTermination();

    // Spark's set operations refuse map columns: maps are compared as their JSON text
    String[] columns =
        "id i s t b f d amount label day ts ntz bin tags to_json(attrs) line pairs bucket"
            .split(" ");
    Dataset<Row> expected =
        spark
            .sql("SELECT *, CONCAT('b', CAST(id % 4 AS STRING)) AS bucket FROM delta.`" + in + "`")
            .selectExpr(columns);
    Dataset<Row> written = spark.read().format("delta").load(out).selectExpr(columns);
    assertThat(written.count()).isEqualTo(300);
    assertThat(rows(written.exceptAll(expected))).as("written, not expected").isEmpty();
    assertThat(rows(expected.exceptAll(written))).as("expected, not written").isEmpty();
    List<Row> partitions =
        spark.sql("DESCRIBE DETAIL delta.`" + out + "`").select("partitionColumns").collectAsList();
    assertThat(partitions.get(0).getList(0)).containsExactly("bucket");
  }

  @Test
  void sparkReadsTheSqlUpsertSinksTableAndItsChangeDataFeed() throws Exception {
    String in = dir.resolve("orders").toUri().toString();
    String out = dir.resolve("totals").toUri().toString();
    spark.sql("CREATE TABLE delta.`" + in + "` (id BIGINT, amount DECIMAL(12,2)) USING delta");
    spark.sql(
        "INSERT INTO delta.`"
            + in
            + "` SELECT id, CAST(id * 0.5 AS DECIMAL(12,2)) FROM range(0, 90)");
    spark.sql(
        "INSERT INTO delta.`"
            + in
            + "` SELECT id, CAST(id * 0.5 AS DECIMAL(12,2)) FROM range(90, 150)");
    String script =
        """
        CREATE TABLE orders (id BIGINT, amount DECIMAL(12, 2))
        WITH ('connector' = 'delta', 'path' = '%s', 'maxFilesPerTrigger' = '1');
        CREATE TABLE totals (
          customer STRING NOT NULL, total DECIMAL(38, 2), n BIGINT,
          PRIMARY KEY (customer) NOT ENFORCED
        ) WITH ('connector' = 'delta', 'path' = '%s', 'delta.enableChangeDataFeed' = 'true');
        INSERT INTO totals
        SELECT * FROM (
          SELECT CONCAT('c', CAST(id %% 5 AS STRING)) AS customer, SUM(amount) AS total,
                 COUNT(*) AS n
          FROM orders GROUP BY CONCAT('c', CAST(id %% 5 AS STRING))
        ) WHERE n < 25 OR customer <> 'c4';
        """
            .formatted(in, out);
    StreamingQueryBuilder.of(SqlDataflow.of(script))
        .queryName("sql-interop-totals")
        .checkpointLocation(dir.resolve("checkpoint-totals").toString())
        .trigger(Trigger.availableNow())
        .parallelism(2)
        .stateBackend(StateBackendSettings.defaults())
        .start()
        .awaitTermination();

    Dataset<Row> expected =
        spark.sql(
            "SELECT * FROM (SELECT CONCAT('c', CAST(id % 5 AS STRING)) AS customer,"
                + " CAST(SUM(amount) AS DECIMAL(38,2)) AS total, COUNT(*) AS n FROM delta.`"
                + in
                + "` GROUP BY 1) WHERE n < 25 OR customer <> 'c4'");
    Dataset<Row> written = spark.read().format("delta").load(out);
    assertThat(rows(written.exceptAll(expected))).isEmpty();
    assertThat(rows(expected.exceptAll(written))).isEmpty();
    assertThat(written.count()).isEqualTo(4); // c4 reached 25 orders in the second version

    Dataset<Row> changes = spark.sql("SELECT * FROM table_changes_by_path('" + out + "', 0)");
    assertThat(rows(changes.select("_change_type").distinct()))
        .contains("[insert]", "[update_postimage]", "[delete]");
    Dataset<Row> lastImages =
        spark.sql(
            "SELECT customer, total, n FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY customer"
                + " ORDER BY _commit_version DESC, _change_type DESC) AS r FROM"
                + " table_changes_by_path('"
                + out
                + "', 0) WHERE _change_type <> 'update_preimage') WHERE r = 1 AND _change_type"
                + " <> 'delete'");
    assertThat(rows(lastImages.exceptAll(written))).isEmpty();
    assertThat(rows(written.exceptAll(lastImages))).isEmpty();
  }

  private static List<String> rows(Dataset<Row> rows) {
    return rows.collectAsList().stream().map(Row::toString).toList();
  }
}
