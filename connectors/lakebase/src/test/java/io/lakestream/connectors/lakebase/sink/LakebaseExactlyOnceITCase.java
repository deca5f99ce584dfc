package io.lakestream.connectors.lakebase.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.lakestream.connectors.lakebase.LakebaseSchema;
import io.lakestream.connectors.lakebase.LakebaseSinkBuilder;
import io.lakestream.connectors.lakebase.StagingTable;
import io.lakestream.connectors.rate.source.RateSourceBuilder;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.state.query.OutputMode;
import io.lakestream.state.query.QueryContext;
import io.lakestream.testkit.flink.CompletedCheckpoints;
import io.lakestream.testkit.postgres.PostgresExtension;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The exactly-once mode (the default outside realTime) on a real PostgreSQL and a MiniCluster,
 * under an injected task failure mid-epoch: rows staged by the failed attempt are never applied,
 * epochs committed before the failure and handed to the committer again on restore are skipped, and
 * the keyed and the keyless table equal the model row for row, with every source row in exactly one
 * recorded epoch. The same under a PostgreSQL restart (a crash, recovered from the WAL) between
 * pre-commit and commit: a checkpoint completed, its epoch's rows are staged, and the committer's
 * transaction is open, waiting on a lock the test holds on the commit table, when the server goes
 * down; the job restores and the epoch is applied once. Also an epoch applied twice directly (a
 * restore after the PostgreSQL commit, before Flink learned of it) changes nothing the second time.
 *
 * <p>Both write methods are under failure injection: the keyed task-failure case and the keyless
 * restart case stage by binary COPY (option writeMethod copy), the others by UNNEST; {@code
 * -Dlakestream.test.lakebase.writeMethod=copy} (or {@code unnest}) runs every case with one.
 */
class LakebaseExactlyOnceITCase {
  private static final int KEYS = 100;
  private static final long ROWS = 6_000;
  private static final String CHECKPOINTS = "lakebase-eo-it";

  @RegisterExtension static final PostgresExtension POSTGRES = new PostgresExtension();

  @RegisterExtension
  static final MiniClusterExtension CLUSTER =
      new MiniClusterExtension(
          new MiniClusterResourceConfiguration.Builder()
              .setNumberTaskManagers(1)
              .setNumberSlotsPerTaskManager(2)
              .build());

  static final AtomicBoolean FAILED = new AtomicBoolean();
  static final AtomicInteger OPENS = new AtomicInteger();
  static volatile boolean failMidStream;

  private static final LakebaseSchema SCHEMA =
      LakebaseSchema.builder()
          .column("id", ColumnType.LONG, false)
          .column("value", ColumnType.LONG)
          .column("label", ColumnType.STRING)
          .build();

  @TempDir Path dir;

  /** This case's option writeMethod, unless the system property sets one for all. */
  private String writeMethod = "unnest";

  @BeforeEach
  void reset() {
    FAILED.set(false);
    OPENS.set(0);
    failMidStream = true;
  }

  @Test
  void aKeyedTableEqualsTheModelAfterATaskFailureMidEpoch() throws Exception {
    writeMethod = "copy";
    run("eo_keyed", true, table -> {});

    List<String> expected = new ArrayList<>();
    for (long k = 0; k < KEYS; k++) {
      long last = ROWS - KEYS + k;
      expected.add(k + "," + last + ",v" + last);
    }
    assertThat(FAILED).isTrue();
    assertThat(OPENS.get()).isGreaterThan(2); // the tasks were restarted
    assertThat(rows("eo_keyed")).containsExactlyElementsOf(expected);
    assertEveryRowInOneRecordedEpoch("eo_keyed");
  }

  @Test
  void aKeylessTableGetsEveryRowExactlyOnceAfterATaskFailureMidEpoch() throws Exception {
    run("eo_keyless", false, table -> {});

    List<String> expected = new ArrayList<>();
    for (long seq = 0; seq < ROWS; seq++) {
      expected.add(seq % KEYS + "," + seq + ",v" + seq);
    }
    assertThat(FAILED).isTrue();
    assertThat(rows("eo_keyless")).containsExactlyInAnyOrderElementsOf(expected);
    assertEveryRowInOneRecordedEpoch("eo_keyless");
  }

  @Test
  void aKeyedTableEqualsTheModelAfterAPostgresRestartBetweenPreCommitAndCommit() throws Exception {
    assumeTrue(POSTGRES.server().isEmbedded(), "needs the embedded server to restart it");
    failMidStream = false;
    run("eo_restart_keyed", true, LakebaseExactlyOnceITCase::restartWhileAnEpochIsBeingApplied);

    List<String> expected = new ArrayList<>();
    for (long k = 0; k < KEYS; k++) {
      long last = ROWS - KEYS + k;
      expected.add(k + "," + last + ",v" + last);
    }
    assertThat(OPENS.get()).isGreaterThan(2); // the job restored from its checkpoint
    assertThat(rows("eo_restart_keyed")).containsExactlyElementsOf(expected);
    assertEveryRowInOneRecordedEpoch("eo_restart_keyed");
  }

  @Test
  void aKeylessTableGetsEveryRowExactlyOnceAfterAPostgresRestartBetweenPreCommitAndCommit()
      throws Exception {
    assumeTrue(POSTGRES.server().isEmbedded(), "needs the embedded server to restart it");
    failMidStream = false;
    writeMethod = "copy";
    run("eo_restart_keyless", false, LakebaseExactlyOnceITCase::restartWhileAnEpochIsBeingApplied);

    List<String> expected = new ArrayList<>();
    for (long seq = 0; seq < ROWS; seq++) {
      expected.add(seq % KEYS + "," + seq + ",v" + seq);
    }
    assertThat(OPENS.get()).isGreaterThan(2);
    assertThat(rows("eo_restart_keyless")).containsExactlyInAnyOrderElementsOf(expected);
    assertEveryRowInOneRecordedEpoch("eo_restart_keyless");
  }

  /**
   * Once some epochs are applied, holds the commit table so the next epoch's commit (its checkpoint
   * completed, its rows staged) waits inside its transaction, then crashes and restarts PostgreSQL.
   */
  private static void restartWhileAnEpochIsBeingApplied(String table) throws Exception {
    await(() -> recordedRows(table) > 0, "a first epoch applied to " + table);
    Connection lock = POSTGRES.connect();
    try {
      lock.setAutoCommit(false);
      try (Statement s = lock.createStatement()) {
        s.execute("LOCK TABLE public." + StagingTable.COMMITS + " IN EXCLUSIVE MODE");
      }
      long applied = recordedRows(table);
      await(() -> committerWaitsOnTheCommitTable() > 0, "a commit waiting on the lock");
      assertThat(count("SELECT count(*) FROM " + table + "_lakestream_stage"))
          .as("rows staged for the waiting commit")
          .isPositive();
      assertThat(recordedRows(table))
          .as("no epoch applied while the lock is held")
          .isEqualTo(applied);
      PostgresRestart.restart(POSTGRES.server(), "immediate");
    } finally {
      try {
        lock.close();
      } catch (SQLException e) {
        // the server ended the session
      }
    }
  }

  private static long committerWaitsOnTheCommitTable() throws SQLException {
    return count(
        "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
            + " AND query LIKE 'INSERT INTO %"
            + StagingTable.COMMITS
            + "%'");
  }

  private interface Condition {
    boolean holds() throws SQLException;
  }

  private static void await(Condition condition, String what) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!holds(condition)) {
      assertThat(System.nanoTime()).as("waiting for " + what).isLessThan(deadline);
      Thread.sleep(20);
    }
  }

  private static boolean holds(Condition condition) {
    try {
      return condition.holds();
    } catch (SQLException e) {
      return false; // the sink has not created its tables yet
    }
  }

  /** What a test does to the running job (fail the server, say) before waiting for its rows. */
  private interface Interference {
    void apply(String table) throws Exception;
  }

  @Test
  void anEpochAppliedAgainAfterItsCommitChangesNothing() throws Exception {
    LakebaseSink<Long> sink = builder("eo_replayed", false).build();
    StagingTable staging = sink.staging();
    StagingTable.Tag tag = new StagingTable.Tag("replay-app", 0, 42L, 6L);
    Object[][] batch = {{1L, 10L, "a"}, {2L, 20L, "b"}};
    try (Connection c = POSTGRES.connect()) {
      c.setAutoCommit(true);
      staging.stage(c, c.prepareStatement(staging.stageInsertSql()), tag, 0, batch, null, 2);
      // what a failed attempt left for the same epoch under another stage id
      StagingTable.Tag orphan = new StagingTable.Tag("replay-app", 0, 43L, 6L);
      staging.stage(c, c.prepareStatement(staging.stageInsertSql()), orphan, 0, batch, null, 2);

      // what a failed attempt staged after a checkpoint (9) that never completed
      StagingTable.Tag tail = new StagingTable.Tag("replay-app", 0, 44L, 9L);
      staging.stage(c, c.prepareStatement(staging.stageInsertSql()), tail, 0, batch, null, 2);
      staging.dropStagedAfter(c, "replay-app", 0, 6L); // a writer restarting from checkpoint 6

      assertThat(staging.apply(c, tag, 2, 0)).isTrue();
      assertThat(staging.apply(c, tag, 2, 0)).isFalse(); // the restored committable: skipped
    }
    assertThat(rows("eo_replayed")).containsExactlyInAnyOrder("1,10,a", "2,20,b");
    assertThat(count("SELECT count(*) FROM " + staging.stage().sql())).isZero();
    assertThat(
            count(
                "SELECT count(*) FROM public."
                    + StagingTable.COMMITS
                    + " WHERE app_id = 'replay-app' AND epoch = 7"))
        .isEqualTo(1);
  }

  private LakebaseSinkBuilder<Long> builder(String table, boolean keyed) {
    QueryContext query =
        new QueryContext(
            "qid-" + table,
            "eo-it",
            "run",
            "eo-it-" + table,
            dir.resolve("chk").toUri().toString(),
            false,
            false,
            OutputMode.UPDATE);
    LakebaseSinkBuilder<Long> builder =
        LakebaseSinkBuilder.<Long>forSchema(
                SCHEMA, seq -> new Object[] {seq % KEYS, seq, "v" + seq})
            .option("endpoint", POSTGRES.jdbcUrl())
            .option("user", POSTGRES.user())
            .option("password", POSTGRES.password())
            .option("dbtable", table)
            .option("batchsize", "150")
            .option(
                "writeMethod",
                System.getProperty("lakestream.test.lakebase.writeMethod", writeMethod))
            .query(query);
    return keyed ? builder.option("upsertkey", "id") : builder;
  }

  private void run(String table, boolean keyed, Interference interference) throws Exception {
    Configuration conf = new Configuration();
    conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMillis(200));
    conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
    conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 10);
    conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(300));
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
    env.setParallelism(2);
    LakebaseSink<Long> sink = builder(table, keyed).build();
    assertThat(sink.exactlyOnce()).isTrue(); // the default outside realTime
    assertThat(sink.staging().copies())
        .isEqualTo(
            System.getProperty("lakestream.test.lakebase.writeMethod", writeMethod).equals("copy"));
    // sequence number n is in partition n % 2, and its key n % 100 with it
    env.fromSource(
            RateSourceBuilder.rate("seq", seq -> seq, Types.LONG)
                .rows(ROWS)
                .rowsPerSecond(5_000)
                .numPartitions(2)
                .build(),
            WatermarkStrategy.noWatermarks(),
            "seq")
        .uid("seq")
        .map(new FailOnceMidStream())
        .uid("fail-once")
        .map(new CompletedCheckpoints<>(CHECKPOINTS), Types.LONG)
        .uid("checkpoints")
        .sinkTo(sink)
        .uid("lakebase");
    JobClient job = env.executeAsync("lakebase-eo-" + table);
    try {
      interference.apply(table);
      // the rate source never ends: wait until the recorded epochs hold every row, then two more
      // checkpoints, so a row applied twice would show
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
      while (recordedRows(table) < ROWS && System.nanoTime() < deadline) {
        if (job.getJobStatus().get().isGloballyTerminalState()) {
          job.getJobExecutionResult().get(); // throws the job's failure
          throw new AssertionError("the job ended");
        }
        Thread.sleep(100);
      }
      CompletedCheckpoints.awaitMore(CHECKPOINTS, 2, Duration.ofMinutes(1));
    } finally {
      if (!job.getJobStatus().get().isGloballyTerminalState()) {
        job.cancel().get();
      }
    }
  }

  /** Counts task starts; throws once, mid-stream (after several epochs were applied). */
  static final class FailOnceMidStream extends RichMapFunction<Long, Long> {
    @Override
    public void open(OpenContext context) {
      OPENS.incrementAndGet();
    }

    @Override
    public Long map(Long seq) {
      if (failMidStream && seq >= ROWS / 2 && FAILED.compareAndSet(false, true)) {
        throw new IllegalStateException("injected task failure at sequence number " + seq);
      }
      return seq;
    }
  }

  private static long recordedRows(String table) throws SQLException {
    return count(
        "SELECT coalesce(sum(row_count), 0) FROM public."
            + StagingTable.COMMITS
            + " WHERE target = 'public."
            + table
            + "'");
  }

  /** The recorded epochs' row counts add up to the source's rows: none applied twice or lost. */
  private static void assertEveryRowInOneRecordedEpoch(String table) throws SQLException {
    assertThat(recordedRows(table)).isEqualTo(ROWS);
    assertThat(count("SELECT count(*) FROM " + table + "_lakestream_stage")).isZero();
  }

  private static List<String> rows(String table) throws SQLException {
    List<String> actual = new ArrayList<>();
    try (Connection c = POSTGRES.connect();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery("SELECT id, value, label FROM " + table + " ORDER BY id, value")) {
      while (rs.next()) {
        actual.add(rs.getLong(1) + "," + rs.getLong(2) + "," + rs.getString(3));
      }
    }
    return actual;
  }

  private static long count(String sql) throws SQLException {
    try (Connection c = POSTGRES.connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
