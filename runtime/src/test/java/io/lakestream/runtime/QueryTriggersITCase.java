package io.lakestream.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.state.StateBackendSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each trigger's behaviour on a real (embedded) Flink job, checked through the output table. */
class QueryTriggersITCase {
  @TempDir Path dir;

  private Path table() {
    return dir.resolve("counts");
  }

  /** Records listener calls. */
  static final class RecordingListener implements QueryListener {
    final List<String> events = new java.util.concurrent.CopyOnWriteArrayList<>();

    @Override
    public void onQueryStarted(StreamingQuery query) {
      events.add("started");
    }

    @Override
    public void onQueryProgress(StreamingQuery query, QueryProgress progress) {
      events.add("progress " + progress.batchId());
    }

    @Override
    public void onQueryTerminated(StreamingQuery query, Throwable error) {
      events.add("terminated " + (error == null ? "ok" : error.getMessage()));
    }
  }

  private final RecordingListener listener = new RecordingListener();

  private StreamingQuery start(Trigger trigger, long rows, long maxRowsPerTrigger, long rate)
      throws Exception {
    return StreamingQueryBuilder.of(CountingQuery.dataflow(table(), rows, maxRowsPerTrigger, rate))
        .listener(listener)
        .queryName("counting")
        .checkpointLocation(dir.resolve("checkpoint").toString())
        .trigger(trigger)
        .parallelism(2)
        .stateBackend(StateBackendSettings.defaults())
        .start();
  }

  private static List<QueryProgress> withInput(StreamingQuery q) {
    return q.recentProgress().stream().filter(p -> p.numInputRows() > 0).toList();
  }

  @Test
  void availableNowTwiceWithNewInputBetweenProcessesEveryRowOnceAndKeepsKeyedState()
      throws Exception {
    StreamingQuery first = start(Trigger.availableNow(), 600, 100, 0);
    first.awaitTermination();
    assertThat(CountingQuery.read(table())).hasSize(600);
    assertThat(withInput(first)).hasSizeGreaterThanOrEqualTo(6);
    assertThat(withInput(first))
        .allSatisfy(p -> assertThat(p.numInputRows()).isLessThanOrEqualTo(100));
    assertThat(withInput(first).stream().mapToLong(QueryProgress::numInputRows).sum())
        .isEqualTo(600);
    assertThat(listener.events.get(0)).isEqualTo("started");
    assertThat(listener.events.get(listener.events.size() - 1)).isEqualTo("terminated ok");
    assertThat(listener.events.stream().filter(e -> e.startsWith("progress")).count())
        .isEqualTo(first.recentProgress().size());
    assertThat(first.status().isTriggerActive()).isFalse();
    assertThat(first.lastProgress()).isPresent();

    StreamingQuery second = start(Trigger.availableNow(), 900, 100, 0);
    second.awaitTermination();
    assertThat(second.id()).isEqualTo(first.id());
    assertThat(second.appId()).isEqualTo(first.appId());
    assertThat(second.runId()).isNotEqualTo(first.runId());
    assertThat(withInput(second).stream().mapToLong(QueryProgress::numInputRows).sum())
        .isEqualTo(300);
    assertThat(second.recentProgress().get(0).batchId())
        .isGreaterThan(first.recentProgress().get(first.recentProgress().size() - 1).batchId());
    CountingQuery.assertExactlyOnce(table(), 900);

    StreamingQuery third = start(Trigger.availableNow(), 900, 100, 0);
    third.awaitTermination();
    assertThat(withInput(third)).as("no new input: nothing processed").isEmpty();
    CountingQuery.assertExactlyOnce(table(), 900);
  }

  @Test
  void availableNowWithoutPerEpochLimitsDrainsInFewLongEpochs() throws Exception {
    StreamingQuery q = start(Trigger.availableNow(), 6000, 0, 2000); // a 3 s drain
    q.awaitTermination();
    CountingQuery.assertExactlyOnce(table(), 6000);
    assertThat(withInput(q))
        .as("a backlog without per-epoch limits is not cut into 200 ms epochs")
        .hasSizeLessThanOrEqualTo(2);
  }

  @Test
  void onceProcessesEverythingInOneEpochIgnoringRateLimits() throws Exception {
    StreamingQuery q = start(Trigger.once(), 500, 50, 0);
    q.awaitTermination();
    assertThat(withInput(q)).hasSize(1);
    assertThat(withInput(q).get(0).numInputRows()).isEqualTo(500);
    CountingQuery.assertExactlyOnce(table(), 500);
  }

  @Test
  void processingTimeCommitsOnItsIntervalAndAStoppedQueryResumes() throws Exception {
    StreamingQuery q = start(Trigger.processingTime(Duration.ofMillis(500)), 1500, 0, 300);
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (q.recentProgress().size() < 5 && System.nanoTime() < deadline) {
      Thread.sleep(100);
    }
    q.stop();
    List<QueryProgress> progress = q.recentProgress();
    assertThat(progress).hasSizeGreaterThanOrEqualTo(5);
    List<Long> durations =
        progress.subList(1, progress.size() - 1).stream()
            .map(p -> p.json().path("durationMs").path("addBatch").asLong())
            .sorted()
            .toList();
    assertThat(durations.get(durations.size() / 2)).isBetween(350L, 900L);
    assertThat(CountingQuery.read(table()).size()).isBetween(1, 1499);

    StreamingQuery resumed = start(Trigger.availableNow(), 1500, 0, 0);
    resumed.awaitTermination();
    CountingQuery.assertExactlyOnce(table(), 1500);
  }

  @Test
  void defaultTriggerCommitsAsOftenAsPossibleAndRealTimeShipsRecordsAtOnce() {
    Configuration unspecified = new Configuration();
    TriggerSettings.apply(Trigger.unspecified(), unspecified);
    assertThat(unspecified.get(CheckpointingOptions.CHECKPOINTING_INTERVAL))
        .isEqualTo(Duration.ofMillis(100));
    assertThat(unspecified.get(CheckpointingOptions.MIN_PAUSE_BETWEEN_CHECKPOINTS))
        .isEqualTo(Duration.ZERO);

    Configuration realTime = new Configuration();
    TriggerSettings.apply(Trigger.realTime(Duration.ofMinutes(5)), realTime);
    assertThat(realTime.get(CheckpointingOptions.CHECKPOINTING_INTERVAL))
        .isEqualTo(Duration.ofMinutes(5));
    assertThat(realTime.get(ExecutionOptions.BUFFER_TIMEOUT)).isEqualTo(Duration.ofMillis(1));

    StreamExecutionEnvironment drain = StreamExecutionEnvironment.getExecutionEnvironment();
    drain.enableCheckpointing(200);
    TriggerSettings.adaptToSources(Trigger.availableNow(), true, drain);
    assertThat(drain.getCheckpointConfig().getCheckpointInterval())
        .as("a source with per-epoch limits: back-to-back epochs")
        .isEqualTo(200);
    TriggerSettings.adaptToSources(Trigger.processingTime(Duration.ofSeconds(1)), false, drain);
    assertThat(drain.getCheckpointConfig().getCheckpointInterval()).isEqualTo(200);
    TriggerSettings.adaptToSources(Trigger.availableNow(), false, drain);
    assertThat(drain.getCheckpointConfig().getCheckpointInterval())
        .as("no per-epoch limits: long epochs, like Spark's single batch")
        .isEqualTo(10_000);

    Configuration processingTime = new Configuration();
    TriggerSettings.apply(Trigger.processingTime(Duration.ofSeconds(30)), processingTime);
    assertThat(processingTime.get(CheckpointingOptions.CHECKPOINTING_INTERVAL))
        .isEqualTo(Duration.ofSeconds(30));
    assertThat(processingTime.get(CheckpointingOptions.ENABLE_UNALIGNED)).isFalse();
  }
}
