package io.lakestream.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.cdf.ChangeDataFeedNotEnabledException;
import io.lakestream.connectors.delta.cdf.DeltaChangeDataFeed;
import io.lakestream.connectors.delta.cdf.source.DeltaCdfSourceBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.Stream;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * lakestream's change data feed reader on tables delta-spark wrote with MERGE, UPDATE, DELETE and
 * OPTIMIZE (Spark writes cdc files for row-level changes, only remove actions for whole-file
 * deletes): it must return exactly Spark's own {@code table_changes} rows, version by version.
 */
class DeltaChangeDataFeedSparkInteropTest {
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
        .selectExpr("max(version)")
        .first()
        .getLong(0);
  }

  /** Spark's change rows of versions from..to, one string per row, sorted. */
  private static List<String> sparkChanges(String path, long from, long to) {
    return describe(
        spark.sql("SELECT * FROM table_changes_by_path('" + path + "', " + from + ", " + to + ")"));
  }

  /** Change rows as one sorted string per row, in the form {@link #ourChanges} gives. */
  private static List<String> describe(Dataset<Row> changes) {
    List<String> out = new ArrayList<>();
    for (Row r :
        changes
            .selectExpr(
                "id",
                "name",
                "amount",
                "day",
                "_change_type",
                "_commit_version",
                "_commit_timestamp")
            .collectAsList()) {
      out.add(
          r.get(0)
              + "|"
              + r.get(1)
              + "|"
              + r.get(2)
              + "|"
              + (r.isNullAt(3) ? null : r.getDate(3).toLocalDate())
              + "|"
              + r.get(4)
              + "|"
              + r.get(5)
              + "|"
              + r.getTimestamp(6).toInstant());
    }
    out.sort(null);
    return out;
  }

  /** lakestream's change rows of versions from..to, in the same form. */
  private static List<String> ourChanges(String path, long from, long to) throws IOException {
    List<String> out = new ArrayList<>();
    for (Object[] r : DeltaChangeDataFeed.tableChanges(DeltaTable.forPath(path), from, to)) {
      assertThat(r).hasSize(7);
      out.add(r[0] + "|" + r[1] + "|" + r[2] + "|" + r[3] + "|" + r[4] + "|" + r[5] + "|" + r[6]);
    }
    out.sort(null);
    return out;
  }

  private static List<String> types(List<String> rows) {
    return rows.stream().map(r -> r.split("\\|")[4]).distinct().sorted().toList();
  }

  /** Writes the scenario with Spark and checks the batch reader; returns the last version. */
  private long mergeUpdateDeleteOptimize(String path, boolean partitioned) throws IOException {
    sql(
        "CREATE TABLE delta.`"
            + path
            + "` (id BIGINT, name STRING, amount INT, day DATE) USING delta "
            + (partitioned ? "PARTITIONED BY (day) " : "")
            + "TBLPROPERTIES ('delta.enableChangeDataFeed'='true',"
            + " 'delta.enableDeletionVectors'='false')");
    sql(
        "INSERT INTO delta.`"
            + path
            + "` SELECT id, concat('n', id), CAST(id * 10 AS INT),"
            + " date_add(DATE'2024-05-01', CAST(id % 2 AS INT)) FROM range(0, 12)");
    sql("UPDATE delta.`" + path + "` SET amount = amount + 1000 WHERE id % 3 = 0");
    sql("DELETE FROM delta.`" + path + "` WHERE id = 4");
    spark
        .sql(
            "SELECT id, concat('m', id) AS name, CAST(id AS INT) AS amount,"
                + " date_add(DATE'2024-05-01', CAST(id % 2 AS INT)) AS day FROM range(8, 16)")
        .createOrReplaceTempView("updates");
    sql(
        "MERGE INTO delta.`"
            + path
            + "` t USING updates s ON t.id = s.id"
            + " WHEN MATCHED AND s.id = 9 THEN DELETE"
            + " WHEN MATCHED THEN UPDATE SET *"
            + " WHEN NOT MATCHED THEN INSERT *");
    // two more small files per day so OPTIMIZE has something to compact
    sql(
        "INSERT INTO delta.`"
            + path
            + "` VALUES (50, 'x', 5, DATE'2024-05-01'), (51, 'y', 5, DATE'2024-05-02')");
    long beforeOptimize = latest(path);
    sql("OPTIMIZE delta.`" + path + "`");
    long optimized = latest(path);
    assertThat(optimized).isEqualTo(beforeOptimize + 1);
    sql("INSERT INTO delta.`" + path + "` VALUES (100, 'late', 7, DATE'2024-05-01')");
    // a delete of whole files: Spark records only remove actions, no cdc files
    sql("DELETE FROM delta.`" + path + "`" + (partitioned ? " WHERE day = DATE'2024-05-02'" : ""));
    long last = latest(path);

    // version by version, then the whole range at once
    for (long v = 1; v <= last; v++) {
      assertThat(ourChanges(path, v, v)).as("version %d", v).isEqualTo(sparkChanges(path, v, v));
    }
    List<String> all = ourChanges(path, 1, last);
    assertThat(all).isEqualTo(sparkChanges(path, 1, last));
    assertThat(types(all))
        .containsExactly("delete", "insert", "update_postimage", "update_preimage");
    // OPTIMIZE (dataChange=false) contributes nothing
    assertThat(ourChanges(path, optimized, optimized)).isEmpty();
    // the versions used cdc files (UPDATE, DELETE, MERGE) and plain add/remove (INSERT, DELETE)
    try (Stream<Path> files = Files.walk(Path.of(path, "_change_data"))) {
      assertThat(files.anyMatch(p -> p.toString().endsWith(".parquet"))).isTrue();
    }
    return last;
  }

  @Test
  void equalsSparkOnAPartitionedTableWithMergeUpdateDeleteAndOptimize() throws IOException {
    mergeUpdateDeleteOptimize(dir.resolve("partitioned").toString(), true);
  }

  @Test
  void equalsSparkOnAnUnpartitionedTable() throws IOException {
    mergeUpdateDeleteOptimize(dir.resolve("plain").toString(), false);
  }

  @Test
  void versionsBeforeTheFeedWasEnabledFailNamingThePropertyAndVersion() throws IOException {
    String path = dir.resolve("late-cdf").toString();
    sql(
        "CREATE TABLE delta.`"
            + path
            + "` (id BIGINT, name STRING, amount INT, day DATE) USING delta"
            + " TBLPROPERTIES ('delta.enableDeletionVectors'='false')");
    sql("INSERT INTO delta.`" + path + "` VALUES (1, 'a', 1, DATE'2024-05-01')");
    sql("ALTER TABLE delta.`" + path + "` SET TBLPROPERTIES ('delta.enableChangeDataFeed'='true')");
    long enabled = latest(path);
    sql("INSERT INTO delta.`" + path + "` VALUES (2, 'b', 2, DATE'2024-05-01')");
    sql("UPDATE delta.`" + path + "` SET amount = 20 WHERE id = 2");
    long last = latest(path);

    assertThatThrownBy(() -> ourChanges(path, 1, last))
        .isInstanceOf(ChangeDataFeedNotEnabledException.class)
        .hasMessageContaining("delta.enableChangeDataFeed")
        .hasMessageContaining("not enabled at version 1");
    assertThatThrownBy(() -> sparkChanges(path, 1, last)).isInstanceOf(Exception.class);
    assertThat(ourChanges(path, enabled, last)).isEqualTo(sparkChanges(path, enabled, last));
    assertThat(ourChanges(path, enabled, last)).hasSize(3);
  }

  static final Queue<String> STREAMED = new ConcurrentLinkedQueue<>();

  @Test
  void theStreamingSourceEqualsSparkOnASparkMergedTable() throws Exception {
    String path = dir.resolve("streamed").toString();
    long last = mergeUpdateDeleteOptimize(path, true);
    List<String> expected = sparkChanges(path, 1, last);
    JobClient job =
        startStream(
            path,
            Map.of("startingVersion", "1", "maxFilesPerTrigger", "2", "pollInterval", "50ms"));
    try {
      awaitStreamed(expected.size());
    } finally {
      job.cancel().get();
    }
    assertThat(streamed()).isEqualTo(expected);
  }

  /**
   * Without startingVersion both Spark's stream and ours begin with the table's latest snapshot as
   * inserts of that version, then stream the changes of later versions: the same rows, stamps
   * included.
   */
  @Test
  void withoutStartingVersionTheStreamBeginsWithTheSnapshotAsSparksDoes() throws Exception {
    String path = dir.resolve("snapshot-first").toString();
    sql(
        "CREATE TABLE delta.`"
            + path
            + "` (id BIGINT, name STRING, amount INT, day DATE) USING delta PARTITIONED BY (day)"
            + " TBLPROPERTIES ('delta.enableChangeDataFeed'='true',"
            + " 'delta.enableDeletionVectors'='false')");
    for (int batch = 0; batch < 3; batch++) { // several files per day in the snapshot
      sql(
          "INSERT INTO delta.`"
              + path
              + "` SELECT id, concat('n', id), CAST(id * 10 AS INT),"
              + " date_add(DATE'2024-05-01', CAST(id % 2 AS INT)) FROM range("
              + batch * 10
              + ", "
              + (batch + 1) * 10
              + ")");
    }
    sql("UPDATE delta.`" + path + "` SET amount = amount + 1000 WHERE id % 3 = 0");
    sql("DELETE FROM delta.`" + path + "` WHERE id = 4");
    long last = latest(path);
    String sparkOut = dir.resolve("spark-out").toString();
    String sparkCheckpoint = dir.resolve("spark-checkpoint").toString();

    List<String> snapshot = sparkStreamAvailableNow(path, sparkOut, sparkCheckpoint);
    assertThat(snapshot) // every row of the latest version, as an insert of that version
        .isNotEmpty()
        .allMatch(r -> r.split("\\|")[4].equals("insert"))
        .allMatch(r -> r.split("\\|")[5].equals(Long.toString(last)));
    JobClient job = startStream(path, Map.of("maxFilesPerTrigger", "1", "pollInterval", "50ms"));
    try {
      awaitStreamed(snapshot.size());
      assertThat(streamed()).isEqualTo(snapshot);
      sql("UPDATE delta.`" + path + "` SET amount = amount + 1 WHERE id % 2 = 0");
      sql("INSERT INTO delta.`" + path + "` VALUES (200, 'after', 1, DATE'2024-05-03')");
      List<String> both = sparkStreamAvailableNow(path, sparkOut, sparkCheckpoint);
      assertThat(both.size()).isGreaterThan(snapshot.size());
      awaitStreamed(both.size());
      assertThat(streamed()).isEqualTo(both);
    } finally {
      job.cancel().get();
    }
  }

  /**
   * Runs Spark's change feed stream (no startingVersion) once with availableNow into a Parquet
   * sink; returns every row the sink holds after the run, as {@link #describe} gives them.
   */
  private static List<String> sparkStreamAvailableNow(String path, String out, String checkpoint)
      throws Exception {
    spark
        .readStream()
        .format("delta")
        .option("readChangeFeed", "true")
        .load(path)
        .writeStream()
        .format("parquet")
        .option("checkpointLocation", checkpoint)
        .trigger(Trigger.AvailableNow())
        .start(out)
        .awaitTermination();
    return describe(spark.read().parquet(out));
  }

  private static JobClient startStream(String path, Map<String, String> options) throws Exception {
    STREAMED.clear();
    Configuration conf = new Configuration();
    conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMillis(300));
    StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2, conf);
    env.fromSource(
            DeltaCdfSourceBuilder.forTable(path).name("cdf").options(options).build(),
            WatermarkStrategy.noWatermarks(),
            "cdf")
        .uid("cdf")
        .map(
            r ->
                r.getField(0)
                    + "|"
                    + r.getField(1)
                    + "|"
                    + r.getField(2)
                    + "|"
                    + r.getField(3)
                    + "|"
                    + r.getField(4)
                    + "|"
                    + r.getField(5)
                    + "|"
                    + r.getField(6))
        .returns(String.class)
        .sinkTo(new Collect());
    return env.executeAsync("cdf-interop");
  }

  /** Waits for {@code rows} streamed rows, then a second more for extra rows, if any. */
  private static void awaitStreamed(int rows) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(180).toNanos();
    while (STREAMED.size() < rows && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    Thread.sleep(1_000);
  }

  private static List<String> streamed() {
    List<String> streamed = new ArrayList<>(STREAMED);
    streamed.sort(null);
    return streamed;
  }

  /** Collects the streamed change rows (Sink V2). */
  static final class Collect implements Sink<String> {
    private static final long serialVersionUID = 1L;

    @Override
    public SinkWriter<String> createWriter(WriterInitContext context) {
      return writer();
    }

    @Override
    @Deprecated
    public SinkWriter<String> createWriter(InitContext context) {
      return writer();
    }

    private static SinkWriter<String> writer() {
      return new SinkWriter<>() {
        @Override
        public void write(String row, Context context) {
          STREAMED.add(row);
        }

        @Override
        public void flush(boolean endOfInput) {}

        @Override
        public void close() {}
      };
    }
  }
}
