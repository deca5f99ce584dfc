package io.lakestream.pipelines.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.GlobalConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What an embedded {@code lakestream run} takes from {@code $FLINK_CONF_DIR/config.yaml}. */
class FlinkConfDirTest {
  @TempDir Path dir;

  @Test
  void aClustersSettingsApplyButNotItsRestEndpoint() throws Exception {
    Files.writeString(
        dir.resolve("config.yaml"),
        String.join(
            "\n",
            "rest.port: 8081",
            "rest.address: jobmanager",
            "rest.bind-address: 0.0.0.0",
            "s3.endpoint: 'http://127.0.0.1:9000'",
            "s3.path.style.access: 'true'",
            "restart-strategy.type: fixed-delay",
            ""));

    Configuration conf =
        RunCommand.forEmbeddedRun(GlobalConfiguration.loadConfiguration(dir.toString()));

    assertThat(conf.toMap())
        .containsEntry("s3.endpoint", "http://127.0.0.1:9000")
        .containsEntry("s3.path.style.access", "true")
        .containsEntry("restart-strategy.type", "fixed-delay")
        .doesNotContainKeys("rest.port", "rest.address", "rest.bind-address", "rest.bind-port");
  }
}
