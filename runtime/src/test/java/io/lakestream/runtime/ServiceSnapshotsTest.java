package io.lakestream.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.state.StateBackendSettings;
import java.time.Duration;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.core.execution.CheckpointingMode;
import org.junit.jupiter.api.Test;

/**
 * What a query leaves to a managed service that owns checkpoints and restores, and what it refuses
 * because the service decides it: the run's Flink configuration has no checkpoint storage,
 * interval, restart strategy or restore; the trigger is the service's interval.
 */
class ServiceSnapshotsTest {

  private static StreamingQueryBuilder query() {
    return StreamingQueryBuilder.of((env, query) -> {})
        .queryName("orders")
        .checkpointLocation("s3://lake/_checkpoints/orders")
        .serviceOwnedSnapshots(true);
  }

  private static Configuration service(Duration interval) {
    Configuration conf = new Configuration();
    conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, interval);
    conf.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, "s3://service/checkpoints");
    conf.set(StateRecoveryOptions.SAVEPOINT_PATH, "s3://service/snapshots/savepoint-1");
    return conf;
  }

  private static String errorClass(Throwable e) {
    return ((LakestreamException) e).errorClass();
  }

  @Test
  void theRunSetsNoCheckpointStorageIntervalRestartStrategyOrRestore() {
    QueryExecution.Settings s =
        ServiceSnapshots.settle(query().settings(), service(Duration.ofSeconds(2)));

    Configuration conf = FlinkSettings.forRun(s);

    assertThat(conf.contains(CheckpointingOptions.CHECKPOINTS_DIRECTORY)).isFalse();
    assertThat(conf.contains(CheckpointingOptions.SAVEPOINT_DIRECTORY)).isFalse();
    assertThat(conf.contains(CheckpointingOptions.CHECKPOINTING_INTERVAL)).isFalse();
    assertThat(conf.contains(CheckpointingOptions.CREATE_CHECKPOINT_SUB_DIR)).isFalse();
    assertThat(conf.contains(RestartStrategyOptions.RESTART_STRATEGY)).isFalse();
    assertThat(conf.contains(StateRecoveryOptions.SAVEPOINT_PATH)).isFalse();
    assertThat(conf.get(PipelineOptions.MAX_PARALLELISM))
        .isEqualTo(StateBackendSettings.DEFAULT_MAX_PARALLELISM);
    assertThat(ServiceSnapshots.restorePath(service(Duration.ofSeconds(2))))
        .contains("s3://service/snapshots/savepoint-1");
  }

  @Test
  void withoutATriggerTheEpochsFollowTheServicesInterval() {
    QueryExecution.Settings s =
        ServiceSnapshots.settle(query().settings(), service(Duration.ofSeconds(2)));

    assertThat(s.trigger()).isEqualTo(Trigger.processingTime(Duration.ofSeconds(2)));
    assertThat(ServiceSnapshots.trigger(Trigger.unspecified(), java.util.Optional.empty()))
        .isEqualTo(Trigger.processingTime(ServiceSnapshots.SERVICE_DEFAULT_INTERVAL));
  }

  @Test
  void aTriggerMustBeTheServicesInterval() {
    QueryExecution.Settings same =
        query().trigger(Trigger.processingTime(Duration.ofSeconds(2))).settings();
    assertThat(ServiceSnapshots.settle(same, service(Duration.ofSeconds(2))).trigger())
        .isEqualTo(Trigger.processingTime(Duration.ofSeconds(2)));

    QueryExecution.Settings other =
        query().trigger(Trigger.processingTime(Duration.ofSeconds(30))).settings();
    assertThatThrownBy(() -> ServiceSnapshots.settle(other, service(Duration.ofSeconds(60))))
        .hasMessageContaining("asks for an epoch every 30s")
        .hasMessageContaining("checkpoints every 60s")
        .hasMessageContaining("CheckpointInterval=30000")
        .extracting(ServiceSnapshotsTest::errorClass)
        .isEqualTo("QUERY_MANAGED_SERVICE_CONFLICT");
    for (Trigger stops : new Trigger[] {Trigger.availableNow(), Trigger.once()}) {
      assertThatThrownBy(
              () ->
                  ServiceSnapshots.settle(
                      query().trigger(stops).settings(), service(Duration.ofSeconds(2))))
          .hasMessageContaining("the service owns the job's life cycle")
          .extracting(ServiceSnapshotsTest::errorClass)
          .isEqualTo("QUERY_MANAGED_SERVICE_CONFLICT");
    }
  }

  @Test
  void whatTheServiceDecidesIsRefused() {
    Configuration service = service(Duration.ofSeconds(2));
    assertThatThrownBy(() -> ServiceSnapshots.settle(query().restoreFrom("/x").settings(), service))
        .hasMessageContaining("RESTORE_FROM_CUSTOM_SNAPSHOT");
    StateBackendSettings hashmap =
        StateBackendSettings.defaults().withBackend(StateBackendSettings.Backend.HASHMAP);
    assertThatThrownBy(
            () -> ServiceSnapshots.settle(query().stateBackend(hashmap).settings(), service))
        .hasMessageContaining("the service runs RocksDB");
    StateBackendSettings changelog = StateBackendSettings.defaults().withChangelog(true);
    assertThatThrownBy(
            () -> ServiceSnapshots.settle(query().stateBackend(changelog).settings(), service))
        .hasMessageContaining("without the changelog");

    Configuration unaligned = service(Duration.ofSeconds(2));
    unaligned.set(CheckpointingOptions.ENABLE_UNALIGNED, true);
    assertThatThrownBy(() -> ServiceSnapshots.settle(query().settings(), unaligned))
        .hasMessageContaining("unaligned");
    Configuration atLeastOnce = service(Duration.ofSeconds(2));
    atLeastOnce.set(
        CheckpointingOptions.CHECKPOINTING_CONSISTENCY_MODE, CheckpointingMode.AT_LEAST_ONCE);
    assertThatThrownBy(() -> ServiceSnapshots.settle(query().settings(), atLeastOnce))
        .hasMessageContaining("AT_LEAST_ONCE");

    assertThatThrownBy(() -> ServiceSnapshots.requireNonRestoredStateAllowed(service))
        .hasMessageContaining("AllowNonRestoredState=true");
    Configuration allowed = service(Duration.ofSeconds(2));
    allowed.set(StateRecoveryOptions.SAVEPOINT_IGNORE_UNCLAIMED_STATE, true);
    ServiceSnapshots.requireNonRestoredStateAllowed(allowed);
  }

  @Test
  void outsideTheServiceNothingChanges() {
    assertThat(
            StreamingQueryBuilder.of((env, query) -> {})
                .queryName("q")
                .checkpointLocation("/tmp/q")
                .settings()
                .serviceOwnedSnapshots())
        .as("no properties file, no switch")
        .isFalse();
  }
}
