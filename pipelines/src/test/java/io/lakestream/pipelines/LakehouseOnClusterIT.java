package io.lakestream.pipelines;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.pipelines.demo.OrdersTopic;
import io.lakestream.pipelines.gold.SilverOrders;
import io.lakestream.pipelines.silver.OrderEvents;
import io.lakestream.pipelines.silver.OrderEvents.Event;
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
import java.time.LocalDate;
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
import org.apache.flink.api.common.JobStatus;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The lakehouse on real standalone clusters (a JobManager JVM and two TaskManager JVMs of four
 * slots each), every job submitted with {@code flink run -d lakestream.jar} at parallelism 4 and
 * controlled with Flink's CLI only; Kafka from the testkit, checkpoints and Delta tables on an S3
 * server (tables through S3A, from the cluster's {@code core-site.xml}).
 *
 * <p>Bronze and silver read the topic {@code orders} at once, through two failures in turn:
 *
 * <ol>
 *   <li>while the first batch flows, a TaskManager carrying tasks of both jobs is killed with
 *       SIGKILL, a new one takes its place, and both jobs recover;
 *   <li>while the second batch flows, the whole cluster dies at once (its JobManager and
 *       TaskManager JVMs SIGKILLed mid-epoch, as when the host goes); the same {@code flink run -d}
 *       commands on a new cluster resume both queries from their S3 checkpoint locations (no fresh
 *       start, no lease left in the way).
 * </ol>
 *
 * Then late events are produced, both catch up and stop with {@code flink stop --savepointPath},
 * and gold (availableNow, detached) drains silver's change data feed and stops itself with a
 * savepoint. The input has several versions per order (some moving the order to the next day),
 * events resent by the producer, invalid and malformed records and late events.
 *
 * <p>In the end {@code orders_bronze} and its dead letters, {@code orders_silver}, {@code
 * orders_silver_quarantine} and {@code orders_gold_daily} equal their reference models row for row
 * (nothing lost, nothing twice), each Delta log holds every epoch of its one app id once (across
 * both clusters), and each query's {@code progress/} holds every committed epoch although no client
 * stayed attached. The clusters run with an S3 secret key of their own, a random value: it is in no
 * log line of any process, no output of {@code flink run}, and no object the queries wrote to the
 * bucket (tables, checkpoints and savepoints, offsets, commits, progress, leases, run records).
 */
class LakehouseOnClusterIT {
  private static final Path CLUSTER_DIR =
      Path.of("target/lakehouse-on-cluster-it").toAbsolutePath();
  private static final String TOPIC = "orders";
  private static final int PARTITIONS = 4;
  private static final int PARALLELISM = 4;
  private static final int ORDERS = 1200;
  private static final int MAX_OFFSETS_PER_TRIGGER = 250;
  private static final String SECRET_KEY = "S3-secret-" + UUID.randomUUID();

  /** The cluster configuration files hold the secret by design: they are what users write. */
  private static final Set<String> CONFIGURATION_FILES = Set.of("config.yaml", "core-site.xml");

  /** Event times cross midnight, so gold has two days and some updates move an order's day. */
  private static final Instant START = Instant.parse("2026-03-01T23:40:00Z");

  @RegisterExtension
  @Order(1)
  static final S3ServerExtension S3 = new S3ServerExtension("lakehouse-on-cluster-it");

  @RegisterExtension
  @Order(2)
  static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

  @Test
  void theLakehouseHoldsEveryRecordOnceAfterATaskManagerAndThenTheWholeClusterAreKilledMidEpoch()
      throws Exception {
    TempDirectory.deleteRecursively(CLUSTER_DIR); // logs of the last run only
    KAFKA.createTopic(TOPIC, PARTITIONS);
    LakeOnS3 lake = new LakeOnS3(S3.server(), KAFKA.broker(), "lake", TOPIC, PARALLELISM);
    List<String> streaming = lake.streamingOptions(MAX_OFFSETS_PER_TRIGGER, "processingTime=2s");
    LakehouseInput input = input(new Random(17));
    S3CheckpointLocation bronzeLocation = lake.location("bronze");
    S3CheckpointLocation silverLocation = lake.location("silver");
    S3CheckpointLocation goldLocation = lake.location("gold");
    long t0 = System.nanoTime();
    long recovered;
    long crashed;

    try (FlinkCluster cluster = cluster("first")) {
      JobID bronze = lake.submit(cluster, "bronze", bronzeLocation, streaming);
      JobID silver = lake.submit(cluster, "silver", silverLocation, streaming);
      cluster.awaitAllTasksRunning(bronze, Duration.ofMinutes(1));
      cluster.awaitAllTasksRunning(silver, Duration.ofMinutes(1));

      awaitMidRead(cluster, lake, input.produce(0), bronze, silver, "the TaskManager kill");
      long bronzeCheckpoints = cluster.completedCheckpoints(bronze);
      long silverCheckpoints = cluster.completedCheckpoints(silver);
      cluster.killTaskManager(0);
      cluster.startTaskManager();
      cluster.awaitJobFailure(bronze, Duration.ofMinutes(1));
      cluster.awaitJobFailure(silver, Duration.ofMinutes(1));
      cluster.awaitAllTasksRunning(bronze, Duration.ofMinutes(1));
      cluster.awaitAllTasksRunning(silver, Duration.ofMinutes(1));
      cluster.awaitCompletedCheckpoints(bronze, bronzeCheckpoints + 2, Duration.ofMinutes(1));
      cluster.awaitCompletedCheckpoints(silver, silverCheckpoints + 2, Duration.ofMinutes(1));
      recovered = elapsed(t0);

      // the rest of the orders, resends, malformed records
      awaitMidRead(cluster, lake, input.produce(1), bronze, silver, "the cluster crash");
      killEveryProcess(cluster);
      crashed = elapsed(t0);
    }
    unreportedAtTheCrash(bronzeLocation);
    unreportedAtTheCrash(silverLocation);

    try (FlinkCluster cluster = cluster("second")) {
      JobID bronze = lake.submit(cluster, "bronze", bronzeLocation, streaming);
      JobID silver = lake.submit(cluster, "silver", silverLocation, streaming);
      cluster.awaitAllTasksRunning(bronze, Duration.ofMinutes(1));
      cluster.awaitAllTasksRunning(silver, Duration.ofMinutes(1));
      assertThat(cluster.restoredSnapshot(bronze)).as("bronze resumed").isPresent();
      assertThat(cluster.restoredSnapshot(silver)).as("silver resumed").isPresent();
      lake.awaitCaughtUp(bronzeLocation, LakeOnS3.BRONZE_SINKS);
      lake.awaitCaughtUp(silverLocation, LakeOnS3.SILVER_SINKS);
      input.produce(2); // late events, now that the watermark passed them
      lake.awaitCaughtUp(bronzeLocation, LakeOnS3.BRONZE_SINKS);
      lake.awaitCaughtUp(silverLocation, LakeOnS3.SILVER_SINKS);
      LakeOnS3.stop(cluster, bronze, bronzeLocation);
      LakeOnS3.stop(cluster, silver, silverLocation);

      // every change of silver's feed (startingVersion 0) rather than its snapshot, a few epochs
      JobID gold =
          lake.submit(
              cluster,
              "gold",
              goldLocation,
              List.of("-o", "startingVersion=0", "-o", "maxFilesPerTrigger=20"));
      cluster.awaitJobStatus(gold, JobStatus.FINISHED, Duration.ofMinutes(2));
      goldLocation.awaitLeaseReleased(LakeOnS3.LEASE_RELEASE);
      assertThat(S3.server().keys(goldLocation.key() + "/savepoints/"))
          .as("the availableNow gold job stopped itself with a savepoint")
          .isNotEmpty();
    }
    long done = elapsed(t0);

    LakehouseInput.Models models = input.models();
    List<String> bronzeRows = lake.rows("orders_bronze").stream().map(Arrays::toString).toList();
    assertThat(bronzeRows).containsExactlyInAnyOrderElementsOf(models.bronze());
    assertThat(lake.bronzeDeadLetters())
        .containsExactlyInAnyOrderElementsOf(models.bronzeDeadLetters());
    Map<String, List<Object>> silverRows =
        OrderEvents.silver(lake.table(OrdersSilver.SILVER_TABLE));
    assertThat(silverRows).isEqualTo(models.silver());
    List<List<Object>> quarantine =
        OrderEvents.quarantine(lake.table(OrdersSilver.QUARANTINE_TABLE));
    assertThat(quarantine).containsExactlyElementsOf(models.quarantine());
    Map<LocalDate, String> goldRows = SilverOrders.gold(lake.table("orders_gold_daily"));
    assertThat(goldRows).isEqualTo(models.gold()).hasSize(2);

    for (String name :
        List.of(
            "orders_bronze",
            OrdersSilver.SILVER_TABLE,
            OrdersSilver.QUARANTINE_TABLE,
            "orders_gold_daily")) {
      DeltaLogTxns log = DeltaLogTxns.read(S3.server(), lake.key(name)).assertEachEpochOnce();
      assertThat(log.appIds()).as("app ids in the log of %s (both clusters)", name).hasSize(1);
      assertThat(log.epochsOf(log.appIds().get(0))).as("epochs of %s", name).isNotEmpty();
    }
    for (S3CheckpointLocation location : List.of(bronzeLocation, silverLocation, goldLocation)) {
      assertThat(location.epochs("progress"))
          .as(
              "%s: the runner in the job reports every committed epoch (those committed without a"
                  + " report at the crash, or by the restore, in the next run)",
              location.key())
          .containsAll(location.epochs("commits"))
          .isNotEmpty();
    }
    assertSecretKeyNowhere();
    System.out.printf(
        "LakehouseOnClusterIT timings from the first submit: recovered %d ms, cluster crashed %d"
            + " ms, all done on the second cluster %d ms; rows: bronze %d (+%d dead letters),"
            + " silver %d, quarantine %d, gold %d; input %d records%n",
        recovered,
        crashed,
        done,
        bronzeRows.size(),
        models.bronzeDeadLetters().size(),
        silverRows.size(),
        quarantine.size(),
        goldRows.size(),
        input.produced());
  }

  /**
   * Waits for two more checkpoints of each job and checks that neither has committed all {@code
   * produced} records yet, so the failure that follows lands while both still read.
   */
  private static void awaitMidRead(
      FlinkCluster cluster, LakeOnS3 lake, long produced, JobID bronze, JobID silver, String what) {
    LakeOnS3.awaitCheckpointsWithRows(cluster, bronze, silver);
    S3CheckpointLocation bronzeLocation = lake.location("bronze");
    S3CheckpointLocation silverLocation = lake.location("silver");
    assertThat(bronzeLocation.committedOffset(OrdersTopic.SOURCE, LakeOnS3.BRONZE_SINKS))
        .as("%s lands while bronze still reads", what)
        .isLessThan(produced);
    assertThat(silverLocation.committedOffset(OrdersTopic.SOURCE, LakeOnS3.SILVER_SINKS))
        .as("%s lands while silver still reads", what)
        .isLessThan(produced);
  }

  /**
   * Checks the epochs committed but not reported when the whole cluster died: the runner in the job
   * writes an epoch's {@code progress/N} after its commit, so a crash in between loses that report
   * (as a crash loses Spark's listener events), but only for the last epochs before the crash; the
   * next run reports them.
   */
  private static void unreportedAtTheCrash(S3CheckpointLocation location) {
    List<Long> committed = location.epochs("commits");
    List<Long> unreported = new ArrayList<>(committed);
    unreported.removeAll(location.epochs("progress"));
    System.out.printf(
        "%s: committed but unreported at the crash: %s%n", location.key(), unreported);
    assertThat(unreported)
        .as("%s: epochs committed without progress at the crash (of %s)", location.key(), committed)
        .isSubsetOf(committed.subList(Math.max(0, committed.size() - 2), committed.size()));
  }

  /**
   * Two TaskManagers of four slots (bronze and silver at parallelism 4 side by side; each job gets
   * two slots on each TaskManager, so a TaskManager kill hits both), S3 with {@link #SECRET_KEY}.
   */
  private static FlinkCluster cluster(String name) {
    Map<String, String> hadoop = S3aSettings.withS3Scheme(S3.server());
    hadoop.put("fs.s3a.secret.key", SECRET_KEY);
    return FlinkCluster.builder()
        .taskManagers(2)
        .slotsPerTaskManager(4)
        .taskManagerMemory("2048m")
        .directory(CLUSTER_DIR.resolve(name))
        .configuration(S3.flinkConfiguration())
        .configuration("s3.secret-key", SECRET_KEY)
        .configuration("taskmanager.load-balance.mode", "SLOTS")
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
    try (Stream<Path> files = Files.walk(CLUSTER_DIR)) {
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        if (contains(Files.readAllBytes(file))) {
          if (CONFIGURATION_FILES.contains(file.getFileName().toString())) {
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

  private static long elapsed(long t0) {
    return Duration.ofNanos(System.nanoTime() - t0).toMillis();
  }

  /**
   * The input in three batches: (0) two thirds of the order versions with resends of some of them
   * and malformed records, produced before the kill; (1) the rest of the versions with resends of
   * any version and malformed records, produced after the recovery; (2) late events and malformed
   * records, produced once both queries caught up (so the watermark has passed the late events on
   * every partition).
   */
  private static LakehouseInput input(Random random) {
    LakehouseInput input = new LakehouseInput(KAFKA.bootstrapServers(), TOPIC, PARTITIONS);
    List<Event> all = OrderEvents.versions(ORDERS, START);
    input.addBeforeAndAfter(all, all.size() * 2 / 3 / 10, 300, random);
    input.add(OrderEvents.late(8), List.of(), OrderEvents.malformed("c"), random);
    return input;
  }
}
