package io.lakestream.connectors.delta.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.DeltaWrittenFile;
import io.lakestream.connectors.delta.merge.DeltaMerge;
import io.lakestream.connectors.delta.merge.DeltaMergeCommit;
import io.lakestream.connectors.rate.source.RateSourceBuilder;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.connectors.sink.EpochFunction;
import io.lakestream.connectors.sink.EpochSink;
import io.lakestream.state.Locations;
import io.lakestream.state.query.OutputMode;
import io.lakestream.state.query.QueryContext;
import io.lakestream.testkit.delta.DeltaLogTxns;
import io.lakestream.testkit.query.EpochRecords;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A streaming MERGE per epoch through the foreachBatch sink, with a task failing mid-epoch and the
 * epoch function crashing right after its MERGE commits (before Flink records the epoch): the
 * target ends equal to the reference model (per key, the row with the greatest sequence number),
 * and every epoch the table holds is one version with the query's txn.
 *
 * <p>That MERGE is idempotent by itself (a replayed epoch's rows are not newer than the target's),
 * so the same function also runs a counter MERGE ({@code SET hits = t.hits + s.hits}) into a second
 * table, which only the txn skip keeps exact: an epoch merged again after the crash would count its
 * rows twice.
 */
class ForeachBatchMergeITCase {
  @RegisterExtension
  static final MiniClusterExtension CLUSTER =
      new MiniClusterExtension(
          new MiniClusterResourceConfiguration.Builder()
              .setNumberTaskManagers(1)
              .setNumberSlotsPerTaskManager(2)
              .build());

  static final long ROWS = 3_000;
  static final long KEYS = 400;
  static final AtomicBoolean TASK_FAILED = new AtomicBoolean();
  static final AtomicBoolean FUNCTION_CRASHED = new AtomicBoolean();
  static final AtomicInteger CALLS = new AtomicInteger();

  static final DeltaTableSchema SCHEMA =
      DeltaTableSchema.builder()
          .column("key", ColumnType.LONG, false)
          .column("val", ColumnType.STRING)
          .column("seq", ColumnType.LONG, false)
          .property("delta.enableChangeDataFeed", "true")
          .build();

  static final DeltaTableSchema COUNTS =
      DeltaTableSchema.builder()
          .column("key", ColumnType.LONG, false)
          .column("hits", ColumnType.LONG, false)
          .build();

  @TempDir Path dir;

  @Test
  void streamingMergeEndsEqualToTheModelDespiteFailures() throws Exception {
    QueryContext query =
        new QueryContext(
            "qid",
            "merge-it",
            "run",
            "merge-it-qid",
            dir.resolve("chk").toUri().toString(),
            false,
            false,
            OutputMode.APPEND);
    DeltaTable target = DeltaTable.forPath(Locations.absolute(dir.resolve("silver").toString()));
    DeltaMergeCommit merge =
        new DeltaMergeCommit(
            DeltaMerge.into(target, SCHEMA, "key")
                .whenMatchedUpdateAll((s, t) -> (Long) s[2] > (Long) t[2])
                .whenNotMatchedInsertAll()
                .lastByOrderingColumn("seq")
                .build(),
            query.appId());
    EpochFunction function = merge.asEpochFunction();
    DeltaTable counts = DeltaTable.forPath(Locations.absolute(dir.resolve("counts").toString()));
    DeltaMergeCommit counter =
        new DeltaMergeCommit(
            DeltaMerge.into(counts, COUNTS, "key")
                .whenMatchedUpdate((s, t) -> new Object[] {t[0], (Long) t[1] + (Long) s[1]})
                .whenNotMatchedInsertAll()
                .build(),
            query.appId());
    EpochFunction crashOnce =
        (epoch, rows) -> {
          function.call(epoch, rows);
          counter.commit(epoch, hitsPerKey(rows));
          if (CALLS.incrementAndGet() >= 2 && FUNCTION_CRASHED.compareAndSet(false, true)) {
            throw new IllegalStateException("injected crash after the MERGEs of epoch " + epoch);
          }
        };
    EpochSink<Long, DeltaWrittenFile> sink =
        ForeachBatchSinkBuilder.<Long>forStaging(
                Locations.absolute(dir.resolve("chk/staging").toString()),
                SCHEMA,
                id -> new Object[] {id % KEYS, "v" + id, id})
            .function(crashOnce)
            .query(query)
            .sinkName("merge")
            .maxRowsPerFile(300)
            .build();

    Configuration conf = new Configuration();
    conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMillis(300));
    conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
    conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 5);
    conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(100));
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
    env.setParallelism(2);
    env.fromSource(
            RateSourceBuilder.rate("ids", id -> id, Types.LONG)
                .rows(ROWS)
                .rowsPerSecond(200)
                .numPartitions(2)
                .build(),
            WatermarkStrategy.noWatermarks(),
            "ids")
        .uid("ids")
        .map(new FailOnceAfterTwoCalls())
        .uid("fail-once")
        .sinkTo(sink)
        .uid("merge");

    Map<Long, List<Object>> model = new TreeMap<>();
    for (long id = 0; id < ROWS; id++) {
      model.put(id % KEYS, List.of(id % KEYS, "v" + id, id));
    }
    var job = env.executeAsync("foreach-batch-merge");
    DeltaTableReader reader = new DeltaTableReader(target);
    long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
    while (System.nanoTime() < deadline && !contents(target, reader).equals(model)) {
      Thread.sleep(300);
    }
    // two more epochs committed: a replay still in flight, if any, has landed
    EpochRecords.awaitMoreEpochs(dir.resolve("chk"), 2, Duration.ofMinutes(1));
    job.cancel().get();

    assertThat(TASK_FAILED)
        .as("task failure injected; epoch function calls: %s", CALLS.get())
        .isTrue();
    assertThat(FUNCTION_CRASHED).isTrue();
    assertThat(contents(target, reader)).isEqualTo(model);
    assertThat(reader.readLatest()).hasSize((int) KEYS);
    long lastEpoch =
        target
            .latestSnapshot()
            .orElseThrow()
            .getLatestTransactionVersion(target.engine(), query.appId())
            .orElseThrow();
    assertThat(lastEpoch).isPositive();
    // one version per epoch: the epoch replayed after the crash was not merged again
    List<Long> epochs =
        DeltaLogTxns.read(dir.resolve("silver")).assertEachEpochOnce().epochsOf(query.appId());
    assertThat(epochs).doesNotHaveDuplicates().isSorted().contains(lastEpoch);
    assertThat(epochs.size()).isGreaterThanOrEqualTo(3);

    // the counter MERGE is not idempotent: only the txn skip kept the replay from counting twice
    Map<Long, Long> hits = new TreeMap<>();
    for (Object[] row : new DeltaTableReader(counts).readLatest()) {
      hits.put((Long) row[0], (Long) row[1]);
    }
    Map<Long, Long> expectedHits = new TreeMap<>();
    for (long id = 0; id < ROWS; id++) {
      expectedHits.merge(id % KEYS, 1L, Long::sum);
    }
    assertThat(hits).as("hits per key: every row counted once").isEqualTo(expectedHits);
    assertThat(
            DeltaLogTxns.read(dir.resolve("counts")).assertEachEpochOnce().epochsOf(query.appId()))
        .containsAll(epochs);
  }

  /** The epoch's rows counted per key, as counter MERGE source rows {@code [key, hits]}. */
  private static List<Object[]> hitsPerKey(List<Object[]> rows) {
    Map<Long, Long> perKey = new TreeMap<>();
    rows.forEach(r -> perKey.merge((Long) r[0], 1L, Long::sum));
    List<Object[]> source = new ArrayList<>();
    perKey.forEach((key, n) -> source.add(new Object[] {key, n}));
    return source;
  }

  private static Map<Long, List<Object>> contents(DeltaTable table, DeltaTableReader reader)
      throws java.io.IOException {
    Map<Long, List<Object>> out = new TreeMap<>();
    if (table.latestSnapshot().isEmpty()) {
      return out;
    }
    for (Object[] row : reader.readLatest()) {
      out.put((Long) row[0], List.of(row));
    }
    return out;
  }

  /** Throws once, mid-epoch, after the epoch function has run once. */
  static final class FailOnceAfterTwoCalls implements MapFunction<Long, Long> {
    @Override
    public Long map(Long value) {
      if (CALLS.get() >= 1 && TASK_FAILED.compareAndSet(false, true)) {
        throw new IllegalStateException("injected task failure mid-epoch at row " + value);
      }
      return value;
    }
  }
}
