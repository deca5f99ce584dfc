package io.lakestream.connectors.kinesis;

import static io.lakestream.connectors.kinesis.KinesisJobs.FAILED;
import static io.lakestream.connectors.kinesis.KinesisJobs.await;
import static io.lakestream.connectors.kinesis.KinesisJobs.awaitExactly;
import static io.lakestream.connectors.kinesis.KinesisJobs.cancel;
import static io.lakestream.connectors.kinesis.KinesisJobs.createStream;
import static io.lakestream.connectors.kinesis.KinesisJobs.environment;
import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.kinesis.KinesisJobs.FailOnce;
import io.lakestream.connectors.kinesis.KinesisJobs.SubmittedJobs;
import io.lakestream.connectors.kinesis.source.KinesisSource;
import io.lakestream.state.checkpoint.CheckpointLocation;
import io.lakestream.state.query.OutputMode;
import io.lakestream.state.query.QueryContext;
import io.lakestream.testkit.flink.FlinkMiniClusterExtension;
import io.lakestream.testkit.kinesis.KinesisMockExtension;
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
import software.amazon.awssdk.services.kinesis.model.Consumer;
import software.amazon.awssdk.services.kinesis.model.PutRecordsRequestEntry;

/**
 * consumerMode efo against kinesis-mock (RegisterStreamConsumer and SubscribeToShard over HTTP/2):
 * two shards committed exactly once across a task failure with a per-epoch limit, the consumer
 * registered under the option's name and deregistered when the job stops
 * (requireConsumerDeregistration); availableNow across two runs, the first polling, the second efo
 * from the first's positions (consumer named after the query id), reads each record once; a
 * registeredConsumerId that does not exist fails naming the option. kinesis-mock sends no child
 * shards when a subscribed shard closes, so resharding under efo is tested at the reader instead
 * ({@code source.reader.KinesisFanOutReshardTest}, with the events built from kinesalite's shards).
 */
class KinesisEnhancedFanOutITCase {
  @RegisterExtension
  @Order(1)
  static final KinesisMockExtension KINESIS = new KinesisMockExtension();

  @RegisterExtension
  @Order(2)
  static final FlinkMiniClusterExtension FLINK = new FlinkMiniClusterExtension();

  private final SubmittedJobs jobs = new SubmittedJobs(FLINK::cluster);

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
  void twoShardsAreCommittedOnceAcrossATaskFailureWithinThePerEpochLimit() throws Exception {
    String stream = "efo-clicks";
    createStream(client, stream, 2);
    List<String> expected = put(stream, 200);
    StreamExecutionEnvironment env = environment(FLINK.cluster(), 2, true);
    KinesisSource source =
        source(
            stream,
            null,
            Map.of(
                "consumerName",
                "clicks-app",
                "maxRecordsPerEpoch",
                "60",
                "requireConsumerDeregistration",
                "true"));
    env.fromSource(source, WatermarkStrategy.noWatermarks(), stream)
        .uid(stream)
        .map(new FailOnce(stream, 90))
        .map(KinesisJobs::line)
        .returns(Types.STRING)
        .addSink(new EpochCommittingSink(stream))
        .setParallelism(1);
    JobID job = jobs.submit(env, null);
    await(() -> EpochCommittingSink.committed(stream).size() >= 100);
    expected.addAll(put(stream, 100));
    awaitExactly(FLINK.cluster(), stream, expected, job);
    assertThat(FAILED).contains(stream);
    assertThat(consumers(stream)).containsExactly("lakestream_clicks-app");
    cancel(FLINK.cluster(), job);
    assertThat(EpochCommittingSink.committedEpochs(stream))
        .allSatisfy(epoch -> assertThat(epoch).hasSizeLessThanOrEqualTo(2 * 60));
    await(() -> consumers(stream).isEmpty()); // requireConsumerDeregistration
  }

  @Test
  void availableNowRunsSwitchingFromPollingToEfoReadEachRecordOnce() throws Exception {
    String stream = "efo-events";
    createStream(client, stream, 2);
    URI location = dir.resolve("events-query").toUri();
    List<String> first = put(stream, 60);
    URI checkpoint = availableNowRun(stream, location, "run-1", "polling", null, first);
    List<String> second = put(stream, 40);
    availableNowRun(stream, location, "run-2", "efo", checkpoint, second);
    assertThat(consumers(stream)).contains("lakestream_q-" + stream);
  }

  @Test
  void aRegisteredConsumerIdThatDoesNotExistFailsNamingTheOption() throws Exception {
    String stream = "efo-orphans";
    createStream(client, stream, 1);
    StreamExecutionEnvironment env = environment(FLINK.cluster(), 1, false);
    KinesisSource source = source(stream, null, Map.of("registeredConsumerId", "nobody"));
    env.fromSource(source, WatermarkStrategy.noWatermarks(), stream)
        .uid(stream)
        .map(KinesisJobs::line)
        .returns(Types.STRING)
        .addSink(new EpochCommittingSink(stream));
    JobID job = jobs.submit(env, null);
    JobResult result = FLINK.cluster().waitForTermination(job, Duration.ofSeconds(60));
    Throwable failure =
        result
            .getSerializedThrowable()
            .orElseThrow()
            .deserializeError(Thread.currentThread().getContextClassLoader());
    assertThat(ExceptionUtils.stringifyException(failure))
        .contains("KINESIS_SOURCE_CONSUMER_FAILED")
        .contains("consumer nobody does not exist")
        .contains("registeredConsumerId and registeredConsumerIdType")
        .doesNotContain("test-secret");
  }

  /** Runs availableNow until caught up, checks it committed exactly {@code expected}. */
  private URI availableNowRun(
      String stream, URI location, String runId, String mode, URI restore, List<String> expected)
      throws Exception {
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
    env.fromSource(
            source(stream, query, Map.of("consumerMode", mode)),
            WatermarkStrategy.noWatermarks(),
            stream)
        .uid(stream)
        .map(KinesisJobs::line)
        .returns(Types.STRING)
        .addSink(new EpochCommittingSink(stream + "-" + runId))
        .uid("sink")
        .setParallelism(1);
    JobID job = jobs.submit(env, restore);
    await(
        () -> {
          try {
            return !new CheckpointLocation(location).epochs().caughtUpSources(runId).isEmpty();
          } catch (java.io.IOException e) {
            return false;
          }
        });
    FLINK.cluster().waitForMoreCheckpoints(job, 2, Duration.ofSeconds(30));
    cancel(FLINK.cluster(), job);
    assertThat(EpochCommittingSink.committed(stream + "-" + runId))
        .as(runId + " (" + mode + ")")
        .containsExactlyInAnyOrderElementsOf(expected);
    return FLINK.cluster().latestRetainedCheckpoint(job).orElseThrow();
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
    options.put("consumerMode", "efo");
    options.put("shardFetchInterval", "200ms");
    options.put("minFetchPeriod", "50ms");
    options.putAll(extra);
    return KinesisSource.create(stream, options, query);
  }

  /** Waits until the committed lines are exactly {@code expected} (each key in order). */
  private List<String> put(String stream, int count) {
    List<String> lines = new ArrayList<>();
    List<PutRecordsRequestEntry> entries = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      String key = "key-" + (i % 7);
      int seq = nextSeq.merge(stream + "/" + key, 1, Integer::sum);
      entries.add(
          PutRecordsRequestEntry.builder()
              .partitionKey(key)
              .data(SdkBytes.fromString(Integer.toString(seq), StandardCharsets.UTF_8))
              .build());
      lines.add(key + "|" + seq);
    }
    // one call: the records of a key keep their order within the shard
    assertThat(client.putRecords(r -> r.streamName(stream).records(entries)).failedRecordCount())
        .isZero();
    return lines;
  }

  private static List<String> consumers(String stream) {
    String arn =
        client
            .describeStreamSummary(r -> r.streamName(stream))
            .streamDescriptionSummary()
            .streamARN();
    return client.listStreamConsumers(r -> r.streamARN(arn)).consumers().stream()
        .map(Consumer::consumerName)
        .toList();
  }
}
