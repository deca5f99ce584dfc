package io.lakestream.connectors.lakebase.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.lakestream.connectors.lakebase.LakebaseSchema;
import io.lakestream.connectors.lakebase.LakebaseSinkBuilder;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Streaming upserts from a Flink job into PostgreSQL under failures: an injected task failure
 * (restore from checkpoint and replay), connections killed with pg_terminate_backend, and a restart
 * of the PostgreSQL server. Each time the final table equals, row for row, the last value of every
 * key.
 */
class LakebaseSinkITCase {
  private static final int KEYS = 500;
  private static final long ROWS = 20_000;

  @RegisterExtension static final PostgresExtension POSTGRES = new PostgresExtension();

  @RegisterExtension
  static final MiniClusterExtension CLUSTER =
      new MiniClusterExtension(
          new MiniClusterResourceConfiguration.Builder()
              .setNumberTaskManagers(1)
              .setNumberSlotsPerTaskManager(2)
              .build());

  static final AtomicBoolean FAIL_ONCE = new AtomicBoolean();
  static final AtomicBoolean FAILED = new AtomicBoolean();
  static final AtomicInteger OPENS = new AtomicInteger();
  static final String CHECKPOINTS = "lakebase-sink-it";

  private static final LakebaseSchema SCHEMA =
      LakebaseSchema.builder()
          .column("id", ColumnType.LONG, false)
          .column("value", ColumnType.LONG)
          .column("label", ColumnType.STRING)
          .build();

  @TempDir Path dir;
  private JobClient running;

  @AfterEach
  void cancel() throws Exception {
    // a job left running (after a failed assertion) would hold the slots of the next test
    if (running != null && !running.getJobStatus().get().isGloballyTerminalState()) {
      running.cancel().get();
    }
  }

  @BeforeEach
  void reset() {
    FAIL_ONCE.set(false);
    FAILED.set(false);
    OPENS.set(0);
  }

  @Test
  void anInjectedTaskFailureReplaysFromTheCheckpointAndTheTableHoldsTheLastValuePerKey()
      throws Exception {
    FAIL_ONCE.set(true);
    JobClient job = start("after_failure");
    awaitFinalTable("after_failure", job);
    assertThat(FAILED).isTrue();
    assertThat(OPENS.get()).isGreaterThan(2); // the tasks were restarted
    assertExact("after_failure");
  }

  @Test
  void withAVersionColumnAReaderNeverSeesARowGoBackDuringTheReplay() throws Exception {
    FAIL_ONCE.set(true);
    JobClient job = start("version_guard", "versioncolumn", "value");
    java.util.Map<Long, Long> seen = new java.util.HashMap<>();
    List<String> backwards = new ArrayList<>();
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
    while (!finalTableReached("version_guard") && System.nanoTime() < deadline) {
      try (Connection c = POSTGRES.connect();
          Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT id, value FROM version_guard")) {
        while (rs.next()) {
          long id = rs.getLong(1);
          long value = rs.getLong(2);
          Long before = seen.put(id, Math.max(value, seen.getOrDefault(id, value)));
          if (before != null && value < before) {
            backwards.add(id + ": " + before + " -> " + value);
          }
        }
      }
    }
    awaitFinalTable("version_guard", job);
    assertThat(FAILED).isTrue();
    assertThat(backwards).isEmpty();
    assertExact("version_guard");
  }

  @Test
  void killedConnectionsAreRetriedWithoutFailingTheJob() throws Exception {
    JobClient job = start("killed_connections");
    int killed = 0;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (killed < 10
        && System.nanoTime() < deadline
        && !finalTableReached("killed_connections")) {
      Thread.sleep(300);
      killed += terminateSinkConnections();
    }
    awaitFinalTable("killed_connections", job);
    assertThat(killed).isGreaterThanOrEqualTo(5);
    assertThat(OPENS.get()).isEqualTo(2); // recovered by retries: no task restarted
    assertExact("killed_connections");
  }

  @Test
  void aRestartOfThePostgresServerIsRidden() throws Exception {
    assumeTrue(POSTGRES.server().isEmbedded(), "needs the embedded server to restart it");
    JobClient job = start("server_restart");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (rowCount("server_restart") < KEYS && System.nanoTime() < deadline) {
      Thread.sleep(100);
    }
    PostgresRestart.restart(POSTGRES.server(), "fast");
    awaitFinalTable("server_restart", job);
    assertExact("server_restart");
  }

  @Test
  void withTasksPerConnectionTwoBothTasksShareOneConnection() throws Exception {
    JobClient job = start("shared_connection", "tasksPerConnection", "2");
    int most = 0;
    while (!finalTableReached("shared_connection")) {
      most = Math.max(most, sinkConnections());
      Thread.sleep(50);
    }
    awaitFinalTable("shared_connection", job);
    assertThat(most).isEqualTo(1);
    assertExact("shared_connection");
  }

  private JobClient start(String table, String... extraOptions) throws Exception {
    Configuration conf = new Configuration();
    conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMillis(300));
    conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
    conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 3);
    conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(200));
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
    env.setParallelism(2);
    QueryContext query =
        new QueryContext(
            "qid",
            "lakebase-it",
            "run",
            "lakebase-it-qid",
            dir.resolve("chk").toUri().toString(),
            false,
            false,
            OutputMode.UPDATE);
    LakebaseSink<Long> sink =
        LakebaseSinkBuilder.<Long>forSchema(
                SCHEMA, seq -> new Object[] {seq % KEYS, seq, "v" + seq})
            .option("endpoint", POSTGRES.jdbcUrl())
            .option("user", POSTGRES.user())
            .option("password", POSTGRES.password())
            .option("dbtable", table)
            .option("upsertkey", "id")
            .option("batchsize", "200")
            .option("batchinterval", "50 ms")
            .option("deliveryGuarantee", "at-least-once") // the path these tests are about
            .options(pairs(extraOptions))
            .query(query)
            .build();
    // sequence number n is in partition n % 2, and every key (n % 500) with it: one key's rows
    // arrive in order at one sink subtask
    env.fromSource(
            RateSourceBuilder.rate("seq", seq -> seq, Types.LONG)
                .rows(ROWS)
                .rowsPerSecond(4_000)
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
    running = env.executeAsync("lakebase-" + table);
    return running;
  }

  /** Counts task starts; throws once, mid-stream, when asked to. */
  static final class FailOnceMidStream extends RichMapFunction<Long, Long> {
    @Override
    public void open(OpenContext context) {
      OPENS.incrementAndGet();
    }

    @Override
    public Long map(Long seq) {
      if (seq >= ROWS / 2 && FAIL_ONCE.get() && FAILED.compareAndSet(false, true)) {
        throw new IllegalStateException("injected task failure at sequence number " + seq);
      }
      return seq;
    }
  }

  private static void awaitFinalTable(String table, JobClient job) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
    while (!finalTableReached(table) && System.nanoTime() < deadline) {
      assertThat(job.getJobStatus().get().isGloballyTerminalState()).as("job ended").isFalse();
      Thread.sleep(200);
    }
    // two more checkpoints: the sink flushed and acknowledged every write before them, so a
    // stale write, if any, has landed
    CompletedCheckpoints.awaitMore(CHECKPOINTS, 2, Duration.ofMinutes(1));
    job.cancel().get();
  }

  private static boolean finalTableReached(String table) throws SQLException {
    // the last value of key k is ROWS - KEYS + k
    long expectedSum = KEYS * (ROWS - KEYS) + (long) KEYS * (KEYS - 1) / 2;
    try (Connection c = POSTGRES.connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT count(*), sum(value) FROM " + table)) {
      rs.next();
      return rs.getLong(1) == KEYS && rs.getLong(2) == expectedSum;
    } catch (SQLException e) {
      return false; // the server may be restarting
    }
  }

  private static void assertExact(String table) throws SQLException {
    List<String> expected = new ArrayList<>();
    for (long k = 0; k < KEYS; k++) {
      long last = ROWS - KEYS + k;
      expected.add(k + "," + last + ",v" + last);
    }
    List<String> actual = new ArrayList<>();
    try (Connection c = POSTGRES.connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT id, value, label FROM " + table + " ORDER BY id")) {
      while (rs.next()) {
        actual.add(rs.getLong(1) + "," + rs.getLong(2) + "," + rs.getString(3));
      }
    }
    assertThat(actual).containsExactlyElementsOf(expected);
  }

  private static long rowCount(String table) throws SQLException {
    try (Connection c = POSTGRES.connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT count(*) FROM " + table)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private static java.util.Map<String, String> pairs(String... keysAndValues) {
    java.util.Map<String, String> map = new java.util.HashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      map.put(keysAndValues[i], keysAndValues[i + 1]);
    }
    return map;
  }

  private static int sinkConnections() throws SQLException {
    try (Connection c = POSTGRES.connect();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT count(*) FROM pg_stat_activity"
                    + " WHERE application_name = 'lakestream-lakebase-sink'"
                    + " AND datname = current_database()")) {
      rs.next();
      return rs.getInt(1);
    }
  }

  private static int terminateSinkConnections() throws SQLException {
    try (Connection c = POSTGRES.connect();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) FROM pg_stat_activity"
                    + " WHERE application_name = 'lakestream-lakebase-sink'"
                    + " AND datname = current_database()")) {
      rs.next();
      return rs.getInt(1);
    }
  }
}
