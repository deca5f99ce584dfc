package io.lakestream.pipelines.gold;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.connectors.delta.cdf.DeltaChangeDataFeed;
import io.lakestream.connectors.sink.EpochFunction;
import io.lakestream.pipelines.PipelineOptions;
import io.lakestream.pipelines.cli.LakestreamCli;
import io.lakestream.runtime.StreamingQuery;
import io.lakestream.runtime.StreamingQueryBuilder;
import io.lakestream.runtime.Trigger;
import io.lakestream.state.StateBackendSettings;
import io.lakestream.testkit.delta.DeltaLogTxns;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pipeline E4 end to end: a silver table written by MERGE versions (inserts, updates that move
 * orders between days, deletes) -> the gold daily aggregate with availableNow runs. After each run
 * gold equals the reference model, {@code count(*)} and {@code sum(amount)} per day over silver's
 * current rows, row for row. The second run resumes from the checkpoint (it reads only the new
 * versions' change rows); the third runs with a task failure mid-epoch and a crash right after a
 * gold MERGE commit (before Flink records the epoch) and still ends right, with one gold version
 * per epoch.
 */
class OrdersGoldDailyITCase {
  private static final ObjectMapper JSON = new ObjectMapper();

  static final AtomicBoolean ARMED = new AtomicBoolean();
  static final AtomicBoolean TASK_FAILED = new AtomicBoolean();
  static final AtomicBoolean COMMIT_CRASHED = new AtomicBoolean();
  static final AtomicInteger GOLD_COMMITS = new AtomicInteger();
  static final AtomicLong CHANGES_SEEN = new AtomicLong();

  @TempDir Path dir;

  @BeforeEach
  @AfterEach
  void reset() {
    ARMED.set(false);
    TASK_FAILED.set(false);
    COMMIT_CRASHED.set(false);
    GOLD_COMMITS.set(0);
    CHANGES_SEEN.set(0);
  }

  /** Throws once, when armed, on a change row after a gold epoch was committed in this run. */
  static final class FailOnceMidEpoch implements MapFunction<OrderChange, OrderChange> {
    @Override
    public OrderChange map(OrderChange change) {
      CHANGES_SEEN.incrementAndGet();
      if (ARMED.get() && GOLD_COMMITS.get() >= 1 && TASK_FAILED.compareAndSet(false, true)) {
        throw new IllegalStateException("injected task failure mid-epoch at " + change);
      }
      return change;
    }
  }

  /**
   * Counts gold epochs; when armed, crashes once right after the run's first MERGE commit (a
   * periodic checkpoint's, never the final savepoint's: with one change file per epoch the run has
   * several epochs).
   */
  static EpochFunction crashOnceAfterCommit(EpochFunction merge) {
    return (epoch, rows) -> {
      merge.call(epoch, rows);
      if (GOLD_COMMITS.incrementAndGet() >= 1
          && ARMED.get()
          && COMMIT_CRASHED.compareAndSet(false, true)) {
        throw new IllegalStateException("injected crash after the gold MERGE of epoch " + epoch);
      }
    };
  }

  private StreamingQuery run() throws Exception {
    return run(new OrdersGoldDaily().defaultTrigger());
  }

  private StreamingQuery run(Trigger trigger) throws Exception {
    PipelineOptions options =
        new PipelineOptions(
            dir.resolve("lake").toUri(),
            0,
            0,
            0,
            Map.of("maxFilesPerTrigger", "1", "pollInterval", "100ms"));
    UnaryOperator<DataStream<OrderChange>> tap =
        changes -> changes.map(new FailOnceMidEpoch()).uid("fail-once");
    Configuration conf = new Configuration();
    conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
    conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 5);
    conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(100));
    return StreamingQueryBuilder.of(
            OrdersGoldDaily.dataflow(options, tap, OrdersGoldDailyITCase::crashOnceAfterCommit))
        .queryName("gold")
        .checkpointLocation(dir.resolve("lake/_checkpoints/gold").toString())
        .trigger(trigger)
        .parallelism(2)
        .stateBackend(StateBackendSettings.defaults())
        .flinkConfiguration(conf)
        .start();
  }

  @Test
  void goldEqualsTheDailyAggregateOfSilverAcrossRunsAndFailures() throws Exception {
    SilverOrders silver =
        new SilverOrders(dir.resolve("lake/orders_silver").toUri().toString(), 42);
    DeltaTable gold = DeltaTable.forPath(dir.resolve("lake/orders_gold_daily").toUri().toString());
    silver.commit(400, 0, 0);
    silver.commit(100, 120, 30);
    silver.commit(50, 80, 60);
    long firstEnd = silver.commit(0, 60, 20);

    // run 1: no startingVersion, so silver's latest snapshot as inserts (as Spark starts)
    run().awaitTermination();
    Map<LocalDate, String> expected = SilverOrders.dailyAggregate(silver.table);
    assertThat(expected).hasSize(SilverOrders.DAYS);
    assertThat(SilverOrders.gold(gold)).isEqualTo(expected);
    assertThat(CHANGES_SEEN.get())
        .as("rows of silver's snapshot (version %d) read by the first run", firstEnd)
        .isEqualTo(new DeltaTableReader(silver.table).count())
        .isLessThan(DeltaChangeDataFeed.tableChanges(silver.table, 0, firstEnd).size());

    // run 2: new versions only, from the checkpoint
    long secondStart = silver.commit(80, 50, 40);
    long secondEnd = silver.deleteDay(SilverOrders.FIRST_DAY.plusDays(2));
    CHANGES_SEEN.set(0);
    run().awaitTermination();
    Map<LocalDate, String> afterSecond = SilverOrders.dailyAggregate(silver.table);
    assertThat(afterSecond).as("a day emptied by deletes").hasSize(SilverOrders.DAYS - 1);
    assertThat(SilverOrders.gold(gold)).isEqualTo(afterSecond);
    assertThat(CHANGES_SEEN.get())
        .as("the second run reads only versions %d..%d", secondStart, secondEnd)
        .isEqualTo(DeltaChangeDataFeed.tableChanges(silver.table, secondStart, secondEnd).size());

    // run 3: a task failure mid-epoch and a crash after a gold commit, recovered inside the run
    for (int i = 0; i < 5; i++) {
      silver.commit(30, 60, 25);
    }
    GOLD_COMMITS.set(0);
    ARMED.set(true);
    StreamingQuery third = run();
    third.awaitTermination();
    assertThat(TASK_FAILED).as("task failure injected (changes seen %s)", CHANGES_SEEN).isTrue();
    assertThat(COMMIT_CRASHED).as("crash after commit injected").isTrue();
    Map<LocalDate, String> afterThird = SilverOrders.dailyAggregate(silver.table);
    assertThat(afterThird).as("the emptied day has orders again").hasSize(SilverOrders.DAYS);
    assertThat(SilverOrders.gold(gold)).isEqualTo(afterThird);

    // every gold row carries the newest silver version applied to its day
    long latestSilver = new DeltaTableReader(silver.table).latestVersion();
    for (Object[] row : new DeltaTableReader(gold).readLatest()) {
      assertThat((Long) row[3]).isBetween(1L, latestSilver);
    }
    // one gold version per epoch: the epoch replayed after the crash was not merged again
    List<Long> epochs = goldEpochs();
    assertThat(epochs).doesNotHaveDuplicates().isSorted();
    assertThat(epochs.size()).isGreaterThanOrEqualTo(3);
    DeltaLogTxns log =
        DeltaLogTxns.read(dir.resolve("lake/orders_gold_daily")).assertEachEpochOnce();
    assertThat(log.appIds()).containsExactly(third.appId());
    assertThat(log.epochsOf(third.appId())).isEqualTo(epochs);
  }

  @Test
  void runsFromTheCommandLineWithAvailableNowByDefault() throws Exception {
    SilverOrders silver = new SilverOrders(dir.resolve("lake/orders_silver").toUri().toString(), 7);
    silver.commit(200, 0, 0);
    silver.commit(20, 60, 20);
    silver.commit(0, 40, 10);

    int code =
        LakestreamCli.execute(
            "run", "gold", "--output", dir.resolve("lake").toString(), "--parallelism", "1");

    assertThat(code).isZero();
    DeltaTable gold = DeltaTable.forPath(dir.resolve("lake/orders_gold_daily").toUri().toString());
    assertThat(SilverOrders.gold(gold)).isEqualTo(SilverOrders.dailyAggregate(silver.table));
  }

  @Test
  void aProcessingTimeQueryKeepsGoldEqualToSilverAsSilverChanges() throws Exception {
    SilverOrders silver =
        new SilverOrders(dir.resolve("lake/orders_silver").toUri().toString(), 11);
    DeltaTable gold = DeltaTable.forPath(dir.resolve("lake/orders_gold_daily").toUri().toString());
    silver.commit(300, 0, 0);
    silver.commit(30, 80, 30);

    StreamingQuery query = run(Trigger.processingTime(Duration.ofMillis(500)));
    try {
      awaitGoldEqualsSilver(gold, silver);
      silver.commit(20, 90, 20); // committed while the query runs
      silver.deleteDay(SilverOrders.FIRST_DAY.plusDays(4));
      awaitGoldEqualsSilver(gold, silver);
      assertThat(query.isActive()).isTrue();
    } finally {
      query.cancel();
    }
    assertThat(SilverOrders.gold(gold)).hasSize(SilverOrders.DAYS - 1);
  }

  private static void awaitGoldEqualsSilver(DeltaTable gold, SilverOrders silver) throws Exception {
    Map<LocalDate, String> expected = SilverOrders.dailyAggregate(silver.table);
    long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
    while (!SilverOrders.gold(gold).equals(expected)) {
      if (System.nanoTime() > deadline) {
        assertThat(SilverOrders.gold(gold)).as("gold after 3 minutes").isEqualTo(expected);
      }
      Thread.sleep(200);
    }
  }

  private List<Long> goldEpochs() throws Exception {
    List<Long> epochs = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir.resolve("lake/orders_gold_daily/_delta_log"))) {
      for (Path file : files.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
        for (String line : Files.readAllLines(file)) {
          JsonNode action = JSON.readTree(line);
          if (action.has("txn")) {
            epochs.add(action.get("txn").get("version").asLong());
          }
          if (action
              .path("commitInfo")
              .path("operation")
              .asText()
              .equals("MERGE")) { // update mode: at most one row per day per epoch
            assertThat(
                    action
                        .get("commitInfo")
                        .path("operationMetrics")
                        .path("numSourceRows")
                        .asLong(Long.MAX_VALUE))
                .as("source rows of the gold MERGE in %s", file.getFileName())
                .isBetween(1L, (long) SilverOrders.DAYS);
          }
        }
      }
    }
    return epochs;
  }
}
