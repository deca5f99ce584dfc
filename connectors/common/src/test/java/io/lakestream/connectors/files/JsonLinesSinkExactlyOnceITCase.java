package io.lakestream.connectors.files;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.sink.EpochCommitAction;
import io.lakestream.connectors.sink.EpochCommitOutcome;
import io.lakestream.connectors.sink.EpochSink;
import io.lakestream.state.query.SinkKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exactly-once proof for the epoch-commit sink: a task fails mid-epoch and the committer crashes
 * right after a commit (before Flink records it); the table must still hold every input row once.
 */
class JsonLinesSinkExactlyOnceITCase {
  private static final long ROWS = 6_000;

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
  static final List<EpochCommitOutcome> OUTCOMES = new CopyOnWriteArrayList<>();

  @TempDir Path table;

  @Test
  void everyRowExactlyOnceDespiteTaskFailureAndCrashAfterCommit() throws Exception {
    Configuration conf = new Configuration();
    conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMillis(100));
    conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
    conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 5);
    conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(100));
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
    env.setParallelism(2);

    String dir = table.toUri().toString();
    EpochSink<Long, StagedFile> sink =
        new EpochSink<>(
            SinkKind.FILE,
            dir,
            context ->
                new JsonLinesWriter<>(
                    Object::toString,
                    new org.apache.flink.core.fs.Path(dir),
                    context.getTaskInfo().getIndexOfThisSubtask()),
            StagedFileSerializer::new,
            new CrashOnceAfterThirdCommit(new StagedFileCommit(dir)),
            JsonLinesSinkExactlyOnceITCase::record);

    env.fromSource(
            new DataGeneratorSource<>(
                i -> i, ROWS, RateLimiterStrategy.perSecond(3_000), Types.LONG),
            WatermarkStrategy.noWatermarks(),
            "numbers")
        .uid("numbers")
        .map(new FailOnceMidStream())
        .uid("fail-once")
        .sinkTo(sink)
        .uid("sink");

    env.execute("exactly-once");

    assertThat(TASK_FAILED).isTrue();
    assertThat(COMMITTER_CRASHED).isTrue();
    assertThat(OUTCOMES)
        .extracting(EpochCommitOutcome::status)
        .contains(EpochCommitOutcome.Status.ALREADY_COMMITTED);
    assertThat(readTable())
        .containsExactlyElementsOf(LongStream.range(0, ROWS).boxed().collect(Collectors.toList()));
  }

  /** Static, so the listener is not a serialized copy of the list. */
  private static void record(EpochCommitOutcome outcome, long watermark) {
    OUTCOMES.add(outcome);
  }

  private List<Long> readTable() throws IOException {
    List<Long> rows = new ArrayList<>();
    try (Stream<Path> files = Files.list(table)) {
      for (Path file : files.filter(p -> p.getFileName().toString().endsWith(".jsonl")).toList()) {
        for (String line : Files.readAllLines(file)) {
          rows.add(Long.parseLong(line));
        }
      }
    }
    rows.sort(null);
    return rows;
  }

  /** Throws once, mid-epoch, on the first row after two epochs have committed. */
  static final class FailOnceMidStream implements MapFunction<Long, Long> {
    @Override
    public Long map(Long value) {
      if (COMMITS.get() >= 2 && TASK_FAILED.compareAndSet(false, true)) {
        throw new IllegalStateException("injected task failure mid-epoch at row " + value);
      }
      return value;
    }
  }

  /** Commits, then crashes once before Flink learns of it: the replayed commit must be a no-op. */
  static final class CrashOnceAfterThirdCommit implements EpochCommitAction<StagedFile> {
    private final StagedFileCommit delegate;

    CrashOnceAfterThirdCommit(StagedFileCommit delegate) {
      this.delegate = delegate;
    }

    @Override
    public EpochCommitOutcome commit(long epoch, List<StagedFile> results) throws IOException {
      EpochCommitOutcome outcome = delegate.commit(epoch, results);
      if (outcome.status() == EpochCommitOutcome.Status.COMMITTED
          && COMMITS.incrementAndGet() >= 3
          && COMMITTER_CRASHED.compareAndSet(false, true)) {
        throw new IOException("injected crash after committing epoch " + epoch);
      }
      return outcome;
    }
  }
}
