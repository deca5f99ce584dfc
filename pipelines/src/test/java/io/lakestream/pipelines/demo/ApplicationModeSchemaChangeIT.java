package io.lakestream.pipelines.demo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.lakestream.pipelines.ApplicationJar;
import io.lakestream.pipelines.autoloader.OrdersBronzeFromFiles;
import io.lakestream.pipelines.cli.LakestreamCli;
import io.lakestream.testkit.TempDirectory;
import io.lakestream.testkit.flink.FlinkCluster;
import io.lakestream.testkit.s3.S3ServerExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Application mode (as {@code flink run-application -t yarn-application} on EMR runs it, attached
 * unless {@code -d}): Flink's {@code StandaloneApplicationClusterEntryPoint} runs lakestream's main
 * in the JobManager, which is the client there. When Auto Loader meets a new column the job fails
 * with the schema recorded, and that main rebuilds the query and submits it as a second job of the
 * application; the table gains the column with every order once.
 */
class ApplicationModeSchemaChangeIT {
  private static final Path CLUSTER_DIR =
      Path.of("target/application-mode-schema-change-it").toAbsolutePath();

  @RegisterExtension static final S3ServerExtension S3 = new S3ServerExtension("application-it");

  @TempDir Path work;

  @Test
  void theMainInTheJobManagerRestartsTheQueryAsASecondJob() throws Exception {
    TempDirectory.deleteRecursively(CLUSTER_DIR);
    Path landing = work.resolve("landing");
    Path lake = work.resolve("files-lake");
    Path table = lake.resolve(OrdersBronzeFromFiles.TABLE);
    for (int f = 0; f < 4; f++) {
      FlinkClusterIT.writeOrders(
          landing.resolve("date=2026-11-01/part-" + f + ".json"), f * 10L, false);
    }
    String checkpoint = S3.uri("queries/bronze-files").toString();
    try (FlinkCluster cluster =
        FlinkCluster.builder()
            .taskManagers(1)
            .slotsPerTaskManager(2)
            .directory(CLUSTER_DIR)
            .configuration(S3.flinkConfiguration())
            .configuration("execution.attached", "true")
            .application(
                Path.of(ApplicationJar.path()),
                LakestreamCli.class.getName(),
                FlinkClusterIT.bronzeFilesRun("bronze-files", landing, lake, checkpoint)
                    .toArray(String[]::new))
            .start()) {
      FlinkClusterIT.awaitRows(table, 40, Duration.ofMinutes(2));
      FlinkClusterIT.writeOrders(landing.resolve("date=2026-11-02/part-4.json"), 40, true);
      FlinkClusterIT.writeOrders(landing.resolve("date=2026-11-02/part-5.json"), 50, false);
      FlinkClusterIT.awaitRows(table, 60, Duration.ofMinutes(3));

      List<String> states = new ArrayList<>();
      String running = null;
      for (JsonNode job : cluster.rest("/jobs/overview").path("jobs")) {
        states.add(job.path("state").asText());
        if ("RUNNING".equals(job.path("state").asText())) {
          running = job.path("jid").asText();
        }
      }
      assertThat(states)
          .as("the failed job and the rebuilt one")
          .containsExactlyInAnyOrder("FAILED", "RUNNING");
      cluster
          .flink("stop", "--savepointPath", checkpoint + "/savepoints", running)
          .requireSuccess();
      assertThat(Files.readString(cluster.logDirectory().resolve("jobmanager.log")))
          .contains("input schema changed (columns [amount])");
    }
    FlinkClusterIT.assertTheNewColumn(table);
  }
}
