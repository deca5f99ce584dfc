package io.lakestream.pipelines;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.pipelines.demo.OrdersTopic;
import io.lakestream.testkit.flink.FlinkCluster;
import io.lakestream.testkit.flink.FlinkCommand;
import io.lakestream.testkit.kafka.KafkaBroker;
import io.lakestream.testkit.query.S3CheckpointLocation;
import io.lakestream.testkit.s3.S3Server;
import io.lakestream.testkit.s3.S3aSettings;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;

/**
 * A lake under one key prefix of the test S3 server, its queries fed by one topic of the test
 * broker and run on a {@link FlinkCluster} with Flink's CLI only ({@code flink run -d
 * lakestream.jar run <pipeline>}, {@code flink stop}): what the tests of the lakehouse on a cluster
 * share. Assertions fail the calling test.
 */
final class LakeOnS3 {
  static final List<String> BRONZE_SINKS = List.of("bronze-sink", "bronze-dead-letters");
  static final List<String> SILVER_SINKS = List.of("silver-merge");
  static final Duration CAUGHT_UP = Duration.ofMinutes(2);
  static final Duration LEASE_RELEASE = Duration.ofSeconds(30);
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private final S3Server s3;
  private final KafkaBroker kafka;
  private final String lake;
  private final String topic;
  private final int parallelism;

  /**
   * @param lake the key prefix of the lake ({@code --output s3://<bucket>/<lake>})
   * @param topic the topic bronze and silver read ({@code -o subscribe})
   */
  LakeOnS3(S3Server s3, KafkaBroker kafka, String lake, String topic, int parallelism) {
    this.s3 = s3;
    this.kafka = kafka;
    this.lake = lake;
    this.topic = topic;
    this.parallelism = parallelism;
  }

  /** The options of bronze and silver in processing time: the broker and topic, small epochs. */
  List<String> streamingOptions(int maxOffsetsPerTrigger, String trigger) {
    return List.of(
        "-o",
        "kafka.bootstrap.servers=" + kafka.bootstrapServers(),
        "-o",
        "subscribe=" + topic,
        "-o",
        "maxOffsetsPerTrigger=" + maxOffsetsPerTrigger,
        "--trigger",
        trigger);
  }

  /** The checkpoint location of {@code pipeline}: {@code <lake>/_checkpoints/<pipeline>}. */
  S3CheckpointLocation location(String pipeline) {
    return S3CheckpointLocation.of(s3, lake + "/_checkpoints/" + pipeline);
  }

  /** {@code flink run -d lakestream.jar run <pipeline>}; returns once the job is submitted. */
  JobID submit(
      FlinkCluster cluster, String pipeline, S3CheckpointLocation location, List<String> options) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "run",
                "-d",
                ApplicationJar.path(),
                "run",
                pipeline,
                "--parallelism",
                Integer.toString(parallelism),
                "--output",
                s3.uri(lake).toString(),
                "--checkpoint",
                location.uri().toString()));
    args.addAll(options);
    FlinkCommand run = cluster.startFlink(args.toArray(String[]::new));
    JobID job = run.awaitJobId(Duration.ofMinutes(2));
    assertThat(run.awaitExit(Duration.ofMinutes(1)).exitCode())
        .as("flink run -d %s returns once the job is submitted: %s", pipeline, run.logFile())
        .isZero();
    return job;
  }

  /** Waits for two more completed checkpoints of each job: rows of what was produced committed. */
  static void awaitCheckpointsWithRows(FlinkCluster cluster, JobID... jobs) {
    List<Long> targets = new ArrayList<>();
    for (JobID job : jobs) {
      targets.add(cluster.completedCheckpoints(job) + 2);
    }
    for (int i = 0; i < jobs.length; i++) {
      cluster.awaitCompletedCheckpoints(jobs[i], targets.get(i), Duration.ofMinutes(1));
    }
  }

  /** Waits until every sink of the query committed all records the topic holds now. */
  void awaitCaughtUp(S3CheckpointLocation location, List<String> sinks) {
    long records = kafka.endOffsets(topic).values().stream().mapToLong(l -> l).sum();
    location.awaitCommittedOffset(OrdersTopic.SOURCE, sinks, records, CAUGHT_UP);
  }

  /** {@code flink stop --savepointPath <location>/savepoints <job>}, then FINISHED, lease free. */
  static void stop(FlinkCluster cluster, JobID job, S3CheckpointLocation location) {
    FlinkCommand.Result stop =
        cluster
            .flink("stop", "--savepointPath", location.uri() + "/savepoints", job.toString())
            .requireSuccess();
    assertThat(stop.output()).contains("Savepoint completed");
    cluster.awaitJobStatus(job, JobStatus.FINISHED, Duration.ofMinutes(1));
    location.awaitLeaseReleased(LEASE_RELEASE);
  }

  /** The table {@code <lake>/<name>}, read through S3A. */
  DeltaTable table(String name) {
    return DeltaTable.forPath(s3.uri(lake + "/" + name).toString(), S3aSettings.withS3Scheme(s3));
  }

  /** The latest snapshot's rows of table {@code name}. */
  List<Object[]> rows(String name) {
    return new DeltaTableReader(table(name)).readLatest();
  }

  /** The key of table {@code name} on the server, for {@code DeltaLogTxns.read}. */
  String key(String name) {
    return lake + "/" + name;
  }

  /** The raw values in the bronze dead-letter files ({@code part-*.jsonl}, committed only). */
  List<String> bronzeDeadLetters() throws Exception {
    String prefix = lake + "/orders_bronze_dead_letters/";
    List<String> raws = new ArrayList<>();
    for (String key : s3.keys(prefix)) {
      String name = key.substring(prefix.length());
      if (name.contains("/") || !name.endsWith(".jsonl")) {
        continue;
      }
      for (String line : new String(s3.read(key), StandardCharsets.UTF_8).split("\n")) {
        if (!line.isBlank()) {
          raws.add(MAPPER.readTree(line).get("raw").asText());
        }
      }
    }
    return raws;
  }
}
