package io.lakestream.connectors.lakebase.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.lakebase.LakebaseSchema;
import io.lakestream.connectors.lakebase.LakebaseSinkBuilder;
import io.lakestream.connectors.rate.source.RateSourceBuilder;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.state.query.OutputMode;
import io.lakestream.state.query.QueryContext;
import io.lakestream.testkit.postgres.PostgresExtension;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Backpressure from a slowed PostgreSQL: while a lock held on the target table stalls the sink's
 * writes for two seconds, the source's read rate drops to (almost) nothing instead of piling rows
 * up in memory (the writer buffers at most {@code batchsize} rows, its flush waits), and once the
 * lock is released every row lands, none lost or doubled.
 */
class LakebaseBackpressureITCase {
  private static final long ROWS = 6_000;
  private static final int BATCH = 200;
  private static final long RATE = 2_000;

  @RegisterExtension static final PostgresExtension POSTGRES = new PostgresExtension();

  @RegisterExtension
  static final MiniClusterExtension CLUSTER =
      new MiniClusterExtension(
          new MiniClusterResourceConfiguration.Builder()
              .setNumberTaskManagers(1)
              .setNumberSlotsPerTaskManager(1)
              .build());

  /** Rows the source handed on (counted in the source's thread, before the sink). */
  static final AtomicLong READ = new AtomicLong();

  private static final LakebaseSchema SCHEMA =
      LakebaseSchema.builder()
          .column("id", ColumnType.LONG, false)
          .column("value", ColumnType.LONG)
          .column("label", ColumnType.STRING)
          .build();

  @TempDir Path dir;

  static final class CountRead implements MapFunction<Long, Long> {
    @Override
    public Long map(Long seq) {
      READ.incrementAndGet();
      return seq;
    }
  }

  @Test
  void aLockedTableSlowsTheSourceDownAndNoRowIsLost() throws Exception {
    Configuration conf = new Configuration();
    conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMillis(500));
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
    env.setParallelism(1);
    QueryContext query =
        new QueryContext(
            "qid",
            "backpressure",
            "run",
            "backpressure-app",
            dir.resolve("chk").toUri().toString(),
            false,
            false,
            OutputMode.APPEND);
    LakebaseSink<Long> sink =
        LakebaseSinkBuilder.<Long>forSchema(SCHEMA, seq -> new Object[] {seq, seq, "v" + seq})
            .option("endpoint", POSTGRES.jdbcUrl())
            .option("user", POSTGRES.user())
            .option("password", POSTGRES.password())
            .option("dbtable", "backpressure")
            .option("batchsize", String.valueOf(BATCH))
            .option("batchinterval", "50 ms")
            .option("deliveryGuarantee", "at-least-once") // the per-batch path: writes as it reads
            .query(query)
            .build();
    env.fromSource(
            RateSourceBuilder.rate("seq", seq -> seq, Types.LONG)
                .rows(ROWS)
                .rowsPerSecond(RATE)
                .numPartitions(1)
                .build(),
            WatermarkStrategy.noWatermarks(),
            "seq")
        .uid("seq")
        .map(new CountRead())
        .uid("count-read")
        .sinkTo(sink)
        .uid("lakebase");
    JobClient job = env.executeAsync("lakebase-backpressure");
    try {
      await(() -> count("SELECT count(*) FROM backpressure") >= 1_000);
      long stalled;
      try (Connection lock = POSTGRES.connect()) {
        lock.setAutoCommit(false);
        try (Statement s = lock.createStatement()) {
          // blocks the sink's inserts; reads (our counts) still pass
          s.execute("LOCK TABLE backpressure IN EXCLUSIVE MODE");
        }
        Thread.sleep(300); // what was read before the lock reaches the blocked flush
        long before = READ.get();
        Thread.sleep(2_000);
        stalled = READ.get() - before;
        assertThat(count("SELECT count(*) FROM backpressure")).isLessThan(ROWS);
        lock.commit();
      }
      // unthrottled the source would read RATE * 2 s = 4,000 rows meanwhile
      assertThat(stalled)
          .as("rows read while the table was locked (a full batch waits in the writer)")
          .isLessThanOrEqualTo(BATCH);
      await(() -> count("SELECT count(*) FROM backpressure") >= ROWS);
      assertThat(count("SELECT count(*) FROM backpressure")).isEqualTo(ROWS);
      assertThat(count("SELECT count(DISTINCT id) FROM backpressure")).isEqualTo(ROWS);
      assertThat(count("SELECT max(id) FROM backpressure")).isEqualTo(ROWS - 1);
    } finally {
      job.cancel().get();
    }
  }

  private interface Condition {
    boolean holds() throws SQLException;
  }

  private static void await(Condition condition) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!holdsNow(condition)) {
      assertThat(System.nanoTime()).as("waited a minute").isLessThan(deadline);
      Thread.sleep(50);
    }
  }

  private static boolean holdsNow(Condition condition) {
    try {
      return condition.holds();
    } catch (SQLException e) {
      return false;
    }
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
