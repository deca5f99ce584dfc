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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Flink SQL with {@code 'connector' = 'delta'} beside delta-spark, the reference: a table Spark
 * writes (every primitive type) is read by the SQL source, and the partitioned table the SQL sink
 * writes from it under the query runtime is read by Spark, row for row against Spark's own query of
 * its table.
 */
class DeltaSqlSparkInteropTest {
  private static SparkSession spark;

  @TempDir Path dir;

  @BeforeAll
  static void startSpark() {
    spark = InteropSpark.session();
  }

  @AfterAll
  static void stopSpark() {
    InteropSpark.stop();
  }

  @Test
  void sparkReadsTheSqlSinksCopyOfATableSparkWrote() throws Exception {
    String in = dir.resolve("in").toUri().toString();
    String out = dir.resolve("out").toUri().toString();
    spark.sql(
        "CREATE TABLE delta.`"
            + in
            + "` (id BIGINT NOT NULL, i INT, s SMALLINT, t TINYINT, b BOOLEAN, f FLOAT, d DOUBLE,"
            + " amount DECIMAL(12,2), label STRING, day DATE, ts TIMESTAMP, ntz TIMESTAMP_NTZ,"
            + " bin BINARY) USING delta");
    for (int batch = 0; batch < 3; batch++) { // three versions
      spark.sql(
          "INSERT INTO delta.`"
              + in
              + "` SELECT id, CAST(id * 7 AS INT), CAST(id % 300 AS SMALLINT),"
              + " CAST(id % 100 AS TINYINT), id % 2 = 0, CAST(id / 3.0 AS FLOAT), id / 7.0,"
              + " CAST(id * 1.25 AS DECIMAL(12,2)), IF(id % 9 = 0, NULL, CONCAT('row-', id)),"
              + " DATE_ADD(DATE'2026-01-01', CAST(id % 40 AS INT)),"
              + " TIMESTAMP_MICROS(1767225600000000 + id * 61000123),"
              + " CAST(TIMESTAMP_MICROS(1767225600000000 + id * 1000001) AS TIMESTAMP_NTZ),"
              + " CAST(CONCAT('b', id) AS BINARY)"
              + " FROM range("
              + batch * 100
              + ", "
              + (batch + 1) * 100
              + ")");
    }
    String script =
        """
        CREATE TABLE src (
          id BIGINT NOT NULL, i INT, s SMALLINT, t TINYINT, b BOOLEAN, f FLOAT, d DOUBLE,
          amount DECIMAL(12, 2), label STRING, `day` DATE, ts TIMESTAMP_LTZ(6), ntz TIMESTAMP(6),
          bin BYTES
        ) WITH ('connector' = 'delta', 'path' = '%s');
        CREATE TABLE dst (
          id BIGINT NOT NULL, i INT, small INT, tiny INT, b BOOLEAN, f DOUBLE, d DOUBLE,
          amount DECIMAL(12, 2), label STRING, `day` DATE, ts TIMESTAMP_LTZ(6), ntz STRING,
          bin STRING, bucket STRING
        ) PARTITIONED BY (bucket) WITH ('connector' = 'delta', 'path' = '%s');
        INSERT INTO dst
        SELECT id, i, CAST(s AS INT), CAST(t AS INT), b, CAST(f AS DOUBLE), d, amount, label,
               `day`, ts, CAST(ntz AS STRING), CAST(bin AS STRING), CONCAT('b', CAST(id %% 4 AS STRING))
        FROM src;
        """
            .formatted(in, out);
    StreamingQuery query =
        StreamingQueryBuilder.of(SqlDataflow.of(script))
            .queryName("sql-interop")
            .checkpointLocation(dir.resolve("checkpoint").toString())
            .trigger(Trigger.availableNow())
            .parallelism(2)
            .stateBackend(StateBackendSettings.defaults())
            .start();
    query.awaitTermination();

    Dataset<Row> expected =
        spark.sql(
            "SELECT id, i, CAST(s AS INT) AS small, CAST(t AS INT) AS tiny, b, CAST(f AS DOUBLE)"
                + " AS f, d, amount, label, day, ts,"
                + " DATE_FORMAT(ntz, 'yyyy-MM-dd HH:mm:ss.SSSSSS') AS ntz,"
                + " CAST(bin AS STRING) AS bin, CONCAT('b', CAST(id % 4 AS STRING)) AS bucket"
                + " FROM delta.`"
                + in
                + "`");
    Dataset<Row> written = spark.read().format("delta").load(out).selectExpr(expected.columns());
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
