package io.lakestream.connectors.kinesis;

import static io.lakestream.connectors.kinesis.KinesisJobs.FAILED;
import static io.lakestream.connectors.kinesis.KinesisJobs.await;
import static io.lakestream.connectors.kinesis.KinesisJobs.awaitExactly;
import static io.lakestream.connectors.kinesis.KinesisJobs.cancel;
import static io.lakestream.connectors.kinesis.KinesisJobs.createStream;
import static io.lakestream.connectors.kinesis.KinesisJobs.environment;
import static io.lakestream.testkit.kinesis.KinesisStreams.awaitActive;
import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.kinesis.KinesisJobs.FailOnce;
import io.lakestream.connectors.kinesis.KinesisJobs.SubmittedJobs;
import io.lakestream.connectors.kinesis.source.KinesisSource;
import io.lakestream.state.checkpoint.CheckpointLocation;
import io.lakestream.state.checkpoint.EpochLog;
import io.lakestream.state.query.OutputMode;
import io.lakestream.state.query.QueryContext;
import io.lakestream.testkit.flink.FlinkMiniClusterExtension;
import io.lakestream.testkit.kinesis.KinesaliteExtension;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.jobmaster.JobResult;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.kinesis.KinesisClient;
import software.amazon.awssdk.services.kinesis.model.Shard;

/**
 * The source against kinesalite, into a sink that commits with the checkpoints: records put before
 * and during a run are committed exactly once across a task failure; a split and a merge (before
 * and during a run) lose nothing and keep each partition key's order; availableNow reads what
 * arrived before each run's start, the second run only what arrived in between.
 */
class KinesisSourceITCase {
  @RegisterExtension
  @Order(1)
  static final KinesaliteExtension KINESIS = new KinesaliteExtension();

  @RegisterExtension
  @Order(2)
  static final FlinkMiniClusterExtension FLINK = new FlinkMiniClusterExtension();

  private final SubmittedJobs jobs = new SubmittedJobs(FLINK::cluster);

  private static final String FULL_RANGE_MIDDLE = "170141183460469231731687303715884105728";
  @TempDir static Path dir;
  private static KinesisClient client;
  private final Map<String, Integer> nextSeq = new HashMap<>();

  @BeforeAll
  static void client() {
    client = KINESIS.client();
  }

  /** Cancels the jobs a failed test left running. */
  @AfterEach
  void cancelRunningJobs() {
    jobs.cancelRunning();
  }

  @Test
  void recordsBeforeAndDuringARunAreCommittedOnceAcrossATaskFailure() throws Exception {
    String stream = "orders";
    createStream(client, stream, 2);
    List<String> expected = put(stream, 300);
    StreamExecutionEnvironment env = environment(FLINK.cluster(), 2, true);
    env.fromSource(source(stream, null), WatermarkStrategy.noWatermarks(), stream)
        .uid(stream)
        .map(new FailOnce(stream, 120))
        .map(KinesisJobs::line)
        .returns(Types.STRING)
        .addSink(new EpochCommittingSink(stream))
        .setParallelism(1);
    JobID job = jobs.submit(env, null);
    await(() -> EpochCommittingSink.committed(stream).size() >= 100);
    expected.addAll(put(stream, 300));
    awaitExactly(FLINK.cluster(), stream, expected, job);
    assertThat(FAILED).contains(stream);
    cancel(FLINK.cluster(), job);
  }

  @Test
  void aMissingStreamFailsTheJobNamingTheOptionsToCheck() {
    StreamExecutionEnvironment env = environment(FLINK.cluster(), 1, false);
    env.fromSource(source("missing", null), WatermarkStrategy.noWatermarks(), "missing")
        .uid("missing")
        .map(KinesisJobs::line)
        .returns(Types.STRING)
        .addSink(new EpochCommittingSink("missing"));
    JobID job = jobs.submit(env, null);
    JobResult result = FLINK.cluster().waitForTermination(job, Duration.ofSeconds(60));
    Throwable failure =
        result
            .getSerializedThrowable()
            .orElseThrow()
            .deserializeError(Thread.currentThread().getContextClassLoader());
    assertThat(ExceptionUtils.stringifyException(failure))
        .contains("KINESIS_SOURCE_STREAM_UNAVAILABLE")
        .contains("Cannot list the shards of Kinesis stream 'missing'")
        .contains("streamName, region and endpoint")
        .doesNotContain("test-secret");
  }

  @Test
  void maxRecordsPerEpochBoundsEachEpoch() throws Exception {
    String stream = "limited";
    createStream(client, stream, 1);
    List<String> expected = put(stream, 100);
    StreamExecutionEnvironment env = environment(FLINK.cluster(), 1, false);
    KinesisSource source = source(stream, null, Map.of("maxRecordsPerEpoch", "20"));
    env.fromSource(source, WatermarkStrategy.noWatermarks(), stream)
        .uid(stream)
        .map(KinesisJobs::line)
        .returns(Types.STRING)
        .addSink(new EpochCommittingSink(stream));
    JobID job = jobs.submit(env, null);
    awaitExactly(FLINK.cluster(), stream, expected, job);
    cancel(FLINK.cluster(), job);
    List<List<String>> epochs = EpochCommittingSink.committedEpochs(stream);
    assertThat(epochs).allSatisfy(epoch -> assertThat(epoch).hasSizeLessThanOrEqualTo(20));
    assertThat(epochs.stream().filter(epoch -> epoch.size() == 20)).hasSizeGreaterThanOrEqualTo(4);
  }

  @Test
  void aSplitAndAMergeLoseNothingAndKeepEachKeysOrder() throws Exception {
    String stream = "resharded";
    createStream(client, stream, 1);
    List<String> expected = put(stream, 150);
    split(stream, "shardId-000000000000");
    expected.addAll(put(stream, 150));
    StreamExecutionEnvironment env = environment(FLINK.cluster(), 1, true);
    // 100 records an epoch: the checkpoint after 200 holds the parent (150 records) finished, and
    // the failure after 250 restores it from there
    KinesisSource source = source(stream, null, Map.of("maxRecordsPerEpoch", "100"));
    env.fromSource(source, WatermarkStrategy.noWatermarks(), stream)
        .uid(stream)
        .map(new FailOnce(stream, 250))
        .map(KinesisJobs::line)
        .returns(Types.STRING)
        .addSink(new EpochCommittingSink(stream));
    JobID job = jobs.submit(env, null);
    await(() -> EpochCommittingSink.committed(stream).size() >= 200);
    await(
        () -> FAILED.contains(stream)); // in the epoch after the second: may come after its commit
    List<Shard> open = openShards(stream);
    assertThat(open).hasSize(2);
    merge(stream, open.get(0).shardId(), open.get(1).shardId());
    expected.addAll(put(stream, 150));
    awaitExactly(FLINK.cluster(), stream, expected, job);
    cancel(FLINK.cluster(), job);
  }

  @Test
  void availableNowReadsWhatArrivedBeforeEachRunsStart() throws Exception {
    String stream = "events";
    createStream(client, stream, 2);
    List<String> first = put(stream, 80);
    URI location = dir.resolve("events-query").toUri();
    JobID run1 = startAvailableNow(stream, location, "run-1", null);
    awaitCaughtUp(location, "run-1", stream);
    List<String> between = put(stream, 40);
    FLINK.cluster().waitForMoreCheckpoints(run1, 2, Duration.ofSeconds(30));
    cancel(FLINK.cluster(), run1);
    assertThat(EpochCommittingSink.committed(stream + "-run-1"))
        .containsExactlyInAnyOrderElementsOf(first);
    EpochLog epochs = new CheckpointLocation(location).epochs();
    List<Long> offsetEpochs = epochs.offsetEpochs();
    assertThat(offsetEpochs).isNotEmpty();
    assertThat(
            epochs
                .readOffsets(offsetEpochs.get(offsetEpochs.size() - 1))
                .get(stream)
                .get("totalOffset")
                .asLong())
        .as("records read, in the query's offsets")
        .isEqualTo(80);

    between.addAll(put(stream, 20));
    URI restore = FLINK.cluster().latestRetainedCheckpoint(run1).orElseThrow();
    JobID run2 = startAvailableNow(stream, location, "run-2", restore);
    awaitCaughtUp(location, "run-2", stream);
    FLINK.cluster().waitForMoreCheckpoints(run2, 2, Duration.ofSeconds(30));
    cancel(FLINK.cluster(), run2);
    assertThat(EpochCommittingSink.committed(stream + "-run-2"))
        .containsExactlyInAnyOrderElementsOf(between);
  }

  private JobID startAvailableNow(String stream, URI location, String runId, URI restore) {
    QueryContext query =
        new QueryContext(
            "q-" + stream,
            stream,
            runId,
            "app",
            location.toString(),
            true,
            false,
            OutputMode.APPEND);
    StreamExecutionEnvironment env = environment(FLINK.cluster(), 2, false);
    env.fromSource(source(stream, query), WatermarkStrategy.noWatermarks(), stream)
        .uid(stream)
        .map(KinesisJobs::line)
        .returns(Types.STRING)
        .addSink(new EpochCommittingSink(stream + "-" + runId))
        .uid("sink")
        .setParallelism(1);
    return jobs.submit(env, restore);
  }

  private static void awaitCaughtUp(URI location, String runId, String source)
      throws InterruptedException {
    await(
        () -> {
          try {
            return !new CheckpointLocation(location).epochs().caughtUpSources(runId).isEmpty();
          } catch (java.io.IOException e) {
            return false;
          }
        });
  }

  private static KinesisSource source(String stream, QueryContext query) {
    return source(stream, query, Map.of());
  }

  private static KinesisSource source(
      String stream, QueryContext query, Map<String, String> extra) {
    Map<String, String> options = new LinkedHashMap<>();
    options.put("streamName", stream);
    options.put("region", "us-east-1");
    options.put("endpoint", KINESIS.endpoint().toString());
    options.put("awsAccessKey", "test");
    options.put("awsSecretKey", "test-secret");
    options.put("initialPosition", "trim_horizon");
    options.put("maxRecordsPerFetch", "25");
    options.put("shardFetchInterval", "200ms");
    options.put("minFetchPeriod", "50ms");
    options.putAll(extra);
    return KinesisSource.create(stream, options, query);
  }

  /** Waits until the committed lines are exactly {@code expected}, then two more checkpoints. */
  private List<String> put(String stream, int count) {
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      String key = "key-" + (i % 7);
      int seq = nextSeq.merge(stream + "/" + key, 1, Integer::sum);
      client.putRecord(
          r ->
              r.streamName(stream)
                  .partitionKey(key)
                  .data(SdkBytes.fromString(Integer.toString(seq), StandardCharsets.UTF_8)));
      lines.add(key + "|" + seq);
    }
    return lines;
  }

  private static void split(String stream, String shardId) throws InterruptedException {
    client.splitShard(
        r -> r.streamName(stream).shardToSplit(shardId).newStartingHashKey(FULL_RANGE_MIDDLE));
    awaitActive(client, stream);
  }

  private static void merge(String stream, String shard, String adjacent)
      throws InterruptedException {
    client.mergeShards(
        r -> r.streamName(stream).shardToMerge(shard).adjacentShardToMerge(adjacent));
    awaitActive(client, stream);
  }

  private static List<Shard> openShards(String stream) {
    return client.listShards(r -> r.streamName(stream)).shards().stream()
        .filter(s -> s.sequenceNumberRange().endingSequenceNumber() == null)
        .toList();
  }
}
