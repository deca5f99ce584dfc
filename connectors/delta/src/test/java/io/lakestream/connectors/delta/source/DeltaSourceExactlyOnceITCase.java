package io.lakestream.connectors.delta.source;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.delta.DeltaAppendCommit;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableException;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.connectors.delta.DeltaTableWriter;
import io.lakestream.connectors.delta.sink.DeltaSinkBuilder;
import io.lakestream.state.query.OutputMode;
import io.lakestream.state.query.QueryContext;
import io.lakestream.testkit.delta.DeltaLogTxns;
import io.lakestream.testkit.query.EpochRecords;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Delta table to Delta table under a task failure: the job restores from its last checkpoint (the
 * source's file position and each reader's rows emitted of its current file) and the output table
 * holds every source row exactly once, row for row, each epoch in one version.
 */
class DeltaSourceExactlyOnceITCase {
  private static final int VERSIONS = 8;
  private static final long ROWS_PER_VERSION = 1_500; // two files of 750 rows: read across polls

  @RegisterExtension
  static final MiniClusterExtension CLUSTER =
      new MiniClusterExtension(
          new MiniClusterResourceConfiguration.Builder()
              .setNumberTaskManagers(1)
              .setNumberSlotsPerTaskManager(2)
              .build());

  static final AtomicBoolean FAILED = new AtomicBoolean();
  static final AtomicInteger CHECKPOINTS = new AtomicInteger();
  static final AtomicLong SEEN = new AtomicLong();

  @TempDir Path dir;

  @Test
  void everyRowExactlyOnceAfterATaskFailure() throws Exception {
    DeltaTable source = DeltaTable.forPath(dir.resolve("source").toUri().toString());
    DeltaTableWriter writer = new DeltaTableWriter(source, DeltaSourceITCase.SCHEMA);
    DeltaAppendCommit commit = new DeltaAppendCommit(source, DeltaSourceITCase.SCHEMA, "w");
    commit.open();
    for (int v = 1; v <= VERSIONS / 2; v++) {
      commit.commit(v, writer.write(rows(v)));
    }

    Configuration conf = new Configuration();
    conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMillis(200));
    conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
    conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 3);
    conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(100));
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
    env.setParallelism(2);
    QueryContext query =
        new QueryContext(
            "qid",
            "copy",
            "run-1",
            "copy-qid",
            dir.resolve("chk").toUri().toString(),
            false,
            false,
            OutputMode.APPEND);
    String outPath = dir.resolve("out").toUri().toString();
    env.fromSource(
            DeltaSourceBuilder.forTable(source.path())
                .name("delta-src")
                .options(Map.of("maxFilesPerTrigger", "2", "pollInterval", "100ms"))
                .query(query)
                .build(),
            WatermarkStrategy.noWatermarks(),
            "delta-src")
        .uid("delta-src")
        .map(new FailOnceMidStream())
        .uid("fail-once")
        .sinkTo(
            DeltaSinkBuilder.<Row>forTable(
                    outPath,
                    DeltaSourceITCase.SCHEMA,
                    r -> new Object[] {r.getField(0), r.getField(1), r.getField(2)})
                .query(query)
                .sinkName("out")
                .maxRowsPerFile(100_000)
                .build())
        .uid("out");
    JobClient job = env.executeAsync("delta-to-delta");

    DeltaTableReader out = new DeltaTableReader(DeltaTable.forPath(outPath));
    DeltaSourceITCase.await(() -> FAILED.get(), "the injected failure");
    for (int v = VERSIONS / 2 + 1; v <= VERSIONS; v++) {
      commit.commit(v, writer.write(rows(v))); // committed while the job runs and recovers
    }
    long total = VERSIONS * ROWS_PER_VERSION;
    DeltaSourceITCase.await(() -> count(out) >= total, "every row in the output table");
    // two more epochs committed: a replay still in flight, if any, has landed
    EpochRecords.awaitMoreEpochs(dir.resolve("chk"), 2, Duration.ofMinutes(1));
    job.cancel().get();

    List<Long> ids =
        out.readLatest().stream().map(r -> (Long) r[0]).sorted().collect(Collectors.toList());
    assertThat(ids)
        .containsExactlyElementsOf(LongStream.range(0, total).boxed().collect(Collectors.toList()));
    assertThat(out.readLatest())
        .allSatisfy(
            r -> {
              assertThat(r[1]).isEqualTo("row-" + r[0]);
              assertThat(r[2]).isEqualTo("p" + ((Long) r[0] % 2));
            });
    DeltaLogTxns.read(dir.resolve("out"))
        .assertEachEpochOnce()
        .assertVersionPerEpoch(query.appId(), dir.resolve("chk"), "out");
  }

  private static long count(DeltaTableReader reader) {
    try {
      return reader.table().latestSnapshot().isPresent() ? reader.count() : 0;
    } catch (DeltaTableException e) {
      return 0;
    }
  }

  private static List<Object[]> rows(int version) {
    List<Object[]> rows = new ArrayList<>();
    long from = (version - 1) * ROWS_PER_VERSION;
    for (long id = from; id < from + ROWS_PER_VERSION; id++) {
      rows.add(new Object[] {id, "row-" + id, "p" + (id % 2)});
    }
    return rows;
  }

  /** Fails once, mid-stream, after two checkpoints completed and some rows went through. */
  static final class FailOnceMidStream implements MapFunction<Row, Row>, CheckpointListener {
    @Override
    public Row map(Row row) {
      if (SEEN.incrementAndGet() > 2_500
          && CHECKPOINTS.get() >= 2
          && FAILED.compareAndSet(false, true)) {
        throw new IllegalStateException("injected failure at row " + row.getField(0));
      }
      return row;
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {
      CHECKPOINTS.incrementAndGet();
    }
  }
}
