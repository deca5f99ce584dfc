package io.lakestream.connectors.kafka;

import static io.lakestream.connectors.kafka.KafkaSourceHarness.await;
import static io.lakestream.connectors.kafka.KafkaSourceHarness.epochsWithData;
import static io.lakestream.connectors.kafka.KafkaSourceHarness.pipeline;
import static io.lakestream.connectors.kafka.KafkaSourceHarness.produceCount;
import static io.lakestream.connectors.kafka.KafkaSourceHarness.seen;
import static io.lakestream.connectors.kafka.KafkaSourceHarness.source;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.lakestream.connectors.kafka.source.KafkaSourceBuilder;
import io.lakestream.state.checkpoint.CheckpointLocation;
import io.lakestream.state.checkpoint.EpochLog;
import io.lakestream.state.query.OutputMode;
import io.lakestream.state.query.QueryContext;
import io.lakestream.testkit.flink.FlinkMiniCluster;
import io.lakestream.testkit.flink.FlinkMiniClusterExtension;
import io.lakestream.testkit.kafka.KafkaBrokerExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.api.common.JobID;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * maxOffsetsPerTrigger per epoch (never above the limit, split in proportion to backlog across
 * readers), availableNow draining a backlog in several epochs, and consumer-group commits on
 * checkpoint completion while rate limiting is on.
 */
class KafkaSourceRateLimitITCase {
  @RegisterExtension
  @Order(1)
  static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

  @RegisterExtension
  @Order(2)
  static final FlinkMiniClusterExtension FLINK =
      new FlinkMiniClusterExtension(
          () ->
              FlinkMiniCluster.builder()
                  .slotsPerTaskManager(4)
                  .checkpointInterval(Duration.ofMillis(400)));

  private static final Duration WAIT = Duration.ofSeconds(90);

  @TempDir Path dir;

  private QueryContext query(String run, boolean availableNow) {
    return new QueryContext(
        "q-" + run,
        "kafka-it",
        run,
        "kafka-it-q",
        dir.resolve("query").toUri().toString(),
        availableNow,
        false,
        OutputMode.APPEND);
  }

  @Test
  void maxOffsetsPerTriggerBoundsEveryEpochAndSplitsByBacklog() throws Exception {
    KAFKA.createTopic("rate", 3);
    // Backlogs whose shares of 50 are not whole (30.04, 14.77, 5.19 at first): rounding each
    // share up would exceed the limit, rounding each down would fall short of it.
    Map<String, Long> initial = Map.of("rate-0", 307L, "rate-1", 151L, "rate-2", 53L);
    initial.forEach(
        (p, n) -> produceCount(KAFKA.broker(), "rate", p.charAt(5) - '0', n.intValue()));

    StreamExecutionEnvironment env = FLINK.environment();
    env.setParallelism(2); // the limit is global: partitions are spread over two readers
    QueryContext query = query("rate", false);
    pipeline(
        env,
        source(KAFKA.broker(), "rate-src", "rate")
            .option("startingOffsets", "earliest")
            .option("maxOffsetsPerTrigger", 50)
            .query(query),
        "rate");
    JobID job = FLINK.submit(env);
    try {
      await("all 511 records", WAIT, () -> seen("rate").size() >= 511);
      long now = FLINK.cluster().completedCheckpoints(job);
      FLINK.cluster().waitForCompletedCheckpoints(job, (int) now + 2, WAIT);
    } finally {
      FLINK.cluster().cancel(job, WAIT);
    }
    assertThat(seen("rate")).hasSize(511).doesNotHaveDuplicates();

    TreeMap<Long, Map<String, Long>> epochs = epochsWithData("rate");
    assertThat(epochs.size()).isGreaterThanOrEqualTo(10);
    Map<String, Long> left = new TreeMap<>(initial);
    int fullEpochs = 0;
    for (Map.Entry<Long, Map<String, Long>> epoch : epochs.entrySet()) {
      long total = epoch.getValue().values().stream().mapToLong(Long::longValue).sum();
      assertThat(total).as("records in epoch %s", epoch.getKey()).isLessThanOrEqualTo(50);
      long backlog = left.values().stream().mapToLong(Long::longValue).sum();
      if (total == 50) {
        fullEpochs++;
        for (Map.Entry<String, Long> p : left.entrySet()) {
          double share = 50.0 * p.getValue() / backlog;
          assertThat((double) epoch.getValue().getOrDefault(p.getKey(), 0L))
              .as(
                  "partition %s in epoch %s (backlog %s of %s)",
                  p.getKey(), epoch.getKey(), p.getValue(), backlog)
              .isBetween(Math.floor(share) - 0.01, Math.ceil(share) + 0.01);
        }
      }
      epoch.getValue().forEach((p, n) -> left.merge(p, -n, Long::sum));
    }
    assertThat(fullEpochs).isGreaterThanOrEqualTo(8);

    // The offsets log carries the backlog metrics the progress report shows.
    EpochLog log = new CheckpointLocation(dir.resolve("query").toUri()).epochs();
    boolean sawBacklog = false;
    int withLatest = 0;
    for (long epoch : log.offsetEpochs()) {
      for (JsonNode record : log.readOffsets(epoch).values()) {
        // the latest offsets looked up for the epoch (everything was produced before the start)
        if (record.has("latestOffsets")) {
          withLatest++;
          initial.forEach(
              (p, n) -> assertThat(record.path("latestOffsets").path(p).asLong()).isEqualTo(n));
          assertThat(record.path("latestOffsetMs").asLong()).isNotNegative();
        }
        JsonNode metrics = record.path("metrics");
        if (metrics.path("maxOffsetsBehindLatest").asLong() > 0) {
          sawBacklog = true;
          assertThat(metrics.path("minOffsetsBehindLatest").asLong())
              .isLessThanOrEqualTo(metrics.path("maxOffsetsBehindLatest").asLong());
          assertThat(metrics.has("avgOffsetsBehindLatest")).isTrue();
        }
      }
    }
    assertThat(sawBacklog).as("an epoch recorded offsets behind latest").isTrue();
    assertThat(withLatest).as("epochs with their latest offsets").isGreaterThanOrEqualTo(8);
  }

  @Test
  void availableNowDrainsTheBacklogInBoundedEpochsThenStops() throws Exception {
    KAFKA.createTopic("now", 2);
    produceCount(KAFKA.broker(), "now", 0, 123); // shares of 40: 24.1 and 15.9, not whole
    produceCount(KAFKA.broker(), "now", 1, 81);
    QueryContext query = query("now-run-1", true);
    StreamExecutionEnvironment env = FLINK.environment();
    env.setParallelism(1);
    pipeline(
        env,
        source(KAFKA.broker(), "now-src", "now")
            .option("startingOffsets", "earliest")
            .option("maxOffsetsPerTrigger", 40)
            .query(query),
        "now");
    JobID job = FLINK.submit(env);
    EpochLog log = new CheckpointLocation(dir.resolve("query").toUri()).epochs();
    await("caught up", WAIT, () -> caughtUp(log, query.runId(), "now-src"));
    // Records written after the run started are for the next run.
    produceCount(KAFKA.broker(), "now", 0, 30);
    long now = FLINK.cluster().completedCheckpoints(job);
    FLINK.cluster().waitForCompletedCheckpoints(job, (int) now + 3, WAIT);
    String savepoint =
        FLINK
            .cluster()
            .miniCluster()
            .stopWithSavepoint(
                job, dir.resolve("sp").toUri().toString(), false, SavepointFormatType.CANONICAL)
            .get();
    FLINK.cluster().waitForSuccess(job, WAIT); // the job ends (FINISHED) after the savepoint

    assertThat(seen("now")).hasSize(204).doesNotHaveDuplicates();
    TreeMap<Long, Map<String, Long>> epochs = epochsWithData("now");
    assertThat(epochs.size()).isGreaterThanOrEqualTo(5);
    epochs.forEach(
        (cp, counts) ->
            assertThat(counts.values().stream().mapToLong(Long::longValue).sum())
                .as("epoch %s", cp)
                .isLessThanOrEqualTo(40));

    // The next availableNow run resumes from the savepoint and reads only the new records.
    QueryContext next = query("now-run-2", true);
    StreamExecutionEnvironment env2 = FLINK.environment();
    env2.setParallelism(1);
    pipeline(
        env2,
        source(KAFKA.broker(), "now-src", "now")
            .option("startingOffsets", "earliest")
            .option("maxOffsetsPerTrigger", 40)
            .query(next),
        "now-2");
    JobID job2 = FLINK.submit(env2, java.net.URI.create(savepoint));
    try {
      await("second run caught up", WAIT, () -> caughtUp(log, next.runId(), "now-src"));
      long n2 = FLINK.cluster().completedCheckpoints(job2);
      FLINK.cluster().waitForCompletedCheckpoints(job2, (int) n2 + 2, WAIT);
    } finally {
      FLINK.cluster().cancel(job2, WAIT);
    }
    assertThat(seen("now-2"))
        .containsExactlyInAnyOrderElementsOf(
            KafkaSourceStartingOffsetsITCase.range("now", 0, 123, 153));
  }

  private static boolean caughtUp(EpochLog log, String runId, String source) {
    try {
      return log.caughtUpSources(runId).contains(EpochLog.fileName(source));
    } catch (java.io.IOException e) {
      return false;
    }
  }

  @Test
  void commitsOffsetsToTheConsumerGroupOnCheckpointWhileRateLimited() throws Exception {
    KAFKA.createTopic("commit", 2);
    produceCount(KAFKA.broker(), "commit", 0, 61); // shares of 25: 15.25 and 9.75, not whole
    produceCount(KAFKA.broker(), "commit", 1, 39);
    StreamExecutionEnvironment env = FLINK.environment();
    env.setParallelism(2);
    KafkaSourceBuilder builder =
        source(KAFKA.broker(), "commit-src", "commit")
            .option("startingOffsets", "earliest")
            .option("maxOffsetsPerTrigger", 25)
            .option("kafka.group.id", "lakestream-commit-it");
    pipeline(env, builder, "commit");
    JobID job = FLINK.submit(env);
    try {
      await("all 100 records", WAIT, () -> seen("commit").size() >= 100);
      Map<TopicPartition, Long> ends =
          Map.of(new TopicPartition("commit", 0), 61L, new TopicPartition("commit", 1), 39L);
      await(
          "group offsets at the end",
          WAIT,
          () -> KAFKA.broker().committedOffsets("lakestream-commit-it").equals(ends));
      // Commits happen per completed checkpoint, not per record: the group never ran ahead.
      assertThat(new HashSet<>(seen("commit"))).hasSize(100);
    } finally {
      FLINK.cluster().cancel(job, WAIT);
    }
    assertThat(epochsWithData("commit").values())
        .allSatisfy(
            e ->
                assertThat(e.values().stream().mapToLong(Long::longValue).sum())
                    .isLessThanOrEqualTo(25));
    assertThat(List.copyOf(seen("commit"))).hasSize(100);
  }
}
