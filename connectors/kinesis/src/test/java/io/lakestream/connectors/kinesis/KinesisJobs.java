package io.lakestream.connectors.kinesis;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.testkit.flink.FlinkMiniCluster;
import io.lakestream.testkit.kinesis.KinesisStreams;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.types.Row;
import software.amazon.awssdk.services.kinesis.KinesisClient;

/**
 * What the Kinesis source's ITCases share, whichever peer they run against: streams created and
 * awaited through a client, jobs on the test's MiniCluster, records as {@code key|seq} lines, a
 * task failure injected once per name ({@link #FAILED}), and the exactly-once check of the lines an
 * {@link EpochCommittingSink} committed (every line once, each key's lines in order).
 */
final class KinesisJobs {
  /** The names of the {@link FailOnce} functions that have failed their task. */
  static final Set<String> FAILED = ConcurrentHashMap.newKeySet();

  private KinesisJobs() {}

  /** Checkpoints every 200 ms; {@code restarts}: up to 3 restarts 100 ms apart. */
  static StreamExecutionEnvironment environment(
      FlinkMiniCluster cluster, int parallelism, boolean restarts) {
    StreamExecutionEnvironment env = cluster.environment();
    env.setParallelism(parallelism);
    env.enableCheckpointing(200);
    if (restarts) {
      Configuration config = new Configuration();
      config.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
      config.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 3);
      config.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(100));
      env.configure(config);
    }
    return env;
  }

  /** A record as {@code partitionKey|data}. */
  static String line(Row row) {
    return KinesisRecord.partitionKey(row)
        + "|"
        + new String(KinesisRecord.data(row), StandardCharsets.UTF_8);
  }

  /** Fails the task once, after {@code after} records. */
  static final class FailOnce implements MapFunction<Row, Row> {
    private final String name;
    private final int after;
    private int seen;

    FailOnce(String name, int after) {
      this.name = name;
      this.after = after;
    }

    @Override
    public Row map(Row row) {
      if (++seen == after && FAILED.add(name)) {
        throw new IllegalStateException("injected failure after " + after + " records");
      }
      return row;
    }
  }

  /**
   * Waits until {@code sink} committed as many lines as {@code expected} and two more checkpoints
   * passed, then checks they are exactly {@code expected}, each key's in order.
   */
  static void awaitExactly(FlinkMiniCluster cluster, String sink, List<String> expected, JobID job)
      throws InterruptedException {
    await(() -> EpochCommittingSink.committed(sink).size() >= expected.size());
    cluster.waitForMoreCheckpoints(job, 2, Duration.ofSeconds(30));
    List<String> committed = EpochCommittingSink.committed(sink);
    assertThat(committed).containsExactlyInAnyOrderElementsOf(expected);
    Map<String, Integer> last = new HashMap<>();
    for (String line : committed) {
      String[] keyAndSeq = line.split("\\|");
      int seq = Integer.parseInt(keyAndSeq[1]);
      Integer before = last.put(keyAndSeq[0], seq);
      assertThat(before == null ? -1 : before).as("order of key " + keyAndSeq[0]).isLessThan(seq);
    }
  }

  /** Creates {@code stream} with {@code shards} shards and waits until it is active. */
  static void createStream(KinesisClient client, String stream, int shards)
      throws InterruptedException {
    KinesisStreams.create(client, stream, shards);
  }

  /**
   * The jobs a test submitted, so that the ones a failed test left running are cancelled after it
   * and do not hold the cluster's slots.
   */
  static final class SubmittedJobs {
    private final Supplier<FlinkMiniCluster> cluster;
    private final List<JobID> jobs = new ArrayList<>();

    /** Jobs of the cluster {@code cluster} gives (once started: a field may name it earlier). */
    SubmittedJobs(Supplier<FlinkMiniCluster> cluster) {
      this.cluster = cluster;
    }

    /** Submits {@code env}'s job, restored from {@code restore} unless null. */
    JobID submit(StreamExecutionEnvironment env, URI restore) {
      JobID job = cluster.get().submit(env, restore);
      jobs.add(job);
      return job;
    }

    /** Cancels those still running. */
    void cancelRunning() {
      for (JobID job : jobs) {
        if (!cluster.get().status(job).isGloballyTerminalState()) {
          cancel(cluster.get(), job);
        }
      }
      jobs.clear();
    }
  }

  /** Cancels {@code job}, waiting up to 30 s. */
  static void cancel(FlinkMiniCluster cluster, JobID job) {
    cluster.cancel(job, Duration.ofSeconds(30));
  }

  /** Waits up to 60 s for {@code condition}. */
  static void await(BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("condition not met within 60 s");
      }
      Thread.sleep(50);
    }
  }
}
