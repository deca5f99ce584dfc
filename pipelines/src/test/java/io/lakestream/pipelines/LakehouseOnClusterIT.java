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
import io.lakestream.testkit.flink.FlinkClusterExtension;
import io.lakestream.testkit.kafka.KafkaBrokerExtension;
import io.lakestream.testkit.query.S3CheckpointLocation;
import io.lakestream.testkit.s3.S3ServerExtension;
import io.lakestream.testkit.s3.S3aSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The lakehouse on a real standalone cluster (a JobManager JVM and two TaskManager JVMs of four
 * slots each), every job submitted with {@code flink run -d lakestream.jar} at parallelism 4 and
 * controlled with Flink's CLI only; Kafka from the testkit, checkpoints and Delta tables on an S3
 * server (tables through S3A, from the cluster's {@code core-site.xml}).
 *
 * <p>Bronze and silver read the topic {@code orders} at once. While rows flow, a TaskManager
 * carrying tasks of both jobs is killed with SIGKILL, a new one takes its place, and both jobs
 * recover; then the rest of the input is produced, both catch up and stop with {@code flink stop
 * --savepointPath}; then gold (availableNow, detached) drains silver's change data feed and stops
 * itself with a savepoint. The input has several versions per order (some moving the order to the
 * next day), events resent by the producer, invalid and malformed records and late events.
 *
 * <p>In the end {@code orders_bronze} and its dead letters, {@code orders_silver}, {@code
 * orders_silver_quarantine} and {@code orders_gold_daily} equal their reference models row for row
 * (nothing lost, nothing twice), each Delta log holds every epoch of its one app id once, and each
 * query's {@code progress/} holds every committed epoch although no client stayed attached.
 */
class LakehouseOnClusterIT {
  private static final Path CLUSTER_DIR =
      Path.of("target/lakehouse-on-cluster-it").toAbsolutePath();
  private static final String TOPIC = "orders";
  private static final int PARTITIONS = 4;
  private static final int PARALLELISM = 4;
  private static final int ORDERS = 1200;
  private static final int MAX_OFFSETS_PER_TRIGGER = 250;

  /** Event times cross midnight, so gold has two days and some updates move an order's day. */
  private static final Instant START = Instant.parse("2026-03-01T23:40:00Z");

  @RegisterExtension
  @Order(1)
  static final S3ServerExtension S3 = new S3ServerExtension("lakehouse-on-cluster-it");

  @RegisterExtension
  @Order(2)
  static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

  @RegisterExtension
  @Order(3)
  static final FlinkClusterExtension FLINK =
      new FlinkClusterExtension(
          () -> {
            TempDirectory.deleteRecursively(CLUSTER_DIR); // logs of the last run only
            return FlinkCluster.builder()
                .taskManagers(2)
                .slotsPerTaskManager(4) // bronze and silver at parallelism 4 side by side
                .taskManagerMemory("2048m")
                .directory(CLUSTER_DIR)
                .configuration(S3.flinkConfiguration())
                // each job gets two slots on each TaskManager: the kill hits both
                .configuration("taskmanager.load-balance.mode", "SLOTS")
                .hadoopConfiguration(S3aSettings.withS3Scheme(S3.server()));
          });

  @Test
  void bronzeSilverAndGoldHoldEveryRecordOnceAfterATaskManagerIsKilledMidEpoch() throws Exception {
    FlinkCluster cluster = FLINK.cluster();
    KAFKA.createTopic(TOPIC, PARTITIONS);
    LakeOnS3 lake = new LakeOnS3(S3.server(), KAFKA.broker(), "lake", TOPIC, PARALLELISM);
    List<String> streaming = lake.streamingOptions(MAX_OFFSETS_PER_TRIGGER, "processingTime=2s");
    LakehouseInput input = input(new Random(17));
    S3CheckpointLocation bronzeLocation = lake.location("bronze");
    S3CheckpointLocation silverLocation = lake.location("silver");
    S3CheckpointLocation goldLocation = lake.location("gold");
    long t0 = System.nanoTime();

    JobID bronze = lake.submit(cluster, "bronze", bronzeLocation, streaming);
    JobID silver = lake.submit(cluster, "silver", silverLocation, streaming);
    cluster.awaitAllTasksRunning(bronze, Duration.ofMinutes(1));
    cluster.awaitAllTasksRunning(silver, Duration.ofMinutes(1));
    long submitted = elapsed(t0);

    long firstBatch = input.produce(0);
    LakeOnS3.awaitCheckpointsWithRows(cluster, bronze, silver);
    assertThat(bronzeLocation.committedOffset(OrdersTopic.SOURCE, LakeOnS3.BRONZE_SINKS))
        .as("the kill lands while bronze still reads the first batch")
        .isLessThan(firstBatch);
    assertThat(silverLocation.committedOffset(OrdersTopic.SOURCE, LakeOnS3.SILVER_SINKS))
        .as("the kill lands while silver still reads the first batch")
        .isLessThan(firstBatch);
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
    long recovered = elapsed(t0);

    input.produce(1); // the rest of the orders, resends, malformed records
    lake.awaitCaughtUp(bronzeLocation, LakeOnS3.BRONZE_SINKS);
    lake.awaitCaughtUp(silverLocation, LakeOnS3.SILVER_SINKS);
    input.produce(2); // late events, now that the watermark passed them
    lake.awaitCaughtUp(bronzeLocation, LakeOnS3.BRONZE_SINKS);
    lake.awaitCaughtUp(silverLocation, LakeOnS3.SILVER_SINKS);
    LakeOnS3.stop(cluster, bronze, bronzeLocation);
    LakeOnS3.stop(cluster, silver, silverLocation);
    long stopped = elapsed(t0);

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
    long goldDone = elapsed(t0);

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
      assertThat(log.appIds()).as("app ids in the log of %s", name).hasSize(1);
      assertThat(log.epochsOf(log.appIds().get(0))).as("epochs of %s", name).isNotEmpty();
    }
    for (S3CheckpointLocation location : List.of(bronzeLocation, silverLocation, goldLocation)) {
      assertThat(location.epochs("progress"))
          .as("%s: the runner in the job reports every committed epoch", location.key())
          .containsAll(location.epochs("commits"))
          .isNotEmpty();
    }
    System.out.printf(
        "LakehouseOnClusterIT timings from submit: running %d ms, recovered %d ms, bronze and silver"
            + " stopped %d ms, gold finished %d ms; rows: bronze %d (+%d dead letters), silver %d,"
            + " quarantine %d, gold %d; input %d records; failures (restarts) bronze %d, silver"
            + " %d%n",
        submitted,
        recovered,
        stopped,
        goldDone,
        bronzeRows.size(),
        models.bronzeDeadLetters().size(),
        silverRows.size(),
        quarantine.size(),
        goldRows.size(),
        input.produced(),
        cluster.jobFailures(bronze).size(),
        cluster.jobFailures(silver).size());
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
