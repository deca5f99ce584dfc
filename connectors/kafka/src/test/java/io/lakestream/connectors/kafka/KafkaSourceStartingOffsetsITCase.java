package io.lakestream.connectors.kafka;

import static io.lakestream.connectors.kafka.KafkaSourceHarness.await;
import static io.lakestream.connectors.kafka.KafkaSourceHarness.pipeline;
import static io.lakestream.connectors.kafka.KafkaSourceHarness.produceCount;
import static io.lakestream.connectors.kafka.KafkaSourceHarness.seen;
import static io.lakestream.connectors.kafka.KafkaSourceHarness.source;
import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.testkit.flink.FlinkMiniCluster;
import io.lakestream.testkit.flink.FlinkMiniClusterExtension;
import io.lakestream.testkit.kafka.KafkaBrokerExtension;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.JobID;
import org.apache.flink.runtime.jobmaster.JobResult;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.ExceptionUtils;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * startingOffsets on a new query (earliest, latest, per-partition JSON) vs a resumed query (the
 * checkpoint wins), and failOnDataLoss after records were deleted below the query's position.
 */
class KafkaSourceStartingOffsetsITCase {
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
                  .checkpointInterval(Duration.ofMillis(300)));

  private static final Duration WAIT = Duration.ofSeconds(60);

  static List<String> range(String topic, int partition, long from, long to) {
    List<String> out = new ArrayList<>();
    for (long o = from; o < to; o++) {
      out.add(topic + "-" + partition + "@" + o);
    }
    return out;
  }

  private JobID run(String run, String topic, String startingOffsets, URI restoreFrom) {
    return run(run, topic, startingOffsets, restoreFrom, Map.of());
  }

  private JobID run(
      String run, String topic, String startingOffsets, URI restoreFrom, Map<String, String> more) {
    StreamExecutionEnvironment env = FLINK.environment();
    env.setParallelism(1);
    pipeline(
        env,
        source(KAFKA.broker(), "src", topic)
            .option("startingOffsets", startingOffsets)
            .options(more),
        run);
    return FLINK.submit(env, restoreFrom);
  }

  @Test
  void newQueryAppliesStartingOffsets() throws Exception {
    KAFKA.createTopic("start", 2);
    produceCount(KAFKA.broker(), "start", 0, 5);
    produceCount(KAFKA.broker(), "start", 1, 5);

    JobID earliest = run("earliest", "start", "earliest", null);
    JobID latest = run("latest", "start", "latest", null);
    JobID json = run("json", "start", "{\"start\":{\"0\":3,\"1\":-2}}", null);
    try {
      readsFromTheirStartingOffsets(latest, json);
    } finally {
      for (JobID job : List.of(earliest, latest, json)) {
        FLINK.cluster().cancel(job, WAIT);
      }
    }
  }

  private void readsFromTheirStartingOffsets(JobID latest, JobID json) throws Exception {
    FLINK.cluster().waitForCompletedCheckpoints(latest, 2, WAIT);
    FLINK.cluster().waitForCompletedCheckpoints(json, 2, WAIT);
    produceCount(KAFKA.broker(), "start", 0, 2); // offsets 5, 6
    produceCount(KAFKA.broker(), "start", 1, 2);

    List<String> all = new ArrayList<>(range("start", 0, 0, 7));
    all.addAll(range("start", 1, 0, 7));
    await("earliest reads all", WAIT, () -> seen("earliest").size() >= 14);
    List<String> fromLatest = new ArrayList<>(range("start", 0, 5, 7));
    fromLatest.addAll(range("start", 1, 5, 7));
    await("latest reads the new records", WAIT, () -> seen("latest").size() >= 4);
    List<String> fromJson = new ArrayList<>(range("start", 0, 3, 7));
    fromJson.addAll(range("start", 1, 0, 7));
    await("json reads from 3 and from earliest", WAIT, () -> seen("json").size() >= 11);
    FLINK.cluster().waitForCompletedCheckpoints(json, 4, WAIT); // anything extra would show now
    assertThat(seen("earliest")).containsExactlyInAnyOrderElementsOf(all);
    assertThat(seen("latest")).containsExactlyInAnyOrderElementsOf(fromLatest);
    assertThat(seen("json")).containsExactlyInAnyOrderElementsOf(fromJson);
  }

  @Test
  void resumedQueryIgnoresStartingOffsets() throws Exception {
    KAFKA.createTopic("resume", 2);
    produceCount(KAFKA.broker(), "resume", 0, 6);
    produceCount(KAFKA.broker(), "resume", 1, 4);
    JobID first = run("resume-1", "resume", "earliest", null);
    await("first run reads all", WAIT, () -> seen("resume-1").size() >= 10);
    long done = FLINK.cluster().completedCheckpoints(first);
    FLINK.cluster().waitForCompletedCheckpoints(first, (int) done + 2, WAIT);
    FLINK.cluster().cancel(first, WAIT);
    URI checkpoint = FLINK.cluster().latestRetainedCheckpoint(first).orElseThrow();

    produceCount(KAFKA.broker(), "resume", 0, 3); // offsets 6..8
    produceCount(KAFKA.broker(), "resume", 1, 2); // offsets 4..5
    // earliest would re-read everything, latest would skip the new records: the checkpoint wins.
    JobID second = run("resume-2", "resume", "earliest", checkpoint);
    await("resumed run reads the new records", WAIT, () -> seen("resume-2").size() >= 5);
    long now = FLINK.cluster().completedCheckpoints(second);
    FLINK.cluster().waitForCompletedCheckpoints(second, (int) now + 3, WAIT);
    FLINK.cluster().cancel(second, WAIT);

    List<String> expected = new ArrayList<>(range("resume", 0, 6, 9));
    expected.addAll(range("resume", 1, 4, 6));
    assertThat(seen("resume-2")).containsExactlyInAnyOrderElementsOf(expected);
  }

  @Test
  void failOnDataLossAfterRetentionDeletedUnreadRecords() throws Exception {
    KAFKA.createTopic("loss", 1);
    JobID first = run("loss-1", "loss", "earliest", null);
    FLINK.cluster().waitForCompletedCheckpoints(first, 2, WAIT);
    FLINK.cluster().cancel(first, WAIT);
    URI atZero = FLINK.cluster().latestRetainedCheckpoint(first).orElseThrow();

    produceCount(KAFKA.broker(), "loss", 0, 100);
    KAFKA.broker().deleteRecordsBefore(new TopicPartition("loss", 0), 60);

    // failOnDataLoss=true (default): the restored query fails, naming the partition and range.
    JobID failing = run("loss-2", "loss", "earliest", atZero);
    JobResult result = FLINK.cluster().waitForTermination(failing, WAIT);
    assertThat(result.isSuccess()).isFalse();
    Throwable error =
        result.getSerializedThrowable().orElseThrow().deserializeError(getClass().getClassLoader());
    assertThat(LakestreamException.errorClassOf(error)).isEqualTo("KAFKA_DATA_LOSS");
    assertThat(ExceptionUtils.findThrowable(error, KafkaDataLossException.class))
        .get()
        .extracting(Throwable::getMessage)
        .asString()
        .contains("partition loss-0 offsets 0 to 59 (60 records)", "failOnDataLoss=false");
    assertThat(seen("loss-2")).isEmpty();

    // failOnDataLoss=false: warn and continue from the earliest available offset.
    StreamExecutionEnvironment env = FLINK.environment();
    env.setParallelism(1);
    pipeline(
        env,
        source(KAFKA.broker(), "src", "loss")
            .option("startingOffsets", "earliest")
            .option("failOnDataLoss", false),
        "loss-3");
    JobID lenient = FLINK.submit(env, atZero);
    await("lenient run reads what is left", WAIT, () -> seen("loss-3").size() >= 40);
    long now = FLINK.cluster().completedCheckpoints(lenient);
    FLINK.cluster().waitForCompletedCheckpoints(lenient, (int) now + 2, WAIT);
    FLINK.cluster().cancel(lenient, WAIT);
    assertThat(seen("loss-3")).containsExactlyElementsOf(range("loss", 0, 60, 100));
  }

  @Test
  void startingTimestampStartsAtTheFirstRecordAtOrAfterIt() throws Exception {
    KAFKA.createTopic("stamped", 1);
    produceCount(KAFKA.broker(), "stamped", 0, 4);
    Thread.sleep(20);
    long from = System.currentTimeMillis();
    Thread.sleep(20);
    produceCount(KAFKA.broker(), "stamped", 0, 3); // offsets 4..6
    JobID job = run("stamped", "stamped", "earliest", null, Map.of("startingTimestamp", "" + from));
    try {
      await("records after the timestamp", WAIT, () -> seen("stamped").size() >= 3);
      long now = FLINK.cluster().completedCheckpoints(job);
      FLINK.cluster().waitForCompletedCheckpoints(job, (int) now + 2, WAIT);
    } finally {
      FLINK.cluster().cancel(job, WAIT);
    }
    assertThat(seen("stamped")).containsExactlyElementsOf(range("stamped", 0, 4, 7));
  }

  @Test
  void minOffsetsPerTriggerHoldsRecordsBackUntilEnoughOrTheDelayPassed() throws Exception {
    KAFKA.createTopic("few", 1);
    JobID job =
        run(
            "few",
            "few",
            "earliest",
            null,
            Map.of("minOffsetsPerTrigger", "50", "maxTriggerDelay", "4s"));
    try {
      FLINK.cluster().waitForCompletedCheckpoints(job, 2, WAIT);
      long start = System.nanoTime();
      produceCount(KAFKA.broker(), "few", 0, 10);
      long checkpoints = FLINK.cluster().completedCheckpoints(job);
      FLINK.cluster().waitForCompletedCheckpoints(job, (int) checkpoints + 3, WAIT);
      assertThat(seen("few")).as("10 < minOffsetsPerTrigger: held back").isEmpty();
      await("the delay admits them", WAIT, () -> seen("few").size() >= 10);
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThan(Duration.ofSeconds(2));

      produceCount(KAFKA.broker(), "few", 0, 60); // enough: admitted without waiting
      long before = System.nanoTime();
      await("60 >= minOffsetsPerTrigger", WAIT, () -> seen("few").size() >= 70);
      assertThat(Duration.ofNanos(System.nanoTime() - before)).isLessThan(Duration.ofSeconds(3));
    } finally {
      FLINK.cluster().cancel(job, WAIT);
    }
  }

  @Test
  void deletedTopicFailsTheQueryNamingIt() throws Exception {
    KAFKA.createTopic("doomed", 1);
    produceCount(KAFKA.broker(), "doomed", 0, 5);
    JobID job =
        run("doomed", "doomed", "earliest", null, Map.of("partitionDiscoveryInterval", "500ms"));
    await("reads the records", WAIT, () -> seen("doomed").size() >= 5);
    KAFKA.deleteTopic("doomed");
    JobResult result = FLINK.cluster().waitForTermination(job, WAIT);
    assertThat(result.isSuccess()).isFalse();
    Throwable error =
        result.getSerializedThrowable().orElseThrow().deserializeError(getClass().getClassLoader());
    assertThat(LakestreamException.errorClassOf(error)).isEqualTo("KAFKA_DATA_LOSS");
    assertThat(ExceptionUtils.findThrowable(error, KafkaDataLossException.class))
        .get()
        .extracting(Throwable::getMessage)
        .asString()
        .contains("[doomed-0]", "was deleted", "failOnDataLoss=false");
  }

  @Test
  void deletedTopicIsDroppedWithAWarningWhenFailOnDataLossIsFalse() throws Exception {
    KAFKA.createTopic("kept", 1);
    KAFKA.createTopic("dropped", 1);
    produceCount(KAFKA.broker(), "kept", 0, 3);
    produceCount(KAFKA.broker(), "dropped", 0, 3);
    StreamExecutionEnvironment env = FLINK.environment();
    env.setParallelism(1);
    pipeline(
        env,
        KafkaSourceHarness.source(KAFKA.broker(), "src", "kept,dropped")
            .option("startingOffsets", "earliest")
            .option("failOnDataLoss", false)
            .option("partitionDiscoveryInterval", "500ms"),
        "dropped");
    JobID job = FLINK.submit(env);
    try {
      await("reads both topics", WAIT, () -> seen("dropped").size() >= 6);
      KAFKA.deleteTopic("dropped");
      Thread.sleep(2_000); // discovery notices the deletion
      produceCount(KAFKA.broker(), "kept", 0, 2); // offsets 3, 4
      await("keeps reading the other topic", WAIT, () -> seen("dropped").size() >= 8);
      assertThat(FLINK.cluster().status(job).isGloballyTerminalState()).isFalse();
    } finally {
      FLINK.cluster().cancel(job, WAIT);
    }
    List<String> expected = new ArrayList<>(range("kept", 0, 0, 5));
    expected.addAll(range("dropped", 0, 0, 3));
    assertThat(seen("dropped")).containsExactlyInAnyOrderElementsOf(expected);
    assertThat(KAFKA.broker().topics()).doesNotContain("dropped");
  }
}
