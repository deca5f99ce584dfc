package io.lakestream.pipelines;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.pipelines.demo.OrdersTopic;
import io.lakestream.pipelines.silver.OrderEvents;
import io.lakestream.pipelines.silver.OrdersSilver;
import io.lakestream.testkit.TempDirectory;
import io.lakestream.testkit.delta.DeltaLogTxns;
import io.lakestream.testkit.flink.FlinkCluster;
import io.lakestream.testkit.kafka.KafkaBrokerExtension;
import io.lakestream.testkit.query.S3CheckpointLocation;
import io.lakestream.testkit.s3.S3ServerExtension;
import io.lakestream.testkit.s3.S3aSettings;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.flink.api.common.JobID;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The whole cluster dies at once (its JobManager and TaskManager JVMs SIGKILLed mid-epoch, as when
 * the machine or the container host goes), with bronze and silver running on it, their checkpoint
 * locations and Delta tables on S3; then the same {@code flink run -d} commands on a new cluster
 * resume both queries from their S3 checkpoint locations (no fresh start, no lease left in the
 * way), the rest of the input is produced, and both stop with {@code flink stop}. The tables and
 * dead letters equal their models row for row, and each Delta log holds every epoch once.
 *
 * <p>The clusters run with an S3 secret key of their own, a random value: it is in no log line of
 * any process, no output of {@code flink run}, and no object the queries wrote to the bucket
 * (tables, checkpoints and savepoints, offsets, commits, progress, leases, run records).
 */
class ClusterCrashIT {
  private static final Path DIR = Path.of("target/cluster-crash-it").toAbsolutePath();
  private static final String TOPIC = "orders";
  private static final int PARTITIONS = 2;
  private static final int ORDERS = 600;
  private static final Instant START = Instant.parse("2026-03-01T10:00:00Z");
  private static final String SECRET_KEY = "S3-secret-" + UUID.randomUUID();

  /** The cluster configuration files hold the secret by design: they are what users write. */
  private static final Set<String> CONFIGURATION_FILES = Set.of("config.yaml", "core-site.xml");

  @RegisterExtension
  @Order(1)
  static final S3ServerExtension S3 = new S3ServerExtension("cluster-crash-it");

  @RegisterExtension
  @Order(2)
  static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

  @Test
  void bronzeAndSilverResumeOnANewClusterAfterTheWholeClusterIsKilledMidEpoch() throws Exception {
    TempDirectory.deleteRecursively(DIR); // logs of the last run only
    KAFKA.createTopic(TOPIC, PARTITIONS);
    LakeOnS3 lake = new LakeOnS3(S3.server(), KAFKA.broker(), "lake", TOPIC, 2);
    LakehouseInput input = new LakehouseInput(KAFKA.bootstrapServers(), TOPIC, PARTITIONS);
    Random random = new Random(23);
    input.addBeforeAndAfter(OrderEvents.versions(ORDERS, START), 60, 60, random);
    List<String> streaming = lake.streamingOptions(100, "processingTime=2s");
    S3CheckpointLocation bronzeLocation = lake.location("bronze");
    S3CheckpointLocation silverLocation = lake.location("silver");

    try (FlinkCluster cluster = cluster("first")) {
      JobID bronze = lake.submit(cluster, "bronze", bronzeLocation, streaming);
      JobID silver = lake.submit(cluster, "silver", silverLocation, streaming);
      cluster.awaitAllTasksRunning(bronze, Duration.ofMinutes(1));
      cluster.awaitAllTasksRunning(silver, Duration.ofMinutes(1));
      long produced = input.produce(0);
      LakeOnS3.awaitCheckpointsWithRows(cluster, bronze, silver);
      assertThat(bronzeLocation.committedOffset(OrdersTopic.SOURCE, LakeOnS3.BRONZE_SINKS))
          .as("the crash lands while bronze still reads")
          .isLessThan(produced);
      assertThat(silverLocation.committedOffset(OrdersTopic.SOURCE, LakeOnS3.SILVER_SINKS))
          .as("the crash lands while silver still reads")
          .isLessThan(produced);
      killEveryProcess(cluster);
    }

    try (FlinkCluster cluster = cluster("second")) {
      JobID bronze = lake.submit(cluster, "bronze", bronzeLocation, streaming);
      JobID silver = lake.submit(cluster, "silver", silverLocation, streaming);
      cluster.awaitAllTasksRunning(bronze, Duration.ofMinutes(1));
      cluster.awaitAllTasksRunning(silver, Duration.ofMinutes(1));
      assertThat(cluster.restoredSnapshot(bronze)).as("bronze resumed").isPresent();
      assertThat(cluster.restoredSnapshot(silver)).as("silver resumed").isPresent();
      input.produce(1);
      lake.awaitCaughtUp(bronzeLocation, LakeOnS3.BRONZE_SINKS);
      lake.awaitCaughtUp(silverLocation, LakeOnS3.SILVER_SINKS);
      LakeOnS3.stop(cluster, bronze, bronzeLocation);
      LakeOnS3.stop(cluster, silver, silverLocation);
    }

    LakehouseInput.Models models = input.models();
    assertThat(lake.rows("orders_bronze").stream().map(Arrays::toString).toList())
        .containsExactlyInAnyOrderElementsOf(models.bronze());
    assertThat(lake.bronzeDeadLetters())
        .containsExactlyInAnyOrderElementsOf(models.bronzeDeadLetters());
    assertThat(OrderEvents.silver(lake.table(OrdersSilver.SILVER_TABLE)))
        .isEqualTo(models.silver());
    assertThat(OrderEvents.quarantine(lake.table(OrdersSilver.QUARANTINE_TABLE)))
        .containsExactlyElementsOf(models.quarantine());
    for (String name :
        List.of("orders_bronze", OrdersSilver.SILVER_TABLE, OrdersSilver.QUARANTINE_TABLE)) {
      DeltaLogTxns log = DeltaLogTxns.read(S3.server(), lake.key(name)).assertEachEpochOnce();
      assertThat(log.appIds()).as("one query wrote %s, across both clusters", name).hasSize(1);
    }
    assertSecretKeyNowhere();
  }

  /** A JobManager and one TaskManager of four slots, using S3 with {@link #SECRET_KEY}. */
  private static FlinkCluster cluster(String name) {
    Map<String, String> hadoop = S3aSettings.withS3Scheme(S3.server());
    hadoop.put("fs.s3a.secret.key", SECRET_KEY);
    return FlinkCluster.builder()
        .taskManagers(1)
        .slotsPerTaskManager(4)
        .taskManagerMemory("2048m")
        .directory(DIR.resolve(name))
        .configuration(S3.flinkConfiguration())
        .configuration("s3.secret-key", SECRET_KEY)
        .hadoopConfiguration(hadoop)
        .start();
  }

  /** SIGKILL to the JobManager and every TaskManager at once; returns when all are gone. */
  private static void killEveryProcess(FlinkCluster cluster) throws Exception {
    List<ProcessHandle> processes = new ArrayList<>();
    processes.add(cluster.jobManagerProcess());
    for (int i = 0; i < cluster.taskManagersStarted(); i++) {
      processes.add(cluster.taskManagerProcess(i));
    }
    processes.forEach(ProcessHandle::destroyForcibly);
    for (ProcessHandle process : processes) {
      process.onExit().get(30, TimeUnit.SECONDS);
    }
  }

  /**
   * No file of the clusters but their configuration files (which must hold it: else the scan proves
   * nothing), and no object in the bucket, holds the secret key.
   */
  private static void assertSecretKeyNowhere() throws Exception {
    List<String> holders = new ArrayList<>();
    int configurations = 0;
    try (Stream<Path> files = Files.walk(DIR)) {
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        boolean configuration = CONFIGURATION_FILES.contains(file.getFileName().toString());
        if (contains(Files.readAllBytes(file))) {
          if (configuration) {
            configurations++;
          } else {
            holders.add(file.toString());
          }
        }
      }
    }
    for (String key : S3.server().keys("")) {
      if (contains(S3.server().read(key))) {
        holders.add("s3://" + S3.server().bucket() + "/" + key);
      }
    }
    assertThat(configurations).as("configuration files with the secret key").isPositive();
    assertThat(holders).as("files and objects with the S3 secret key").isEmpty();
  }

  private static boolean contains(byte[] bytes) {
    return new String(bytes, StandardCharsets.ISO_8859_1).contains(SECRET_KEY);
  }
}
