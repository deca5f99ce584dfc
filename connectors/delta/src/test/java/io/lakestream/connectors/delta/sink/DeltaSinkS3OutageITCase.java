package io.lakestream.connectors.delta.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.delta.DeltaAppendCommit;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.connectors.delta.DeltaWrittenFile;
import io.lakestream.connectors.rate.source.RateSourceBuilder;
import io.lakestream.connectors.schema.RowFields;
import io.lakestream.connectors.sink.CommitRecordListener;
import io.lakestream.connectors.sink.EpochCommitOutcome;
import io.lakestream.connectors.sink.EpochSink;
import io.lakestream.state.query.OutputMode;
import io.lakestream.state.query.QueryContext;
import io.lakestream.state.query.SinkKind;
import io.lakestream.testkit.delta.DeltaLogTxns;
import io.lakestream.testkit.query.EpochRecords;
import io.lakestream.testkit.s3.S3Server;
import io.lakestream.testkit.s3.S3ServerExtension;
import io.lakestream.testkit.s3.S3aSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
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
 * The object store goes away in the middle of a Delta commit: the S3 server stops serving just
 * before the sink's third commit (its data files are on S3, the commit file is not) and comes back
 * on the same port 15 s later, after S3A's own retries have given up. Meanwhile that commit, the
 * data-file writes of later checkpoints and the restarts fail against refused connections. Once S3
 * is back the query recovers by itself: the table holds every row exactly once and each epoch is
 * one version.
 */
class DeltaSinkS3OutageITCase {
  @RegisterExtension
  static final MiniClusterExtension CLUSTER =
      new MiniClusterExtension(
          new MiniClusterResourceConfiguration.Builder()
              .setNumberTaskManagers(1)
              .setNumberSlotsPerTaskManager(2)
              .setConfiguration(DeltaSinkS3ExactlyOnceITCase.clusterConfiguration())
              .build());

  @RegisterExtension static final S3ServerExtension S3 = new S3ServerExtension("sink-outage");

  private static final long ROWS = 6_000;

  /** Longer than S3A's own retries (3, from 0.5 s on): the commit itself fails. */
  private static final Duration OUTAGE = Duration.ofSeconds(15);

  static final AtomicBoolean STOPPED = new AtomicBoolean();
  static final AtomicInteger COMMITS = new AtomicInteger();
  static final AtomicInteger FAILED_COMMITS = new AtomicInteger();
  static volatile S3Server server;

  @TempDir Path dir;

  @Test
  void everyRowOnceAcrossAnOutageOfTheObjectStoreDuringACommit() throws Exception {
    server = S3.service();
    String tablePath = S3aSettings.uri(S3.service(), "tables/outage");
    QueryContext query =
        new QueryContext(
            "qid",
            "delta-s3-outage",
            "run",
            "delta-s3-outage-qid",
            dir.resolve("chk").toUri().toString(),
            false,
            false,
            OutputMode.APPEND);
    DeltaTable table = DeltaTable.forPath(tablePath, S3aSettings.of(S3.service()));
    table.ensureExists(DeltaSinkFailureScenario.SCHEMA);

    Configuration conf = new Configuration();
    conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMillis(200));
    conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
    conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 100);
    conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(300));
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
    env.setParallelism(2);
    RowFields<Long> fields = id -> new Object[] {id, "row-" + id, "p" + (id % 3)};
    EpochSink<Long, DeltaWrittenFile> sink =
        new EpochSink<>(
            SinkKind.DELTA,
            table.path(),
            context -> new DeltaSinkWriter<>(table, DeltaSinkFailureScenario.SCHEMA, fields, 500),
            DeltaWrittenFileSerializer::new,
            new InterceptedCommit(
                new DeltaAppendCommit(table, DeltaSinkFailureScenario.SCHEMA, query.appId()),
                DeltaSinkS3OutageITCase::outageBeforeThirdCommit),
            new CommitRecordListener(query, "delta", "DeltaSink[" + table.path() + "]"));
    env.fromSource(
            RateSourceBuilder.rate("ids", id -> id, Types.LONG)
                .rows(ROWS)
                .rowsPerSecond(1_500)
                .numPartitions(2)
                .build(),
            WatermarkStrategy.noWatermarks(),
            "ids")
        .uid("ids")
        .sinkTo(sink)
        .uid("delta");

    var job = env.executeAsync("delta-s3-outage");
    DeltaTableReader reader = new DeltaTableReader(table);
    long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
    while (System.nanoTime() < deadline && (!STOPPED.get() || reader.count() < ROWS)) {
      Thread.sleep(300);
    }
    Path checkpoints = Path.of(dir.resolve("chk").toUri());
    EpochRecords.awaitMoreEpochs(checkpoints, 2, Duration.ofMinutes(1));
    job.cancel().get();

    assertThat(STOPPED).as("the outage happened").isTrue();
    assertThat(FAILED_COMMITS)
        .as("commits that failed against the refused connections")
        .hasPositiveValue();
    assertThat(reader.readLatest().stream().map(row -> (Long) row[0]).sorted().toList())
        .containsExactlyElementsOf(LongStream.range(0, ROWS).boxed().toList());
    DeltaLogTxns.read(S3.service(), "tables/outage")
        .assertEachEpochOnce()
        .assertVersionPerEpoch(query.appId(), checkpoints, "delta");
  }

  /** Stops the S3 server right before the third commit, and serves again {@link #OUTAGE} later. */
  static EpochCommitOutcome outageBeforeThirdCommit(
      long epoch, List<DeltaWrittenFile> files, DeltaAppendCommit delegate) {
    if (COMMITS.incrementAndGet() == 3 && STOPPED.compareAndSet(false, true)) {
      server.stopServing();
      Thread resume =
          new Thread(
              () -> {
                try {
                  Thread.sleep(OUTAGE.toMillis());
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
                server.resumeServing();
              },
              "s3-outage-end");
      resume.setDaemon(true);
      resume.start();
    }
    try {
      return delegate.commit(epoch, files);
    } catch (RuntimeException e) {
      FAILED_COMMITS.incrementAndGet();
      throw e;
    }
  }
}
