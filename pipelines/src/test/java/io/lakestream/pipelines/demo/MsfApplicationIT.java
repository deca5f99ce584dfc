package io.lakestream.pipelines.demo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakestream.pipelines.ApplicationJar;
import io.lakestream.pipelines.msf.MsfApplication;
import io.lakestream.runtime.ManagedService;
import io.lakestream.testkit.TempDirectory;
import io.lakestream.testkit.delta.DeltaLogTxns;
import io.lakestream.testkit.flink.FlinkCluster;
import io.lakestream.testkit.query.S3CheckpointLocation;
import io.lakestream.testkit.s3.S3ServerExtension;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The demo as Managed Service for Apache Flink runs it, emulated with real processes: each run is
 * an application cluster (Flink's {@code StandaloneApplicationClusterEntryPoint} running {@link
 * MsfApplication} from lakestream.jar, plus a TaskManager) whose only input is a runtime properties
 * file with property groups; checkpointing is imposed by the "service" (the cluster's
 * configuration: interval 2 s, checkpoints under {@code service/checkpoints} on the S3 server).
 *
 * <p>The service restores as MSF does: it stops the job with a savepoint through the REST API into
 * its own {@code service/snapshots}, then starts a new application cluster with {@code
 * execution.savepoint.path} pointing at it; the third run also changes a property (a rate limit),
 * as an application update does. In the end the orders table holds every generated order exactly as
 * often as the generator made it, the Delta log has every epoch once under one app id, {@code
 * progress/N} exists for every committed epoch in the query's checkpoint location, and neither
 * Flink checkpoints nor savepoints were written there.
 */
class MsfApplicationIT {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  /**
   * 30 s of input at 200 rows/s: the second run must still be mid-stream when it stops, and under
   * load its tasks took 12 s to start and its first checkpoint 4 s more (4,000 rows ran out then).
   */
  private static final long ROWS = 6_000;

  private static final Path CLUSTER_DIR = Path.of("target/msf-application-it").toAbsolutePath();

  @RegisterExtension static final S3ServerExtension S3 = new S3ServerExtension("msf-it");

  @TempDir Path work;

  @Test
  void theServiceRestoresItsOwnSnapshotsTwiceAndEveryOrderLandsOnce() throws Exception {
    TempDirectory.deleteRecursively(CLUSTER_DIR); // logs of the last run only
    Path lake = work.resolve("lake");
    Path properties = work.resolve("application_properties.json");
    String snapshots = S3.uri("service/snapshots").toString();
    Map<String, String> query = new LinkedHashMap<>();
    query.put("pipeline", "demo");
    query.put("output", lake.toString());
    query.put("checkpoint", S3.uri("queries/demo").toString());
    query.put("rows", Long.toString(ROWS));
    query.put("rows-per-second", Long.toString(FlinkClusterIT.ROWS_PER_SECOND));
    writeProperties(properties, query);
    FlinkClusterIT.Expected expected = FlinkClusterIT.expected(ROWS);
    long t0 = System.nanoTime();

    String first;
    try (FlinkCluster service = service("run-1", properties, null)) {
      JobID job = service.awaitJob(Duration.ofMinutes(2));
      service.awaitCompletedCheckpoints(job, 2, Duration.ofMinutes(1));
      awaitOrders(lake, 500, Duration.ofMinutes(1));
      first = service.stopWithSavepoint(job, snapshots, Duration.ofMinutes(1));
      awaitRunEnded(service, job);
    }
    long firstRun = elapsed(t0);
    long afterFirst = FlinkClusterIT.committedOrdersOf(lake);
    assertThat(afterFirst)
        .as("the first run stops mid-stream")
        .isLessThan(expected.orders().size());
    assertThat(first).startsWith(snapshots);

    String second;
    try (FlinkCluster service = service("run-2", properties, first)) {
      JobID job = service.awaitJob(Duration.ofMinutes(2));
      service.awaitAllTasksRunning(job, Duration.ofMinutes(1));
      assertThat(service.restoredSnapshot(job)).as("the service's snapshot").contains(first);
      awaitOrders(lake, afterFirst + 500, Duration.ofMinutes(1));
      second = service.stopWithSavepoint(job, snapshots, Duration.ofMinutes(1));
      awaitRunEnded(service, job);
    }
    long secondRun = elapsed(t0);
    assertThat(FlinkClusterIT.committedOrdersOf(lake)).isLessThan(expected.orders().size());

    long lastEpochBeforeUpdate = epochs("progress").stream().max(Long::compare).get();
    query.put("max-rows-per-trigger", "300"); // the update: a rate limit
    writeProperties(properties, query);
    try (FlinkCluster service = service("run-3", properties, second)) {
      JobID job = service.awaitJob(Duration.ofMinutes(2));
      service.awaitAllTasksRunning(job, Duration.ofMinutes(1));
      assertThat(service.restoredSnapshot(job)).contains(second);
      awaitOrders(lake, expected.orders().size(), Duration.ofMinutes(2));
      service.stopWithSavepoint(job, snapshots, Duration.ofMinutes(1));
      awaitRunEnded(service, job);
    }

    assertThat(FlinkClusterIT.ordersOf(lake))
        .containsExactlyInAnyOrderElementsOf(expected.orders());
    DeltaLogTxns log = DeltaLogTxns.read(lake.resolve("orders")).assertEachEpochOnce();
    assertThat(log.appIds()).as("three runs, one query").hasSize(1);
    assertThat(epochs("progress"))
        .as("the runner in each job reports every committed epoch")
        .containsAll(epochs("commits"))
        .hasSizeGreaterThan(3);
    assertThat(inputRows(epochs("progress"), e -> e <= lastEpochBeforeUpdate))
        .as("before the update, 2 s epochs at 200 rows/s")
        .anyMatch(rows -> rows > 300);
    assertThat(inputRows(epochs("progress"), e -> e > lastEpochBeforeUpdate))
        .as("the updated property took effect")
        .isNotEmpty()
        .allMatch(rows -> rows <= 300);
    assertThat(S3.server().keys("queries/demo/state/"))
        .as("Flink's checkpoints are the service's")
        .isEmpty();
    assertThat(S3.server().keys("queries/demo/savepoints/")).isEmpty();
    assertThat(S3.server().keys("queries/demo/metadata")).isNotEmpty();
    assertThat(S3.server().keys("service/snapshots/")).isNotEmpty();
    System.out.printf(
        "MsfApplicationIT timings: first run %d ms, second %d ms, all %d ms%n",
        firstRun, secondRun, elapsed(t0));
  }

  /**
   * An application cluster as the service starts one: the runtime properties file, checkpointing to
   * the service's directory every 2 s, and the snapshot to restore, if any.
   */
  private static FlinkCluster service(String name, Path properties, String restore) {
    FlinkCluster.Builder builder =
        FlinkCluster.builder()
            .taskManagers(1)
            .slotsPerTaskManager(2)
            .directory(CLUSTER_DIR.resolve(name))
            .configuration(S3.flinkConfiguration())
            .configuration("execution.checkpointing.dir", S3.uri("service/checkpoints").toString())
            .configuration("execution.checkpointing.interval", "2 s")
            .configuration("parallelism.default", "2")
            // The job ends with the service's stop; keep the JobManager to read the savepoint.
            .configuration("execution.shutdown-on-application-finish", "false")
            .configuration(
                "env.java.opts.jobmanager",
                "-D" + ManagedService.PROPERTIES_PROPERTY + "=" + properties)
            .application(Path.of(ApplicationJar.path()), MsfApplication.class.getName());
    if (restore != null) {
      builder.configuration("execution.savepoint.path", restore);
    }
    return builder.start();
  }

  private static void writeProperties(Path file, Map<String, String> query) throws IOException {
    List<Map<String, Object>> groups =
        List.of(Map.of("PropertyGroupId", MsfApplication.QUERY_GROUP, "PropertyMap", query));
    Files.writeString(file, MAPPER.writeValueAsString(groups));
  }

  private static void awaitOrders(Path lake, long count, Duration timeout) throws IOException {
    long deadline = System.nanoTime() + timeout.toNanos();
    long now;
    while ((now = FlinkClusterIT.committedOrdersOf(lake)) < count) {
      assertThat(System.nanoTime())
          .as("orders table reaches %d rows (has %d)", count, now)
          .isLessThan(deadline);
      sleep(500);
    }
  }

  /** The query's checkpoint location on the S3 server. */
  private static S3CheckpointLocation location() {
    return S3CheckpointLocation.of(S3.server(), "queries/demo");
  }

  /**
   * Waits until the stopped job finished and its runner released the location's lease (its last
   * report is written), before the cluster is torn down. The runner closes with the JobMaster, a
   * moment after the job reports FINISHED; a JobManager stopped with SIGTERM in that moment exits
   * without closing it (on a loaded machine the window is a second or more).
   */
  private static void awaitRunEnded(FlinkCluster service, JobID job) {
    service.awaitJobStatus(job, JobStatus.FINISHED, Duration.ofMinutes(1));
    location().awaitLeaseReleased(Duration.ofSeconds(30));
  }

  private static List<Long> epochs(String directory) {
    return location().epochs(directory);
  }

  /** The input rows of the epochs that pass {@code filter}, from their {@code progress/N}. */
  private static List<Long> inputRows(List<Long> epochs, java.util.function.LongPredicate filter)
      throws IOException {
    List<Long> rows = new java.util.ArrayList<>();
    for (long epoch : epochs) {
      if (filter.test(epoch)) {
        byte[] report = S3.server().read("queries/demo/progress/" + epoch);
        rows.add(MAPPER.readTree(report).path("numInputRows").asLong());
      }
    }
    return rows;
  }

  private static long elapsed(long t0) {
    return Duration.ofNanos(System.nanoTime() - t0).toMillis();
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }
}
