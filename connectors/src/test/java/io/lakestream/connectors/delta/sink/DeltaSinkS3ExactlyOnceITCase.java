package io.lakestream.connectors.delta.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.delta.DeltaAppendCommit;
import io.lakestream.connectors.delta.DeltaColumnType;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.DeltaWrittenFile;
import io.lakestream.connectors.delta.logstore.S3aSettings;
import io.lakestream.connectors.rate.source.RateSourceBuilder;
import io.lakestream.connectors.sink.CommitRecordListener;
import io.lakestream.connectors.sink.EpochCommitAction;
import io.lakestream.connectors.sink.EpochCommitOutcome;
import io.lakestream.connectors.sink.EpochSink;
import io.lakestream.state.query.OutputMode;
import io.lakestream.state.query.QueryContext;
import io.lakestream.state.query.SinkKind;
import io.lakestream.testkit.s3.S3ServerExtension;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
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
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Delta sink writing a table on S3 ({@code s3a://}, data files and put-if-absent commit files
 * through S3A, against the real S3 test server) under failures: a task fails mid-epoch and the
 * committer crashes right after a Delta commit (before Flink records it); the table still holds
 * every input row exactly once, and each epoch is one version tagged with the query's app id.
 */
class DeltaSinkS3ExactlyOnceITCase {
  private static final long ROWS = 4_000;

  @RegisterExtension
  static final MiniClusterExtension CLUSTER =
      new MiniClusterExtension(
          new MiniClusterResourceConfiguration.Builder()
              .setNumberTaskManagers(1)
              .setNumberSlotsPerTaskManager(2)
              .setConfiguration(clusterConfiguration())
              .build());

  /**
   * S3A's thread pool lives in Hadoop's JVM-wide FileSystem cache, and its threads inherit the
   * context class loader of the task thread that started them; after the job ends, the checks below
   * list the table through those threads, whose (closed) job class loader Flink's leak check would
   * refuse. See README-s3.md ("Session clusters").
   */
  private static Configuration clusterConfiguration() {
    Configuration conf = new Configuration();
    conf.set(CoreOptions.CHECK_LEAKED_CLASSLOADER, false);
    return conf;
  }

  static final AtomicBoolean TASK_FAILED = new AtomicBoolean();
  static final AtomicBoolean COMMITTER_CRASHED = new AtomicBoolean();
  static final AtomicInteger COMMITS = new AtomicInteger();

  @RegisterExtension static final S3ServerExtension S3 = new S3ServerExtension("sink-exactly-once");

  @TempDir Path dir;

  private static final DeltaTableSchema SCHEMA =
      DeltaTableSchema.builder()
          .column("id", DeltaColumnType.LONG, false)
          .column("label", DeltaColumnType.STRING)
          .column("part", DeltaColumnType.STRING)
          .partitionedBy("part")
          .build();

  @Test
  void everyRowOnceOnS3DespiteTaskFailureAndCrashAfterCommit() throws Exception {
    Configuration conf = new Configuration();
    conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMillis(200));
    conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
    conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 5);
    conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(100));
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
    env.setParallelism(2);

    String tablePath = S3aSettings.uri(S3.service(), "tables/sink");
    QueryContext query =
        new QueryContext(
            "qid",
            "delta-s3-it",
            "run",
            "delta-s3-it-qid",
            dir.resolve("chk").toUri().toString(),
            false,
            false,
            OutputMode.APPEND);
    DeltaTable table = DeltaTable.forPath(tablePath, S3aSettings.of(S3.service()));
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
    var job = env.executeAsync("delta-s3-exactly-once");
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

    // Each version after the create holds one epoch of this query, none twice; all on S3.
    String log = "tables/sink/_delta_log/";
    List<String> commitFiles =
        S3.service().keys(log).stream()
            .filter(k -> k.substring(log.length()).matches("\\d{20}\\.json"))
            .collect(Collectors.toList());
    List<Long> epochs = new ArrayList<>();
    for (String key : commitFiles.subList(1, commitFiles.size())) {
      String commit = new String(S3.service().read(key), StandardCharsets.UTF_8);
      List<String> txns =
          commit.lines().filter(l -> l.startsWith("{\"txn\"")).collect(Collectors.toList());
      assertThat(txns).as(key).hasSize(1).allSatisfy(t -> assertThat(t).contains(query.appId()));
      epochs.add(Long.parseLong(txns.get(0).replaceAll(".*\"version\":(\\d+).*", "$1")));
    }
    assertThat(epochs).doesNotHaveDuplicates().isSorted().contains(lastEpoch);
    assertThat(commitFiles).hasSize((int) table.latestSnapshot().orElseThrow().getVersion() + 1);
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
