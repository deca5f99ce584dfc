package io.lakestream.connectors.delta.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.delta.DeltaAppendCommit;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.DeltaWrittenFile;
import io.lakestream.connectors.rate.source.RateSourceBuilder;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.connectors.schema.RowFields;
import io.lakestream.connectors.sink.CommitRecordListener;
import io.lakestream.connectors.sink.EpochCommitOutcome;
import io.lakestream.connectors.sink.EpochSink;
import io.lakestream.state.query.QueryContext;
import io.lakestream.state.query.SinkKind;
import io.lakestream.testkit.query.EpochRecords;
import java.io.IOException;
import java.net.URI;
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
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The failure scenario of the Delta sink's exactly-once tests (local path and S3): rate ids through
 * a map that fails once mid-epoch after two commits, into the Delta sink whose committer crashes
 * once right after its third Delta commit (before Flink records it). {@link #run} checks that every
 * id is in the table exactly once and returns the query's last committed epoch; the commit records
 * land in the query's checkpoint location as sink {@value #SINK}.
 */
final class DeltaSinkFailureScenario {
  static final long ROWS = 4_000;
  static final String SINK = "delta";

  static final DeltaTableSchema SCHEMA =
      DeltaTableSchema.builder()
          .column("id", ColumnType.LONG, false)
          .column("label", ColumnType.STRING)
          .column("part", ColumnType.STRING)
          .partitionedBy("part")
          .build();

  static final AtomicBoolean TASK_FAILED = new AtomicBoolean();
  static final AtomicBoolean COMMITTER_CRASHED = new AtomicBoolean();
  static final AtomicInteger COMMITS = new AtomicInteger();

  private DeltaSinkFailureScenario() {}

  /** Runs the job against {@code table} until every row is in it; returns the last epoch. */
  static long run(DeltaTable table, QueryContext query, String jobName) throws Exception {
    TASK_FAILED.set(false);
    COMMITTER_CRASHED.set(false);
    COMMITS.set(0);
    Configuration conf = new Configuration();
    conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMillis(200));
    conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
    conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 5);
    conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(100));
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
    env.setParallelism(2);

    table.ensureExists(SCHEMA); // as DeltaSinkBuilder.build() does, before any task runs
    RowFields<Long> fields = id -> new Object[] {id, "row-" + id, "p" + (id % 3)};
    EpochSink<Long, DeltaWrittenFile> sink =
        new EpochSink<>(
            SinkKind.DELTA,
            table.path(),
            context -> new DeltaSinkWriter<>(table, SCHEMA, fields, 500),
            DeltaWrittenFileSerializer::new,
            new InterceptedCommit(
                new DeltaAppendCommit(table, SCHEMA, query.appId()),
                DeltaSinkFailureScenario::crashOnceAfterThirdCommit),
            new CommitRecordListener(query, SINK, "DeltaSink[" + table.path() + "]"));

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
    var job = env.executeAsync(jobName);
    DeltaTableReader reader = new DeltaTableReader(table);
    long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
    while (System.nanoTime() < deadline
        && (!table.latestSnapshot().isPresent() || reader.count() < ROWS)) {
      Thread.sleep(200);
    }
    // two more epochs committed: a replay still in flight, if any, has landed
    EpochRecords.awaitMoreEpochs(checkpointLocation(query), 2, Duration.ofMinutes(1));
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
    return lastEpoch;
  }

  /** The query's (local) checkpoint location. */
  static Path checkpointLocation(QueryContext query) {
    return Path.of(URI.create(query.checkpointLocation()));
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
  static EpochCommitOutcome crashOnceAfterThirdCommit(
      long epoch, List<DeltaWrittenFile> files, DeltaAppendCommit delegate) throws IOException {
    EpochCommitOutcome outcome = delegate.commit(epoch, files);
    if (outcome.status() == EpochCommitOutcome.Status.COMMITTED
        && COMMITS.incrementAndGet() >= 3
        && COMMITTER_CRASHED.compareAndSet(false, true)) {
      throw new IOException("injected crash after committing epoch " + epoch + " to Delta");
    }
    return outcome;
  }
}
