package io.lakestream.connectors.delta.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.delta.DeltaAppendCommit;
import io.lakestream.connectors.delta.DeltaColumnType;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.DeltaWrittenFile;
import io.lakestream.connectors.rate.source.RateSourceBuilder;
import io.lakestream.connectors.sink.CommitRecordListener;
import io.lakestream.connectors.sink.EpochCommitAction;
import io.lakestream.connectors.sink.EpochCommitOutcome;
import io.lakestream.connectors.sink.EpochSink;
import io.lakestream.state.Locations;
import io.lakestream.state.query.OutputMode;
import io.lakestream.state.query.QueryContext;
import io.lakestream.state.query.SinkKind;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
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
 * The Delta sink under failures: a task fails mid-epoch and the committer crashes right after a
 * Delta commit (before Flink records it); the table still holds every input row exactly once, and
 * each committed epoch is one version tagged with the query's app id.
 */
class DeltaSinkExactlyOnceITCase {
  private static final long ROWS = 4_000;

  @RegisterExtension
  static final MiniClusterExtension CLUSTER =
      new MiniClusterExtension(
          new MiniClusterResourceConfiguration.Builder()
              .setNumberTaskManagers(1)
              .setNumberSlotsPerTaskManager(2)
              .build());

  static final AtomicBoolean TASK_FAILED = new AtomicBoolean();
  static final AtomicBoolean COMMITTER_CRASHED = new AtomicBoolean();
  static final AtomicInteger COMMITS = new AtomicInteger();

  @TempDir Path dir;

  private static final DeltaTableSchema SCHEMA =
      DeltaTableSchema.builder()
          .column("id", DeltaColumnType.LONG, false)
          .column("label", DeltaColumnType.STRING)
          .column("part", DeltaColumnType.STRING)
          .partitionedBy("part")
          .build();

  @Test
  void everyRowOnceAndOneVersionPerEpochDespiteTaskFailureAndCrashAfterCommit() throws Exception {
    Configuration conf = new Configuration();
    conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMillis(200));
    conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
    conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 5);
    conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(100));
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
    env.setParallelism(2);

    String tablePath = dir.resolve("table").toString();
    QueryContext query =
        new QueryContext(
            "qid",
            "delta-it",
            "run",
            "delta-it-qid",
            dir.resolve("chk").toUri().toString(),
            false,
            false,
            OutputMode.APPEND);
    DeltaTable table = DeltaTable.forPath(Locations.absolute(tablePath));
    table.ensureExists(SCHEMA); // as DeltaSinkBuilder.build() does, before any task runs
    RowFields<Long> fields = id -> new Object[] {id, "row-" + id, "p" + (id % 3)};
    EpochSink<Long, DeltaWrittenFile> sink =
        new EpochSink<>(
            SinkKind.DELTA,
            table.path(),
            context -> new DeltaSinkWriter<>(table, SCHEMA, fields, 500),
            DeltaWrittenFileSerializer::new,
            new CrashOnceAfterThirdCommit(new DeltaAppendCommit(table, SCHEMA, query.appId())),
            new CommitRecordListener(query, "delta", "DeltaSink[" + table.path() + "]"));

    env.fromSource(
            RateSourceBuilder.rate("ids", id -> id, Types.LONG)
                .rows(ROWS)
                .rowsPerSecond(2_000)
                .numPartitions(2)
                .build(),
            WatermarkStrategy.noWatermarks(),
            "ids")
        .uid("ids")
        .map(new FailOnceAfterTwoCommits())
        .uid("fail-once")
        .sinkTo(sink)
        .uid("delta");

    // The rate source never finishes: stop once every row is in the table.
    var job = env.executeAsync("delta-exactly-once");
    DeltaTableReader reader = new DeltaTableReader(table);
    long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
    while (System.nanoTime() < deadline
        && (!table.latestSnapshot().isPresent() || reader.count() < ROWS)) {
      Thread.sleep(200);
    }
    Thread.sleep(1_000); // a duplicate commit, if any, would land now
    job.cancel().get();

    assertThat(TASK_FAILED).isTrue();
    assertThat(COMMITTER_CRASHED).isTrue();
    List<Long> ids =
        reader.readLatest().stream()
            .map(row -> (Long) row[0])
            .sorted()
            .collect(Collectors.toList());
    assertThat(ids)
        .containsExactlyElementsOf(LongStream.range(0, ROWS).boxed().collect(Collectors.toList()));
    assertThat(reader.readLatest())
        .allSatisfy(row -> assertThat(row[2]).isEqualTo("p" + ((Long) row[0] % 3)));
    long lastEpoch =
        table
            .latestSnapshot()
            .orElseThrow()
            .getLatestTransactionVersion(table.engine(), query.appId())
            .orElseThrow();
    assertThat(lastEpoch).isPositive();
  }

  /** Throws once, mid-epoch, on the first row after two epochs have committed. */
  static final class FailOnceAfterTwoCommits implements MapFunction<Long, Long> {
    @Override
    public Long map(Long value) {
      if (COMMITS.get() >= 2 && TASK_FAILED.compareAndSet(false, true)) {
        throw new IllegalStateException("injected task failure mid-epoch at row " + value);
      }
      return value;
    }
  }

  /** Commits to Delta, then crashes once before Flink learns of it: the replay must be a no-op. */
  static final class CrashOnceAfterThirdCommit implements EpochCommitAction<DeltaWrittenFile> {
    private final DeltaAppendCommit delegate;

    CrashOnceAfterThirdCommit(DeltaAppendCommit delegate) {
      this.delegate = delegate;
    }

    @Override
    public void open() throws IOException {
      delegate.open();
    }

    @Override
    public EpochCommitOutcome commit(long epoch, List<DeltaWrittenFile> files) throws IOException {
      EpochCommitOutcome outcome = delegate.commit(epoch, files);
      if (outcome.status() == EpochCommitOutcome.Status.COMMITTED
          && COMMITS.incrementAndGet() >= 3
          && COMMITTER_CRASHED.compareAndSet(false, true)) {
        throw new IOException("injected crash after committing epoch " + epoch + " to Delta");
      }
      return outcome;
    }
  }
}
