package io.lakestream.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.state.StateBackendSettings;
import io.lakestream.state.checkpoint.CreateIfAbsentSelection;
import io.lakestream.testkit.s3.S3ServerExtension;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Killed runs resume from the checkpoint location with no loss and no duplicates: a task failure
 * mid-epoch (restarted inside the job), a failed job (restarted by a new run), a cancelled job, and
 * a checkpoint location on S3.
 */
class QueryRecoveryITCase {
  @RegisterExtension static final S3ServerExtension S3 = new S3ServerExtension();

  @TempDir Path dir;

  @BeforeEach
  @AfterEach
  void resetFailure() {
    CountingQuery.failAtRow = Long.MAX_VALUE;
    CountingQuery.FAILED.set(false);
  }

  private Path table() {
    return dir.resolve("counts");
  }

  private StreamingQueryBuilder query(
      String location, Trigger trigger, long rows, long maxRowsPerTrigger, long rate) {
    return StreamingQueryBuilder.of(CountingQuery.dataflow(table(), rows, maxRowsPerTrigger, rate))
        .queryName("counting")
        .checkpointLocation(location)
        .trigger(trigger)
        .parallelism(2)
        .stateBackend(StateBackendSettings.defaults());
  }

  private static Configuration restarts(int attempts) {
    Configuration conf = new Configuration();
    conf.set(RestartStrategyOptions.RESTART_STRATEGY, attempts == 0 ? "none" : "fixed-delay");
    conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, Math.max(1, attempts));
    conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(100));
    return conf;
  }

  @Test
  void aTaskFailureMidEpochIsRecoveredInsideTheRun() throws Exception {
    CountingQuery.failAtRow = 450;
    StreamingQuery q =
        query(dir.resolve("chk").toString(), Trigger.availableNow(), 900, 100, 0)
            .flinkConfiguration(restarts(3))
            .start();
    q.awaitTermination();
    assertThat(CountingQuery.FAILED).isTrue();
    CountingQuery.assertExactlyOnce(table(), 900);
  }

  @Test
  void aFailedRunIsResumedByTheNextRun() throws Exception {
    CountingQuery.failAtRow = 450;
    String location = dir.resolve("chk").toString();
    StreamingQuery failed =
        query(location, Trigger.availableNow(), 900, 100, 0)
            .flinkConfiguration(restarts(0))
            .start();
    assertThatThrownBy(failed::awaitTermination)
        .isInstanceOf(StreamingQueryException.class)
        .hasMessageContaining("injected task failure")
        .hasMessageContaining("run it again to resume")
        .extracting(e -> ((StreamingQueryException) e).errorClass())
        .isEqualTo("STREAM_FAILED");
    assertThat(CountingQuery.read(table()).size()).isLessThan(900);

    query(location, Trigger.availableNow(), 900, 100, 0).start().awaitTermination();
    CountingQuery.assertExactlyOnce(table(), 900);
  }

  @Test
  void aCancelledRunResumesFromItsLastCheckpoint() throws Exception {
    String location = dir.resolve("chk").toString();
    // 15 s of input at 400 rows/s: the cancel lands mid-stream even when a loaded machine takes
    // seconds for the first epochs (1,500 rows were all committed before it once, at load 10)
    StreamingQuery q =
        query(location, Trigger.processingTime(Duration.ofMillis(300)), 6000, 0, 400).start();
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (q.recentProgress().size() < 3 && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    q.cancel();
    assertThat(q.isActive()).isFalse();
    assertThat(CountingQuery.read(table()).size()).isBetween(1, 5999);

    query(location, Trigger.availableNow(), 6000, 0, 0).start().awaitTermination();
    CountingQuery.assertExactlyOnce(table(), 6000);
  }

  @Test
  void theChangelogStateBackendKeepsStateAcrossRunsAndAFailure() throws Exception {
    CountingQuery.failAtRow = 200;
    String location = dir.resolve("chk").toString();
    StateBackendSettings changelog = StateBackendSettings.defaults().withChangelog(true);
    query(location, Trigger.availableNow(), 300, 50, 0)
        .stateBackend(changelog)
        .flinkConfiguration(restarts(3))
        .start()
        .awaitTermination();
    query(location, Trigger.availableNow(), 600, 50, 0)
        .stateBackend(changelog)
        .start()
        .awaitTermination();

    assertThat(CountingQuery.FAILED).isTrue();
    CountingQuery.assertExactlyOnce(table(), 600);
    assertThat(dir.resolve("chk/state/changelog")).isDirectory();
  }

  @Test
  void aCheckpointLocationOnS3WorksAcrossRuns() throws Exception {
    S3.server().initializeFlinkFileSystems();
    // What FlinkSettings does for a query given S3 settings, with a plugins directory.
    CreateIfAbsentSelection.configure(S3.server().flinkConfiguration());
    String location = S3.server().uri("queries/counting").toString();
    query(location, Trigger.availableNow(), 300, 100, 0).start().awaitTermination();
    query(location, Trigger.availableNow(), 600, 100, 0).start().awaitTermination();

    CountingQuery.assertExactlyOnce(table(), 600);
    assertThat(S3.server().keys("queries/counting/metadata")).isNotEmpty();
    assertThat(S3.server().keys("queries/counting/savepoints/")).isNotEmpty();
    assertThat(S3.server().keys("queries/counting/commits/")).isNotEmpty();
    assertThat(S3.server().keys("queries/counting/lease/"))
        .as("the second run's generation, released; the first one's is deleted")
        .containsExactly("queries/counting/lease/" + String.format("%020d", 2));
  }

  /**
   * The S3 server holding the checkpoint location (Flink's checkpoints, the offset and commit logs,
   * progress, the lease) stops serving for 12 s while epochs are checkpointed and committed. The
   * query either rides it (restarts inside the job until S3 answers) or fails with an error that
   * says what failed, and the same query run again finishes; either way every row is in the output
   * once.
   */
  @Test
  void anOutageOfTheS3CheckpointLocationMidRunLosesAndRepeatsNothing() throws Exception {
    S3.server().initializeFlinkFileSystems();
    CreateIfAbsentSelection.configure(S3.server().flinkConfiguration());
    String location = S3.server().uri("queries/outage").toString();
    Configuration restarts = new Configuration();
    restarts.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
    restarts.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 60);
    restarts.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofSeconds(1));
    StreamingQuery q =
        query(location, Trigger.availableNow(), 3000, 100, 400)
            .flinkConfiguration(restarts)
            .start();
    long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
    while (S3.server().keys("queries/outage/commits/").size() < 3) {
      assertThat(System.nanoTime()).as("three epochs committed").isLessThan(deadline);
      Thread.sleep(50);
    }
    S3.server().stopServing();
    Thread.sleep(12_000);
    S3.server().resumeServing();
    String outcome;
    try {
      q.awaitTermination();
      outcome = "rode the outage";
    } catch (StreamingQueryException failed) {
      outcome = "failed: " + failed.getMessage();
      System.out.println("QueryRecoveryITCase outage: " + outcome);
      query(location, Trigger.availableNow(), 3000, 100, 0).start().awaitTermination();
    }
    System.out.println("QueryRecoveryITCase outage: the first run " + outcome);
    CountingQuery.assertExactlyOnce(table(), 3000);
  }
}
