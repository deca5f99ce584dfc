package io.lakestream.pipelines.gold;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.lakebase.StagingTable;
import io.lakestream.pipelines.PipelineOptions;
import io.lakestream.runtime.DataflowInspector;
import io.lakestream.runtime.QueryProgress;
import io.lakestream.runtime.StreamingQuery;
import io.lakestream.runtime.StreamingQueryBuilder;
import io.lakestream.runtime.Trigger;
import io.lakestream.state.StateBackendSettings;
import io.lakestream.state.query.OutputMode;
import io.lakestream.state.query.QueryContext;
import io.lakestream.state.query.ReplayPlan;
import io.lakestream.testkit.flink.CompletedCheckpoints;
import io.lakestream.testkit.postgres.PostgresExtension;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pipeline {@code gold-to-lakebase} end to end on a real PostgreSQL: a silver table written by
 * MERGE versions (inserts, updates moving orders between days, deletes) -> daily totals -> Lakebase
 * upserts, with a task failure injected mid-stream. The table equals the model ({@code count(*)},
 * {@code sum(amount)} per day over silver's current rows; a day emptied keeps a row with 0 orders)
 * row for row. realTime (the default): a reader polling during the replay never sees a day's row go
 * back. availableNow: exactly-once epochs, each recorded once in the commit table, and a second run
 * resumes from the checkpoint.
 */
class GoldToLakebaseITCase {
  @RegisterExtension static final PostgresExtension POSTGRES = new PostgresExtension();

  private static final String CHECKPOINTS = "gold-to-lakebase-it";
  static final AtomicBoolean ARMED = new AtomicBoolean();
  static final AtomicBoolean FAILED = new AtomicBoolean();
  static final AtomicLong SEEN_WHILE_ARMED = new AtomicLong();
  static volatile long failAfter;

  /** availableNow in several epochs (silver's snapshot and each version have a few files). */
  private static final Map<String, String> EPOCHS = Map.of("maxFilesPerTrigger", "1");

  @TempDir Path dir;

  @BeforeEach
  @AfterEach
  void reset() {
    ARMED.set(false);
    FAILED.set(false);
    SEEN_WHILE_ARMED.set(0);
    failAfter = Long.MAX_VALUE;
  }

  /** When armed, throws once on the {@link #failAfter}-th change it sees. */
  static final class FailOnceWhenArmed implements MapFunction<OrderChange, OrderChange> {
    @Override
    public OrderChange map(OrderChange change) {
      if (ARMED.get()
          && SEEN_WHILE_ARMED.incrementAndGet() >= failAfter
          && FAILED.compareAndSet(false, true)) {
        throw new IllegalStateException("injected task failure at " + change);
      }
      return change;
    }
  }

  @Test
  void realTimeUpsertsAsChangesComeAndAReaderNeverSeesADayGoBackAcrossAFailure() throws Exception {
    SilverOrders silver = silver(11);
    silver.commit(300, 0, 0);
    silver.commit(40, 60, 20);
    StreamingQuery query = start(Trigger.realTime(Duration.ofMillis(300)), "gold_rt", Map.of());
    Map<LocalDate, Long> seen = new HashMap<>();
    List<String> backwards = new ArrayList<>();
    try {
      awaitModel("gold_rt", silver, query, seen, backwards);
      CompletedCheckpoints.awaitMore(CHECKPOINTS, 1, Duration.ofMinutes(1));
      failAfter = 150; // upserts of the new versions land, then the tasks restore and replay
      ARMED.set(true);
      for (int i = 0; i < 3; i++) {
        silver.commit(20, 90, 20);
      }
      silver.deleteDay(SilverOrders.FIRST_DAY.plusDays(4));
      awaitModel("gold_rt", silver, query, seen, backwards);
      assertThat(FAILED).as("task failure injected").isTrue();
    } finally {
      query.cancel();
    }
    assertThat(backwards).as("days whose row went back").isEmpty();
    assertThat(query.lastProgress())
        .hasValueSatisfying(
            progress ->
                assertThat(progress.json().path("sink").path("description").asText())
                    .isEqualTo(
                        "LakebaseSink[public.gold_rt, at-least-once, version guard change_rows]"));
    assertThat(read("gold_rt", new TreeMap<>()))
        .as("the emptied day keeps its row")
        .containsEntry(SilverOrders.FIRST_DAY.plusDays(4), "0|0.00");
  }

  @Test
  void availableNowAppliesEachEpochOnceAcrossAFailureAndResumes() throws Exception {
    SilverOrders silver = silver(23);
    silver.commit(300, 0, 0);
    silver.commit(30, 60, 25);
    silver.commit(300, 0, 0); // a file of its own: the last epoch
    failAfter = 450; // in the last epoch, after the first (silver's older 305 orders) is applied
    ARMED.set(true);
    StreamingQuery first = start(Trigger.availableNow(), "gold_eo", EPOCHS);
    first.awaitTermination();
    assertThat(FAILED).as("task failure injected").isTrue();
    assertThat(table("gold_eo")).isEqualTo(model(silver));

    reset();
    silver.commit(20, 80, 30);
    silver.deleteDay(SilverOrders.FIRST_DAY.plusDays(1));
    StreamingQuery second = start(Trigger.availableNow(), "gold_eo", EPOCHS);
    second.awaitTermination();
    assertThat(table("gold_eo")).isEqualTo(model(silver));
    assertThat(second.recentProgress()).as("progress of the second run").isNotEmpty();
    long outputRows = 0;
    for (QueryProgress progress : second.recentProgress()) {
      assertThat(progress.json().path("sink").path("description").asText())
          .isEqualTo("LakebaseSink[public.gold_eo, exactly-once]");
      outputRows += progress.numOutputRows();
    }
    assertThat(outputRows).as("days upserted by the second run").isPositive();
    assertThat(count("SELECT count(*) FROM gold_eo_lakestream_stage")).isZero();
    assertThat(
            count(
                "SELECT count(DISTINCT epoch) FROM public."
                    + StagingTable.COMMITS
                    + " WHERE target = 'public.gold_eo'"))
        .as("epochs applied")
        .isGreaterThanOrEqualTo(2);
    assertThat(
            count(
                "SELECT count(*) FROM (SELECT app_id, subtask, epoch FROM public."
                    + StagingTable.COMMITS
                    + " WHERE target = 'public.gold_eo' GROUP BY 1, 2, 3 HAVING count(*) > 1) t"))
        .as("epochs recorded twice")
        .isZero();
  }

  @Test
  void everyOperatorHasAnExplicitUid() throws Exception {
    silver(5).commit(10, 0, 0);
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    QueryContext query =
        new QueryContext(
            "q",
            "gold-to-lakebase",
            "run",
            "app",
            dir.resolve("chk").toUri().toString(),
            false,
            false,
            OutputMode.UPDATE,
            ReplayPlan.NONE,
            true);
    new GoldToLakebase().dataflow(options("gold_uids", Map.of())).build(env, query);
    DataflowInspector inspector = new DataflowInspector(new ArrayList<>(env.getTransformations()));
    assertThat(inspector.operatorsWithoutUid()).isEmpty();
  }

  private SilverOrders silver(long seed) {
    return new SilverOrders(dir.resolve("lake/orders_silver").toUri().toString(), seed);
  }

  private PipelineOptions options(String table, Map<String, String> extra) {
    Map<String, String> o = new HashMap<>();
    o.put("endpoint", POSTGRES.jdbcUrl());
    o.put("user", POSTGRES.user());
    o.put("password", POSTGRES.password());
    o.put("dbtable", table);
    o.put("batchsize", "50");
    o.putAll(extra);
    o.put("pollInterval", "100ms");
    return new PipelineOptions(dir.resolve("lake").toUri(), 0, 0, 0, o);
  }

  private StreamingQuery start(Trigger trigger, String table, Map<String, String> extra)
      throws Exception {
    UnaryOperator<DataStream<OrderChange>> tap =
        changes ->
            changes
                .map(new FailOnceWhenArmed())
                .uid("fail-once")
                .map(new CompletedCheckpoints<>(CHECKPOINTS), TypeInformation.of(OrderChange.class))
                .uid("checkpoints");
    Configuration conf = new Configuration();
    conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
    conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 3);
    conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(100));
    return StreamingQueryBuilder.of(GoldToLakebase.dataflow(options(table, extra), tap))
        .queryName("gold-to-lakebase")
        .checkpointLocation(dir.resolve("lake/_checkpoints/" + table).toString())
        .trigger(trigger)
        .outputMode(OutputMode.UPDATE)
        .parallelism(2)
        .stateBackend(StateBackendSettings.defaults())
        .flinkConfiguration(conf)
        .start();
  }

  /** The model: silver's daily aggregate (days with orders). */
  private static Map<LocalDate, String> model(SilverOrders silver) throws Exception {
    return SilverOrders.dailyAggregate(silver.table);
  }

  /** Polls until the table's days with orders equal the model, noting any day that went back. */
  private void awaitModel(
      String table,
      SilverOrders silver,
      StreamingQuery query,
      Map<LocalDate, Long> seen,
      List<String> backwards)
      throws Exception {
    Map<LocalDate, String> expected = model(silver);
    long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
    while (true) {
      Map<LocalDate, long[]> versions = new TreeMap<>();
      Map<LocalDate, String> rows = read(table, versions);
      versions.forEach(
          (day, changeRows) -> {
            Long before = seen.put(day, Math.max(changeRows[0], seen.getOrDefault(day, 0L)));
            if (before != null && changeRows[0] < before) {
              backwards.add(day + ": change_rows " + before + " -> " + changeRows[0]);
            }
          });
      if (withOrders(rows).equals(expected)) {
        return;
      }
      assertThat(query.isActive()).as("query running").isTrue();
      assertThat(System.nanoTime())
          .as("table %s = model after 2 minutes", rows)
          .isLessThan(deadline);
      Thread.sleep(20);
    }
  }

  private static Map<LocalDate, String> withOrders(Map<LocalDate, String> rows) {
    Map<LocalDate, String> out = new TreeMap<>(rows);
    out.values().removeIf(v -> v.equals("0|0.00"));
    return out;
  }

  /** The table as "orders|total" per day, days with 0 orders left out. */
  private static Map<LocalDate, String> table(String table) throws SQLException {
    return withOrders(read(table, new TreeMap<>()));
  }

  private static Map<LocalDate, String> read(String table, Map<LocalDate, long[]> changeRows)
      throws SQLException {
    Map<LocalDate, String> rows = new TreeMap<>();
    try (Connection c = POSTGRES.connect();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery("SELECT order_date, orders, total_amount, change_rows FROM " + table)) {
      while (rs.next()) {
        LocalDate day = rs.getObject(1, LocalDate.class);
        BigDecimal total = rs.getBigDecimal(3);
        rows.put(
            day,
            rs.getLong(2)
                + "|"
                + (total == null ? BigDecimal.ZERO : total).setScale(2, RoundingMode.UNNECESSARY));
        changeRows.put(day, new long[] {rs.getLong(4)});
      }
    } catch (SQLException e) {
      if (!"42P01".equals(e.getSQLState())) { // the table is created when the job starts
        throw e;
      }
    }
    return rows;
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
