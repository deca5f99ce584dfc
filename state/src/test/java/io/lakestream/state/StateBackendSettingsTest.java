package io.lakestream.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.api.error.LakestreamException;
import java.net.URI;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExternalizedCheckpointRetention;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.StateChangelogOptions;
import org.junit.jupiter.api.Test;

class StateBackendSettingsTest {

  @Test
  void defaultsAreRocksDbIncrementalRetainedWithoutKryo() {
    Configuration conf =
        StateBackendSettings.defaults().toConfiguration(URI.create("s3://bucket/queries/q1/"));

    assertThat(conf.get(CheckpointingOptions.STATE_BACKEND)).isEqualTo("rocksdb");
    assertThat(conf.get(CheckpointingOptions.INCREMENTAL_CHECKPOINTS)).isTrue();
    assertThat(conf.get(StateChangelogOptions.ENABLE_STATE_CHANGE_LOG)).isFalse();
    assertThat(conf.get(CheckpointingOptions.CHECKPOINTS_DIRECTORY))
        .isEqualTo("s3://bucket/queries/q1/state");
    assertThat(conf.get(CheckpointingOptions.SAVEPOINT_DIRECTORY))
        .isEqualTo("s3://bucket/queries/q1/savepoints");
    assertThat(conf.get(CheckpointingOptions.EXTERNALIZED_CHECKPOINT_RETENTION))
        .isEqualTo(ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION);
    assertThat(conf.get(PipelineOptions.MAX_PARALLELISM)).isEqualTo(128);
    assertThat(conf.get(PipelineOptions.GENERIC_TYPES)).isFalse();
  }

  @Test
  void changelogAndHashMapAndMaxParallelismAreApplied() {
    Configuration conf =
        StateBackendSettings.defaults()
            .withBackend(StateBackendSettings.Backend.HASHMAP)
            .withChangelog(true)
            .withMaxParallelism(256)
            .toConfiguration(URI.create("file:///tmp/q"));

    assertThat(conf.get(CheckpointingOptions.STATE_BACKEND)).isEqualTo("hashmap");
    assertThat(conf.get(StateChangelogOptions.ENABLE_STATE_CHANGE_LOG)).isTrue();
    assertThat(conf.get(StateChangelogOptions.STATE_CHANGE_LOG_STORAGE)).isEqualTo("filesystem");
    assertThat(conf.get(StateBackendSettings.CHANGELOG_BASE_PATH))
        .isEqualTo("file:///tmp/q/state/changelog");
    assertThat(conf.get(PipelineOptions.MAX_PARALLELISM)).isEqualTo(256);
  }

  @Test
  void relativeCheckpointDirectoryIsRefused() {
    assertThatThrownBy(
            () -> StateBackendSettings.defaults().toConfiguration(URI.create("relative/dir")))
        .isInstanceOf(LakestreamException.class)
        .hasMessageContaining("absolute URI")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("INVALID_STATE_SETTING");
  }

  @Test
  void maxParallelismOutOfRangeIsRefused() {
    assertThatThrownBy(() -> StateBackendSettings.defaults().withMaxParallelism(0))
        .isInstanceOf(LakestreamException.class)
        .hasMessageContaining("between 1 and 32768")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("INVALID_STATE_SETTING");
  }
}
