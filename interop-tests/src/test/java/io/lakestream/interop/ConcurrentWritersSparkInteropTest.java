package io.lakestream.interop;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.DeltaWrittenFile;
import io.lakestream.connectors.delta.logstore.LocalLinkLogStore;
import io.lakestream.connectors.delta.merge.DeltaMerge;
import io.lakestream.connectors.delta.merge.DeltaMergeCommit;
import io.lakestream.connectors.delta.merge.DeltaMergeResult;
import io.lakestream.connectors.delta.sink.DeltaSinkBuilder;
import io.lakestream.connectors.delta.sink.ForeachBatchSinkBuilder;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.connectors.sink.EpochFunction;
import io.lakestream.connectors.sink.EpochSink;
import io.lakestream.state.checkpoint.CheckpointLocation;
import io.lakestream.state.query.OutputMode;
import io.lakestream.state.query.QueryContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.delta.DeltaLog;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Two engines write one Delta table at the same time: a lakestream streaming query (a Flink job
 * with the exactly-once Delta sink in append mode and a foreachBatch sink whose epoch function is a
 * {@link DeltaMergeCommit} upsert, both on the same table) while a thread of the in-process
 * delta-spark session runs INSERTs, MERGE INTO upserts and two OPTIMIZEs on it. It proves that
 * under optimistic concurrency between the engines no commit is lost, no version is written twice
 * and no MERGE loses another writer's update:
 *
 * <ul>
 *   <li>the final table, read with delta-spark and with lakestream's {@link DeltaTableReader},
 *       equals a model row for row;
 *   <li>the {@code _delta_log} holds the versions 0..N, each one commit of exactly one writer:
 *       every lakestream epoch's {@code txn (appId, epoch)} and every Spark operation's {@code
 *       commitInfo.userMetadata} tag appear in exactly one version, and the versions add up to the
 *       commits the writers reported (the MERGE results, the append sink's {@code commits/N}
 *       records, the Spark statements that returned);
 *   <li>the lakestream commits interleave with the Spark ones (the writers did overlap).
 * </ul>
 *
 * <p>Keys are laid out so the model does not depend on the order of the commits. The table is
 * partitioned by {@code band}: {@code la} rows are appended by lakestream ({@code key = 1,000,000 +
 * id}), {@code sa} rows by Spark ({@code key = 2,000,000 + ...}), and in {@code m} both MERGE the
 * same keys, each setting only its own column: lakestream {@code ls} (keys {@code id % 200}, the
 * greatest id wins), Spark {@code sp} (keys {@code 0..219} with {@code key % 3 == round % 3}, value
 * {@code 100 + round}). A MERGE that overwrote a row without seeing the other engine's concurrent
 * update of it would bring back the old value of the other column, and a missed concurrent insert
 * would duplicate the key.
 *
 * <p>Expected conflicts: a Spark MERGE (it reads partition {@code m}) fails with {@code
 * ConcurrentAppendException} or {@code ConcurrentDeleteReadException} when a lakestream MERGE
 * committed in {@code m} meanwhile; OPTIMIZE of the whole table fails with {@code
 * ConcurrentDeleteReadException} (or {@code ConcurrentDeleteDeleteException}) when a lakestream
 * MERGE removed a file it compacts. Lakestream's appends do not conflict with Spark's MERGE (they
 * are in another partition), Spark's INSERTs are blind appends and conflict with nothing. The Spark
 * thread retries a statement that failed with a {@code DeltaConcurrentModificationException} (what
 * a Spark user does), never anything else. On the lakestream side, a MERGE that lost the race to a
 * non-conflicting commit is rebased ({@code attempts > 1}); one that conflicts (a Spark MERGE or
 * OPTIMIZE rewrote its files or added rows with its keys) is planned again, and after three
 * re-plans its epoch fails and the job restarts from its last checkpoint, which replays the epoch;
 * lakestream appends are rebased by Delta Kernel. The test prints what it observed.
 *
 * <p>On a local disk delta-spark must publish its commits put-if-absent for any of this to hold
 * (see {@link #startSpark()}); the test checks that no commit file was renamed into place.
 */
class ConcurrentWritersSparkInteropTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long ROWS = 6_000; // 30 s at 200 rows/s
  // The MERGE gets the ids of the first 3 s of every 9 s: Spark statements on partition m (seconds
  // long) find windows without a lakestream MERGE commit there, and the windows' edges race.
  private static final long MERGE_CYCLE = 1_800;
  private static final long MERGE_ACTIVE = 600;
  private static final int ROWS_PER_SECOND = 200;
  private static final long CHECKPOINT_MILLIS = 1_000;
  private static final long MERGE_KEYS = 200; // lakestream MERGE keys: id % 200
  private static final long INITIAL_KEYS = 150; // band m rows Spark inserts before the race
  private static final long SPARK_MERGE_KEYS = 220; // Spark MERGE keys 0..219, 200..219 its own
  private static final int SPARK_ROUNDS = 4;
  private static final int SPARK_APPEND_ROWS = 40;
  private static final long LS_APPEND_BASE = 1_000_000;
  private static final long SPARK_APPEND_BASE = 2_000_000;
  private static final String USER_METADATA = "spark.databricks.delta.commitInfo.userMetadata";
  private static final String SPARK_FILE_LOG_STORE = "spark.delta.logStore.file.impl";

  /** What the MERGE epoch function reported, per call (the function runs in this JVM). */
  private static final Queue<DeltaMergeResult> MERGE_RESULTS = new ConcurrentLinkedQueue<>();

  /** Each call of the epoch function, for the report. */
  private static final Queue<String> MERGE_CALLS = new ConcurrentLinkedQueue<>();

  /** Epoch function failures (MERGE conflicts that outlived the re-plans), per call. */
  private static final Queue<String> MERGE_FAILURES = new ConcurrentLinkedQueue<>();

  private static final DeltaTableSchema SCHEMA =
      DeltaTableSchema.builder()
          .column("key", ColumnType.LONG, false)
          .column("band", ColumnType.STRING)
          .column("ls", ColumnType.LONG)
          .column("sp", ColumnType.LONG)
          .partitionedBy("band")
          .build();

  /** The MERGE source rows as the foreachBatch sink stages them (same columns, unpartitioned). */
  private static final DeltaTableSchema STAGING =
      DeltaTableSchema.builder()
          .column("key", ColumnType.LONG, false)
          .column("band", ColumnType.STRING)
          .column("ls", ColumnType.LONG)
          .column("sp", ColumnType.LONG)
          .build();

  private static SparkSession spark;

  @TempDir Path dir;

  @BeforeAll
  static void startSpark() {
    spark = InteropSpark.session(); // with 1 snapshot partition, not Spark's 50 (seconds a commit)
    // delta-spark's default log store for file: paths (HDFSLogStore) checks that a commit file is
    // absent and then renames onto it, and a local rename replaces an existing file: a lakestream
    // commit created in between would be silently replaced by Spark's (its lock only covers its
    // own writers). So Spark publishes its commits put-if-absent with a hard link here, as
    // lakestream does: two engines writing one table on a local disk need that. Each new DeltaLog
    // reads it, so it applies to this class's tables only.
    spark.sparkContext().conf().set(SPARK_FILE_LOG_STORE, LocalLinkLogStore.class.getName());
  }

  @AfterAll
  static void stopSpark() {
    spark.conf().unset(USER_METADATA);
    spark.sparkContext().conf().remove(SPARK_FILE_LOG_STORE); // the session serves later classes
  }

  /** One Spark statement the thread ran to success: its tag, whether it committed, conflicts. */
  record SparkOp(
      String tag,
      boolean committed,
      List<String> conflicts,
      long lastAttemptMillis,
      long totalMillis) {}

  @Test
  void sparkAndLakestreamWriteOneTableConcurrently() throws Exception {
    String path = dir.resolve("table").toString();
    Path checkpoint = dir.resolve("chk");
    QueryContext query =
        new QueryContext(
            "cw",
            "concurrent-writers",
            "run",
            "cw-app",
            checkpoint.toUri().toString(),
            false,
            false,
            OutputMode.APPEND);
    String appendApp = query.appId();
    String mergeApp = query.appId() + "-merge";
    DeltaTable table = DeltaTable.forPath(path);
    table.ensureExists(SCHEMA); // version 0, by lakestream
    List<SparkOp> sparkOps = new ArrayList<>();
    sparkOps.add(
        sparkRun(
            "spark-init",
            "INSERT INTO delta.`"
                + path
                + "` SELECT id AS key, 'm' AS band, CAST(NULL AS BIGINT) AS ls,"
                + " CAST(NULL AS BIGINT) AS sp FROM range(0, "
                + INITIAL_KEYS
                + ")"));

    JobClient job = startQuery(path, checkpoint, query, mergeApp);
    ExecutorService sparkThread = Executors.newSingleThreadExecutor();
    List<SparkOp> concurrentOps;
    long started = System.nanoTime();
    boolean finished = false;
    try {
      awaitVersion(path, 2, Duration.ofSeconds(60)); // the query's first commit
      CompletableFuture<List<SparkOp>> sparkWrites =
          CompletableFuture.supplyAsync(() -> sparkRounds(path), sparkThread);
      job.getJobExecutionResult().get(3, TimeUnit.MINUTES);
      finished = true;
      concurrentOps = sparkWrites.get(3, TimeUnit.MINUTES);
    } finally {
      sparkThread.shutdownNow();
      if (!finished) {
        job.cancel().get();
      }
    }
    sparkOps.addAll(concurrentOps);
    System.out.printf(
        "concurrent writers: query and Spark finished after %d ms%n",
        Duration.ofNanos(System.nanoTime() - started).toMillis());

    Map<Long, Commit> log = readLog(path);
    report(log, sparkOps, path);

    // 1. versions 0..N, each one writer's commit, each commit reported by its writer (first: a
    // lost or replaced commit is named here, before the rows show it)
    long last = log.keySet().stream().mapToLong(Long::longValue).max().orElseThrow();
    assertThat(log.keySet()).as("contiguous versions").hasSize((int) last + 1);
    try (Stream<Path> files = Files.list(Path.of(path, "_delta_log"))) {
      assertThat(files.map(p -> p.getFileName().toString()))
          .as("commits published by hard link, none renamed over (Hadoop checksum files)")
          .noneMatch(name -> name.matches("\\.\\d{20}\\.json\\.crc"));
    }
    assertThat(log.get(0L).userMetadata()).isNull();
    Map<String, Long> sparkVersionByTag = new TreeMap<>();
    TreeMap<Long, Long> appendVersionByEpoch = new TreeMap<>();
    TreeMap<Long, Long> mergeVersionByEpoch = new TreeMap<>();
    Set<String> commitInfos = new HashSet<>();
    for (Commit c : log.values()) {
      assertThat(commitInfos.add(c.commitInfo()))
          .as("commitInfo of version %s is distinct", c.version())
          .isTrue();
      if (c.version() == 0) {
        continue;
      }
      if (c.userMetadata() != null) {
        assertThat(c.txns()).as("txns of Spark's version %s", c.version()).isEmpty();
        assertThat(sparkVersionByTag.put(c.userMetadata(), c.version()))
            .as("Spark commit %s once", c.userMetadata())
            .isNull();
        continue;
      }
      assertThat(c.txns()).as("txns of lakestream's version %s", c.version()).hasSize(1);
      Map.Entry<String, Long> txn = c.txns().entrySet().iterator().next();
      Map<Long, Long> byEpoch =
          txn.getKey().equals(appendApp)
              ? appendVersionByEpoch
              : txn.getKey().equals(mergeApp) ? mergeVersionByEpoch : null;
      assertThat(byEpoch).as("app id %s of version %s", txn.getKey(), c.version()).isNotNull();
      assertThat(byEpoch.put(txn.getValue(), c.version()))
          .as("epoch %s of %s in one version", txn.getValue(), txn.getKey())
          .isNull();
      assertThat(byEpoch.keySet().stream().mapToLong(Long::longValue).max().orElseThrow())
          .as("epochs of %s in increasing versions", txn.getKey())
          .isEqualTo(txn.getValue());
    }
    // Spark: every statement that committed is in exactly one version, nothing else is
    List<String> sparkCommitted =
        sparkOps.stream().filter(SparkOp::committed).map(SparkOp::tag).toList();
    assertThat(sparkVersionByTag.keySet()).containsExactlyInAnyOrderElementsOf(sparkCommitted);
    // the MERGE: every epoch reported COMMITTED is at its reported version, nothing else is
    Map<Long, Long> reportedMerges = new TreeMap<>();
    Set<Long> mergeSkipped = new HashSet<>();
    for (DeltaMergeResult r : MERGE_RESULTS) {
      if (r.status() == DeltaMergeResult.Status.COMMITTED) {
        assertThat(reportedMerges.put(r.epoch(), r.version()))
            .as("MERGE epoch %s reported committed once", r.epoch())
            .isNull();
      } else if (r.status() == DeltaMergeResult.Status.ALREADY_COMMITTED) {
        mergeSkipped.add(r.epoch());
      }
    }
    assertThat(mergeVersionByEpoch).isEqualTo(reportedMerges);
    assertThat(reportedMerges.keySet()).containsAll(mergeSkipped);
    // the append sink: its commit records (commits/N/append) against the log
    Map<Long, JsonNode> appendRecords = new TreeMap<>();
    CheckpointLocation location = new CheckpointLocation(checkpoint.toUri());
    for (long epoch : location.epochs().committedEpochs()) {
      JsonNode record = location.epochs().readCommits(epoch).get("append");
      if (record != null && !"EMPTY".equals(record.path("status").asText())) {
        appendRecords.put(epoch, record);
      }
    }
    assertThat(appendVersionByEpoch.keySet())
        .as("append epochs in the log = epochs the sink recorded")
        .containsExactlyElementsOf(appendRecords.keySet());
    appendRecords.forEach(
        (epoch, record) -> {
          String status = record.path("status").asText();
          long version = Long.parseLong(record.path("detail").asText().replace("version=", ""));
          if (status.equals("COMMITTED")) {
            assertThat(appendVersionByEpoch.get(epoch))
                .as("append epoch %s at its reported version", epoch)
                .isEqualTo(version);
          } else {
            assertThat(status).isEqualTo("ALREADY_COMMITTED");
            assertThat(appendVersionByEpoch.get(epoch)).isLessThanOrEqualTo(version);
          }
        });
    assertThat(log)
        .as("versions = table creation + Spark's + lakestream's commits")
        .hasSize(
            1 + sparkCommitted.size() + appendVersionByEpoch.size() + mergeVersionByEpoch.size());
    // Spark agrees: history lists every version, its txn map holds each app's last epoch
    assertThat(
            spark.sql("DESCRIBE HISTORY delta.`" + path + "`").collectAsList().stream()
                .map(r -> r.getLong(0))
                .toList())
        .containsExactlyInAnyOrderElementsOf(log.keySet());
    DeltaLog.clearCache();
    Map<String, Object> txnMap =
        CollectionConverters.asJava(DeltaLog.forTableWithSnapshot(spark, path)._2().transactions());
    assertThat(txnMap)
        .containsEntry(appendApp, appendVersionByEpoch.lastKey())
        .containsEntry(mergeApp, mergeVersionByEpoch.lastKey());

    // 2. the table equals the model, read by both engines
    List<String> model = model(sparkOps);
    List<String> sparkRows =
        spark
            .read()
            .format("delta")
            .load(path)
            .selectExpr("key", "band", "ls", "sp")
            .collectAsList()
            .stream()
            .map(ConcurrentWritersSparkInteropTest::text)
            .toList();
    assertThat(sparkRows).as("table read by delta-spark").hasSameSizeAs(model);
    assertThat(sparkRows).containsExactlyInAnyOrderElementsOf(model);
    DeltaTableReader reader = new DeltaTableReader(table);
    List<String> names = reader.columnNames();
    List<String> lakestreamRows =
        reader.readLatest().stream()
            .map(
                r ->
                    r[names.indexOf("key")]
                        + "|"
                        + r[names.indexOf("band")]
                        + "|"
                        + r[names.indexOf("ls")]
                        + "|"
                        + r[names.indexOf("sp")])
            .toList();
    assertThat(lakestreamRows)
        .as("table read by lakestream")
        .containsExactlyInAnyOrderElementsOf(model);

    // 3. the writers overlapped: lakestream committed between Spark's concurrent commits
    long firstSpark =
        concurrentOps.stream()
            .filter(SparkOp::committed)
            .mapToLong(o -> sparkVersionByTag.get(o.tag()))
            .min()
            .orElseThrow();
    long lastSpark =
        concurrentOps.stream()
            .filter(SparkOp::committed)
            .mapToLong(o -> sparkVersionByTag.get(o.tag()))
            .max()
            .orElseThrow();
    assertThat(
            Stream.concat(
                    appendVersionByEpoch.values().stream(), mergeVersionByEpoch.values().stream())
                .filter(v -> v > firstSpark && v < lastSpark)
                .count())
        .as("lakestream commits between Spark's versions %s and %s", firstSpark, lastSpark)
        .isPositive();
    assertThat(mergeVersionByEpoch).hasSizeGreaterThanOrEqualTo(5);
  }

  /** Starts the query: ids at a fixed rate into the append sink and the foreachBatch MERGE. */
  private static JobClient startQuery(
      String path, Path checkpoint, QueryContext query, String mergeApp) throws Exception {
    DeltaTable table = DeltaTable.forPath(path);
    DeltaMergeCommit merge =
        new DeltaMergeCommit(
            DeltaMerge.into(table, SCHEMA, "band", "key")
                .whenMatchedUpdate(
                    (s, t) -> t[2] == null || (Long) s[2] > (Long) t[2],
                    (s, t) -> new Object[] {t[0], t[1], s[2], t[3]}) // keeps Spark's sp
                .whenNotMatchedInsertAll()
                .lastByOrderingColumn("ls")
                .build(),
            mergeApp);
    EpochFunction mergeFunction = recording(merge);
    EpochSink<Long, DeltaWrittenFile> appendSink =
        DeltaSinkBuilder.forTable(
                path, SCHEMA, (Long id) -> new Object[] {LS_APPEND_BASE + id, "la", id, null})
            .query(query)
            .sinkName("append")
            .build();
    EpochSink<Long, DeltaWrittenFile> mergeSink =
        ForeachBatchSinkBuilder.<Long>forStaging(
                checkpoint.resolve("staging").toString(),
                STAGING,
                id -> new Object[] {id % MERGE_KEYS, "m", id, null})
            .function(mergeFunction)
            .query(query)
            .sinkName("merge")
            .build();

    Configuration conf = new Configuration();
    conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMillis(CHECKPOINT_MILLIS));
    conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
    conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 20);
    conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(200));
    conf.set(RestOptions.BIND_ADDRESS, "127.0.0.1");
    conf.set(RestOptions.ADDRESS, "127.0.0.1");
    conf.set(RestOptions.BIND_PORT, "0");
    StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2, conf);
    DataStream<Long> ids =
        env.fromSource(
                new DataGeneratorSource<>(
                    i -> i, ROWS, RateLimiterStrategy.perSecond(ROWS_PER_SECOND), Types.LONG),
                WatermarkStrategy.noWatermarks(),
                "ids")
            .setParallelism(1) // ids in time order: the MERGE windows are windows of time
            .uid("ids");
    ids.sinkTo(appendSink).uid("append");
    ids.filter(ConcurrentWritersSparkInteropTest::merged)
        .uid("merge-window")
        .sinkTo(mergeSink)
        .uid("merge");
    return env.executeAsync("concurrent-writers");
  }

  /** Whether id {@code id} goes to the MERGE (every id goes to the append sink). */
  private static boolean merged(long id) {
    return id % MERGE_CYCLE < MERGE_ACTIVE;
  }

  /** The MERGE as the epoch function, recording each result and failure. */
  private static EpochFunction recording(DeltaMergeCommit merge) {
    return (epoch, rows) -> {
      try {
        DeltaMergeResult result = merge.commit(epoch, rows);
        MERGE_RESULTS.add(result);
        MERGE_CALLS.add(
            "epoch "
                + epoch
                + ": "
                + rows.size()
                + " rows, ids "
                + rows.stream().mapToLong(r -> (Long) r[2]).min().orElse(-1)
                + ".."
                + rows.stream().mapToLong(r -> (Long) r[2]).max().orElse(-1)
                + " -> "
                + result.status()
                + " version "
                + result.version()
                + " (planned on "
                + result.readVersion()
                + ", attempts "
                + result.attempts()
                + ")");
      } catch (IOException | RuntimeException e) {
        MERGE_FAILURES.add("epoch " + epoch + ": " + e);
        throw e;
      }
    };
  }

  /**
   * Spark's rounds while the query runs: an append and a MERGE each; OPTIMIZE of lakestream's
   * appends after the first append, OPTIMIZE of the whole table after the second MERGE.
   */
  private static List<SparkOp> sparkRounds(String path) {
    List<SparkOp> ops = new ArrayList<>();
    String t = "delta.`" + path + "`";
    for (int r = 0; r < SPARK_ROUNDS; r++) {
      ops.add(
          sparkRun(
              "spark-append-" + r,
              "INSERT INTO "
                  + t
                  + " SELECT "
                  + (SPARK_APPEND_BASE + r * SPARK_APPEND_ROWS)
                  + " + id AS key, 'sa' AS band, CAST(NULL AS BIGINT) AS ls, CAST("
                  + r
                  + " AS BIGINT) AS sp FROM range(0, "
                  + SPARK_APPEND_ROWS
                  + ")"));
      if (r == 0) { // compacts lakestream's appends while it keeps appending
        ops.add(sparkRun("spark-optimize-la", "OPTIMIZE " + t + " WHERE band = 'la'"));
      }
      ops.add(
          sparkRun(
              "spark-merge-" + r,
              "MERGE INTO "
                  + t
                  + " t USING (SELECT id AS key, CAST("
                  + (100 + r)
                  + " AS BIGINT) AS sp FROM range(0, "
                  + SPARK_MERGE_KEYS
                  + ") WHERE id % 3 = "
                  + (r % 3)
                  + ") s ON t.band = 'm' AND t.key = s.key"
                  + " WHEN MATCHED THEN UPDATE SET t.sp = s.sp"
                  + " WHEN NOT MATCHED THEN INSERT (key, band, ls, sp) VALUES (s.key, 'm', NULL,"
                  + " s.sp)"));
      if (r == 1) {
        ops.add(sparkRun("spark-optimize-all", "OPTIMIZE " + t));
      }
    }
    return ops;
  }

  /**
   * Runs {@code sql} tagged with {@code tag} (commitInfo.userMetadata) until it does not fail with
   * a concurrent modification; any other failure fails the test.
   */
  private static SparkOp sparkRun(String tag, String sql) {
    List<String> conflicts = new ArrayList<>();
    long start = System.nanoTime();
    long deadline = start + Duration.ofMinutes(2).toNanos();
    while (true) {
      long attempt = System.nanoTime();
      spark.conf().set(USER_METADATA, tag);
      try {
        List<Row> result = spark.sql(sql).collectAsList();
        boolean committed = true;
        if (tag.startsWith("spark-optimize")) {
          Row metrics = result.get(0).getStruct(1);
          committed = metrics.<Long>getAs("numFilesAdded") > 0;
        }
        long now = System.nanoTime();
        return new SparkOp(
            tag,
            committed,
            conflicts,
            Duration.ofNanos(now - attempt).toMillis(),
            Duration.ofNanos(now - start).toMillis());
      } catch (RuntimeException e) {
        Throwable conflict = e;
        while (conflict != null
            && !(conflict instanceof io.delta.exceptions.DeltaConcurrentModificationException)) {
          conflict = conflict.getCause();
        }
        if (conflict == null || System.nanoTime() > deadline) {
          throw e;
        }
        conflicts.add(conflict.getClass().getSimpleName());
      } finally {
        spark.conf().unset(USER_METADATA);
      }
    }
  }

  /** The expected rows, {@code key|band|ls|sp}, from the ids and the Spark statements. */
  private static List<String> model(List<SparkOp> sparkOps) {
    Map<Long, Object[]> rows = new TreeMap<>();
    for (long k = 0; k < INITIAL_KEYS; k++) {
      rows.put(k, new Object[] {k, "m", null, null});
    }
    for (SparkOp op : sparkOps) {
      if (op.tag().startsWith("spark-append-")) {
        long r = Long.parseLong(op.tag().substring("spark-append-".length()));
        for (long i = 0; i < SPARK_APPEND_ROWS; i++) {
          long key = SPARK_APPEND_BASE + r * SPARK_APPEND_ROWS + i;
          rows.put(key, new Object[] {key, "sa", null, r});
        }
      } else if (op.tag().startsWith("spark-merge-")) {
        long r = Long.parseLong(op.tag().substring("spark-merge-".length()));
        for (long k = 0; k < SPARK_MERGE_KEYS; k++) {
          if (k % 3 == r % 3) {
            rows.computeIfAbsent(k, key -> new Object[] {key, "m", null, null})[3] = 100 + r;
          }
        }
      }
    }
    for (long id = 0; id < ROWS; id++) {
      if (merged(id)) {
        Object[] row =
            rows.computeIfAbsent(id % MERGE_KEYS, k -> new Object[] {k, "m", null, null});
        row[2] = row[2] == null ? id : Math.max((Long) row[2], id);
      }
      rows.put(LS_APPEND_BASE + id, new Object[] {LS_APPEND_BASE + id, "la", id, null});
    }
    return rows.values().stream().map(r -> r[0] + "|" + r[1] + "|" + r[2] + "|" + r[3]).toList();
  }

  private static String text(Row r) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < r.length(); i++) {
      b.append(i == 0 ? "" : "|").append(r.isNullAt(i) ? "null" : r.get(i).toString());
    }
    return b.toString();
  }

  /** One version of the log: its commitInfo (as JSON text), Spark's tag, its txns. */
  record Commit(
      long version,
      String commitInfo,
      String userMetadata,
      String engineInfo,
      String operation,
      long readVersion,
      Map<String, Long> txns) {}

  private static Map<Long, Commit> readLog(String path) throws IOException {
    Map<Long, Commit> out = new TreeMap<>();
    try (Stream<Path> files = Files.list(Path.of(path, "_delta_log"))) {
      for (Path f :
          files.filter(p -> p.getFileName().toString().matches("\\d{20}\\.json")).toList()) {
        long version = Long.parseLong(f.getFileName().toString().substring(0, 20));
        JsonNode info = null;
        Map<String, Long> txns = new LinkedHashMap<>();
        for (String line : Files.readAllLines(f)) {
          if (line.isBlank()) {
            continue;
          }
          JsonNode action = JSON.readTree(line);
          if (action.has("commitInfo")) {
            assertThat(info).as("one commitInfo in version %s", version).isNull();
            info = action.get("commitInfo");
          }
          if (action.has("txn")) {
            txns.put(
                action.get("txn").get("appId").asText(), action.get("txn").get("version").asLong());
          }
        }
        assertThat(info).as("commitInfo of version %s", version).isNotNull();
        out.put(
            version,
            new Commit(
                version,
                info.toString(),
                info.hasNonNull("userMetadata") ? info.get("userMetadata").asText() : null,
                info.path("engineInfo").asText(),
                info.path("operation").asText(),
                info.path("readVersion").asLong(-1),
                txns));
      }
    }
    return out;
  }

  /** Prints what happened: the order of commits, Spark's conflicts, lakestream's retries. */
  private static void report(Map<Long, Commit> log, List<SparkOp> sparkOps, String path)
      throws IOException {
    Map<String, Long> sparkVersions = new TreeMap<>();
    log.values().stream()
        .filter(c -> c.userMetadata() != null)
        .forEach(c -> sparkVersions.put(c.userMetadata(), c.version()));
    StringBuilder b =
        new StringBuilder("concurrent writers: ").append(log.size()).append(" versions\n");
    for (SparkOp op : sparkOps) {
      b.append("  ")
          .append(op.tag())
          .append(op.committed() ? " -> version " + sparkVersions.get(op.tag()) : " (no commit)")
          .append(", conflicts retried: ")
          .append(op.conflicts())
          .append(", ")
          .append(op.lastAttemptMillis())
          .append(" ms (")
          .append(op.totalMillis())
          .append(" ms with retries)")
          .append('\n');
    }
    MERGE_CALLS.forEach(c -> b.append("  lakestream MERGE ").append(c).append('\n'));
    long rebased = MERGE_RESULTS.stream().filter(r -> r.attempts() > 1).count();
    long stale =
        MERGE_RESULTS.stream()
            .filter(r -> r.status() == DeltaMergeResult.Status.COMMITTED)
            .filter(r -> r.version() > r.readVersion() + 1)
            .count();
    b.append("  lakestream MERGE calls: ")
        .append(MERGE_RESULTS.size())
        .append(", rebased on a non-conflicting commit: ")
        .append(rebased)
        .append(", committed on a version newer than planned+1: ")
        .append(stale)
        .append(", epochs failed after re-plans (job restarted): ")
        .append(MERGE_FAILURES)
        .append('\n');
    Set<String> referenced = new HashSet<>();
    for (long v : log.keySet()) {
      for (String line :
          Files.readAllLines(Path.of(path, "_delta_log", String.format("%020d.json", v)))) {
        JsonNode a = JSON.readTree(line);
        if (a.has("add")) {
          referenced.add(a.get("add").get("path").asText());
        }
      }
    }
    List<String> orphans;
    try (Stream<Path> files = Files.walk(Path.of(path))) {
      orphans =
          files
              .filter(p -> p.toString().endsWith(".parquet"))
              .map(p -> Path.of(path).relativize(p).toString())
              .filter(p -> !p.startsWith("_delta_log") && !referenced.contains(p))
              .toList();
    }
    // lakestream names data files <uuid>-000.parquet, Spark part-<n>-<uuid>.c000.snappy.parquet
    long bySpark = orphans.stream().filter(p -> p.contains("part-")).count();
    b.append("  data files no version references (of discarded plans and attempts): ")
        .append(orphans.size() - bySpark)
        .append(" by lakestream, ")
        .append(bySpark)
        .append(" by Spark");
    System.out.println(b);
  }

  private static void awaitVersion(String path, long version, Duration timeout)
      throws InterruptedException {
    Path file = Path.of(path, "_delta_log", String.format("%020d.json", version));
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!Files.exists(file)) {
      assertThat(System.nanoTime())
          .as("version %s within %s", version, timeout)
          .isLessThan(deadline);
      Thread.sleep(50);
    }
  }
}
