package io.lakestream.pipelines.demo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.pipelines.ApplicationJar;
import io.lakestream.pipelines.autoloader.OrdersBronzeFromFiles;
import io.lakestream.testkit.TempDirectory;
import io.lakestream.testkit.delta.DeltaLogTxns;
import io.lakestream.testkit.flink.FlinkCluster;
import io.lakestream.testkit.flink.FlinkClusterExtension;
import io.lakestream.testkit.flink.FlinkCommand;
import io.lakestream.testkit.query.S3CheckpointLocation;
import io.lakestream.testkit.s3.S3ServerExtension;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The demo on a real standalone cluster (a JobManager and two TaskManager JVMs of one slot each),
 * submitted with {@code flink run -d lakestream.jar} and controlled with Flink's CLI only. Its
 * checkpoint location is on an S3 server (through the cluster's flink-s3-fs-hadoop plugin in every
 * process), its tables are local. The client returns as soon as the job is submitted; the runner
 * inside the job writes the progress of every epoch and ends an availableNow run by itself.
 *
 * <p>First, a TaskManager is killed with SIGKILL while rows flow, a new one takes its place and the
 * job recovers; {@code flink stop --savepointPath} ends it. The orders table then holds every
 * generated order exactly as often as the generator produced it, the dead letters every malformed
 * record once, the Delta log each epoch once, and {@code progress/} every committed epoch. Then an
 * availableNow run submitted detached stops by itself with a savepoint, and the next detached
 * submission resumes after it.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FlinkClusterIT {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final long ROWS = 6_000;
  static final long ROWS_PER_SECOND = 200;
  private static final long UPGRADE_ROWS = 12_000;
  private static final Duration LEASE_RELEASE = Duration.ofSeconds(30);
  private static final Path CLUSTER_DIR = Path.of("target/flink-cluster-it").toAbsolutePath();

  @RegisterExtension
  @Order(1)
  static final S3ServerExtension S3 = new S3ServerExtension("flink-cluster-it");

  @RegisterExtension
  @Order(2)
  static final FlinkClusterExtension FLINK =
      new FlinkClusterExtension(
          () -> {
            TempDirectory.deleteRecursively(CLUSTER_DIR); // logs of the last run only
            return FlinkCluster.builder()
                .taskManagers(2)
                .directory(CLUSTER_DIR)
                .configuration(S3.flinkConfiguration());
          });

  @TempDir Path output;

  @Test
  @Order(1)
  void theDemoRecoversFromAKilledTaskManagerAndStopsWithEveryRowOnce() throws Exception {
    FlinkCluster cluster = FLINK.cluster();
    String checkpoint = S3.uri("queries/demo").toString();
    Expected expected = expected(ROWS);
    long t0 = System.nanoTime();

    FlinkCommand run =
        cluster.startFlink(
            "run",
            "-d",
            ApplicationJar.path(),
            "run",
            "demo",
            "--trigger",
            "processingTime=2s",
            "--rows",
            Long.toString(ROWS),
            "--rows-per-second",
            Long.toString(ROWS_PER_SECOND),
            "--output",
            output.toString(),
            "--checkpoint",
            checkpoint);
    JobID job = run.awaitJobId(Duration.ofMinutes(2));
    assertThat(run.awaitExit(Duration.ofMinutes(1)).exitCode())
        .as("flink run -d returns once the job is submitted: %s", run.logFile())
        .isZero();
    assertThat(run.output()).contains("submitted detached");
    cluster.awaitCompletedCheckpoints(job, 2, Duration.ofMinutes(1));
    long checkpointed = elapsed(t0);

    assertThat(committedOrders())
        .as("the kill lands while the generator still produces")
        .isLessThan(expected.orders.size());
    long checkpointsBeforeKill = cluster.completedCheckpoints(job);
    cluster.killTaskManager(0);
    cluster.startTaskManager();
    cluster.awaitJobFailure(job, Duration.ofMinutes(1));
    cluster.awaitAllTasksRunning(job, Duration.ofMinutes(1));
    cluster.awaitCompletedCheckpoints(job, checkpointsBeforeKill + 2, Duration.ofMinutes(1));
    long recovered = elapsed(t0);
    assertThat(cluster.flink("list", "-r").requireSuccess().output()).contains(job.toString());

    awaitOrders(expected.orders.size(), Duration.ofMinutes(2));
    FlinkCommand.Result stop =
        cluster
            .flink("stop", "--savepointPath", checkpoint + "/savepoints", job.toString())
            .requireSuccess();
    assertThat(stop.output()).contains("Savepoint completed");
    cluster.awaitJobStatus(job, JobStatus.FINISHED, Duration.ofMinutes(1));
    long stopped = elapsed(t0);

    assertThat(orders()).containsExactlyInAnyOrderElementsOf(expected.orders);
    assertThat(deadLetterRaws()).containsExactlyInAnyOrderElementsOf(expected.deadLetters);
    DeltaLogTxns log = DeltaLogTxns.read(output.resolve("orders")).assertEachEpochOnce();
    assertThat(log.appIds()).hasSize(1);
    assertThat(log.epochsOf(log.appIds().get(0))).doesNotHaveDuplicates().hasSizeGreaterThan(3);
    assertThat(S3.server().keys("queries/demo/savepoints/")).isNotEmpty();
    S3CheckpointLocation location = S3CheckpointLocation.of(S3.server(), "queries/demo");
    location.awaitLeaseReleased(LEASE_RELEASE);
    assertThat(location.epochs("progress"))
        .as("with no client attached, the runner in the job reports every committed epoch")
        .containsAll(location.epochs("commits"))
        .hasSizeGreaterThan(3);
    System.out.printf(
        "FlinkClusterIT timings from submit: 2 checkpoints %d ms, recovered %d ms, stopped %d ms;"
            + " failures %s%n",
        checkpointed, recovered, stopped, cluster.jobFailures(job));
  }

  @Test
  @Order(2)
  void anAvailableNowRunSubmittedDetachedStopsByItselfAndTheNextOneResumes() throws Exception {
    FlinkCluster cluster = FLINK.cluster();
    S3CheckpointLocation location =
        S3CheckpointLocation.of(S3.server(), "queries/demo-available-now");
    String checkpoint = location.uri().toString();
    Path table = output.resolve("available-now");

    JobID first = submitAvailableNow(cluster, checkpoint, table, ROWS / 2);
    cluster.awaitJobStatus(first, JobStatus.FINISHED, Duration.ofMinutes(2));
    location.awaitLeaseReleased(LEASE_RELEASE);
    List<String> savepoints = S3.server().keys("queries/demo-available-now/savepoints/");
    assertThat(savepoints).as("the job stopped itself with a savepoint").isNotEmpty();
    assertThat(ordersOf(table)).containsExactlyInAnyOrderElementsOf(expected(ROWS / 2).orders);

    JobID second = submitAvailableNow(cluster, checkpoint, table, ROWS);
    cluster.awaitJobStatus(second, JobStatus.FINISHED, Duration.ofMinutes(2));
    location.awaitLeaseReleased(LEASE_RELEASE);
    assertThat(ordersOf(table))
        .as("the second run read only the rows after the first one's savepoint")
        .containsExactlyInAnyOrderElementsOf(expected(ROWS).orders);
    DeltaLogTxns log = DeltaLogTxns.read(table.resolve("orders")).assertEachEpochOnce();
    assertThat(log.appIds()).hasSize(1);
    assertThat(location.epochs("progress")).containsAll(location.epochs("commits"));
  }

  @Test
  @Order(3)
  void anUpgradeRefusesAnIncompatibleProgramAndSwapsAnAllowedOneWithNoRowLostOrDoubled()
      throws Exception {
    FlinkCluster cluster = FLINK.cluster();
    String checkpoint = S3.uri("queries/demo-upgrade").toString();
    Path lake = output.resolve("upgrade");
    List<String> options =
        List.of(
            "demo",
            "--trigger",
            "processingTime=2s",
            "--rows",
            Long.toString(UPGRADE_ROWS),
            "--rows-per-second",
            Long.toString(ROWS_PER_SECOND),
            "--output",
            lake.toString(),
            "--checkpoint",
            checkpoint);
    FlinkCommand run = cluster.startFlink(flinkRun("run", options));
    JobID old = run.awaitJobId(Duration.ofMinutes(2));
    run.awaitExit(Duration.ofMinutes(1)).requireSuccess();
    cluster.awaitCompletedCheckpoints(old, 2, Duration.ofMinutes(1));

    FlinkCommand.Result refused =
        cluster
            .startFlink(flinkRun("upgrade", options, "--state-backend", "hashmap"))
            .awaitExit(Duration.ofMinutes(2));
    assertThat(refused.exitCode()).as(refused.output()).isNotZero();
    assertThat(refused.output()).contains("state backend").doesNotContain("stopped with savepoint");
    long checkpointsAfterRefusal = cluster.completedCheckpoints(old);
    cluster.awaitCompletedCheckpoints(old, checkpointsAfterRefusal + 2, Duration.ofMinutes(1));
    assertThat(cluster.jobStatus(old))
        .as("the refused upgrade left the old job running")
        .isEqualTo(JobStatus.RUNNING);
    awaitOrders(lake, committedOrdersOf(lake) + 1, Duration.ofMinutes(1)); // and still commits

    FlinkCommand upgrade =
        cluster.startFlink(flinkRun("upgrade", options, "--max-rows-per-trigger", "300"));
    JobID upgraded = upgrade.awaitJobId(Duration.ofMinutes(3));
    FlinkCommand.Result done = upgrade.awaitExit(Duration.ofMinutes(3)).requireSuccess();
    assertThat(done.output()).contains("runs the new program");
    assertThat(cluster.jobStatus(old)).isEqualTo(JobStatus.FINISHED);
    assertThat(upgraded).isNotEqualTo(old);

    Expected expected = expected(UPGRADE_ROWS);
    awaitOrders(lake, expected.orders.size(), Duration.ofMinutes(2));
    cluster
        .flink("stop", "--savepointPath", checkpoint + "/savepoints", upgraded.toString())
        .requireSuccess();
    cluster.awaitJobStatus(upgraded, JobStatus.FINISHED, Duration.ofMinutes(1));
    assertThat(ordersOf(lake)).containsExactlyInAnyOrderElementsOf(expected.orders);
    DeltaLogTxns log = DeltaLogTxns.read(lake.resolve("orders")).assertEachEpochOnce();
    assertThat(log.appIds()).as("the upgraded program is the same query").hasSize(1);
  }

  @Test
  @Order(4)
  void anAutoLoaderQueryRestartsByItselfWhenANewColumnArrivesAndTheTableGainsIt() throws Exception {
    FlinkCommand run = schemaChangeRun(false, "bronze-files");
    Path table = output.resolve("files-lake").resolve(OrdersBronzeFromFiles.TABLE);
    JobID restarted = awaitRestartedWithTheNewColumn(run.awaitJobId(Duration.ofMinutes(2)), table);
    stopAndCheckTheNewColumn(restarted, "bronze-files", table);
    assertThat(run.awaitExit(Duration.ofMinutes(1)).exitCode())
        .as(run.logFile().toString())
        .isZero();
    assertThat(Files.readString(run.logFile())).contains("input schema changed (columns [amount])");
  }

  /**
   * The same under {@code flink run -d}: no client is left, so the JobManager runs the program
   * again through Flink's jar submission, and the new program records the restart.
   */
  @Test
  @Order(5)
  void aDetachedAutoLoaderQueryIsRunAgainByTheJobManagerWhenANewColumnArrives() throws Exception {
    FlinkCluster cluster = FLINK.cluster();
    FlinkCommand run = schemaChangeRun(true, "bronze-files-detached");
    JobID first = run.awaitJobId(Duration.ofMinutes(2));
    assertThat(run.awaitExit(Duration.ofMinutes(1)).exitCode()).as("%s", run.logFile()).isZero();
    Path table = output.resolve("files-lake").resolve(OrdersBronzeFromFiles.TABLE);
    JobID restarted = awaitRestartedWithTheNewColumn(first, table);
    assertThat(Files.readString(cluster.logDirectory().resolve("jobmanager.log")))
        .as("the JobManager ran the program again, which submitted the rebuilt query")
        .contains("restarted after the schema change of columns [amount] as job " + restarted)
        .doesNotContain("could not run it again");
    stopAndCheckTheNewColumn(restarted, "bronze-files-detached", table);
    assertThat(cluster.rest("/jars").path("files").size())
        .as("the jar uploaded for the restart is deleted")
        .isZero();
    String restarts =
        new String(
            S3.server().read("queries/bronze-files-detached/schema-restarts"),
            java.nio.charset.StandardCharsets.UTF_8);
    assertThat(restarts).as("the new program recorded the restart").contains("\"amount\"");
  }

  /** Auto Loader on 40 orders in 4 files, committing every 2 s, {@code -d} when detached. */
  private FlinkCommand schemaChangeRun(boolean detached, String query) throws IOException {
    Path landing = output.resolve("landing");
    for (int f = 0; f < 4; f++) {
      writeOrders(landing.resolve("date=2026-11-01/part-" + f + ".json"), f * 10L, false);
    }
    List<String> args = new ArrayList<>(List.of("run"));
    if (detached) {
      args.add("-d");
    }
    args.add(ApplicationJar.path());
    args.addAll(
        bronzeFilesRun(
            query, landing, output.resolve("files-lake"), S3.uri("queries/" + query).toString()));
    return FLINK.cluster().startFlink(args.toArray(String[]::new));
  }

  /** lakestream's arguments for Auto Loader on {@code landing}, committing every 2 s. */
  static List<String> bronzeFilesRun(String query, Path landing, Path lake, String checkpoint) {
    return List.of(
        "run",
        "bronze-files",
        "--query-name",
        query,
        "-o",
        "path=" + landing,
        "-o",
        "cloudFiles.inferColumnTypes=true",
        "--trigger",
        "processingTime=2s",
        "--output",
        lake.toString(),
        "--checkpoint",
        checkpoint);
  }

  /**
   * After the first 40 rows, a file with a new column and one without: the first job fails for the
   * schema change, another one (the rebuilt query) runs and the table reaches 60 rows.
   */
  private JobID awaitRestartedWithTheNewColumn(JobID first, Path table) throws IOException {
    FlinkCluster cluster = FLINK.cluster();
    Path landing = output.resolve("landing");
    awaitRows(table, 40, Duration.ofMinutes(2));
    writeOrders(landing.resolve("date=2026-11-02/part-4.json"), 40, true); // a new column
    writeOrders(landing.resolve("date=2026-11-02/part-5.json"), 50, false);
    awaitRows(table, 60, Duration.ofMinutes(3));
    cluster.awaitJobStatus(first, JobStatus.FAILED, Duration.ofMinutes(1));
    JobID restarted = onlyRunningJob(cluster);
    assertThat(restarted).as("the rebuilt query runs as a new job").isNotEqualTo(first);
    return restarted;
  }

  /** Stops {@code job} with a savepoint; the table has the column, every row once. */
  private void stopAndCheckTheNewColumn(JobID job, String query, Path table) throws IOException {
    FLINK
        .cluster()
        .flink(
            "stop",
            "--savepointPath",
            S3.uri("queries/" + query + "/savepoints").toString(),
            job.toString())
        .requireSuccess();
    assertTheNewColumn(table);
  }

  /** The table has gained the column, and holds the 60 orders once, 10 of them with amounts. */
  static void assertTheNewColumn(Path table) throws IOException {
    DeltaTableReader reader = new DeltaTableReader(DeltaTable.forPath(table.toUri().toString()));
    List<String> columns = reader.columnNames();
    assertThat(columns).contains("amount");
    List<String> rows = new ArrayList<>();
    for (Object[] r : reader.readLatest()) {
      Object amount = r[columns.indexOf("amount")];
      rows.add(r[columns.indexOf("order_id")] + (amount == null ? "" : "|" + amount));
    }
    List<String> expected = new ArrayList<>();
    for (long id = 0; id < 60; id++) {
      expected.add(id >= 40 && id < 50 ? id + "|" + id + ".5" : Long.toString(id));
    }
    assertThat(rows).as("no row lost or doubled").containsExactlyInAnyOrderElementsOf(expected);
    DeltaLogTxns.read(table).assertEachEpochOnce();
  }

  /** Ten JSON orders from {@code from}, with an {@code amount} field when {@code amount}. */
  static void writeOrders(Path file, long from, boolean amount) throws IOException {
    StringBuilder lines = new StringBuilder();
    for (long id = from; id < from + 10; id++) {
      lines
          .append("{\"order_id\":")
          .append(id)
          .append(",\"customer\":\"c-")
          .append(id % 7)
          .append('"')
          .append(amount ? ",\"amount\":" + id + ".5" : "")
          .append("}\n");
    }
    Files.createDirectories(file.getParent());
    Path hidden = file.resolveSibling("." + file.getFileName()); // whole files only
    Files.writeString(hidden, lines);
    Files.move(hidden, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
  }

  static void awaitRows(Path table, long rows, Duration timeout) throws IOException {
    long deadline = System.nanoTime() + timeout.toNanos();
    long now;
    while ((now = committedRows(table)) < rows) {
      assertThat(System.nanoTime())
          .as("%s reaches %d rows (has %d)", table, rows, now)
          .isLessThan(deadline);
      sleep(500);
    }
  }

  private static JobID onlyRunningJob(FlinkCluster cluster) {
    long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
    while (true) {
      List<JobID> running = new ArrayList<>();
      for (JsonNode job : cluster.rest("/jobs/overview").path("jobs")) {
        if ("RUNNING".equals(job.path("state").asText())) {
          running.add(JobID.fromHexString(job.path("jid").asText()));
        }
      }
      if (running.size() == 1) {
        return running.get(0);
      }
      assertThat(System.nanoTime()).as("one running job: %s", running).isLessThan(deadline);
      sleep(200);
    }
  }

  /** {@code flink run -d <jar> <command> <options> <extra>}. */
  private static String[] flinkRun(String command, List<String> options, String... extra) {
    List<String> args = new ArrayList<>(List.of("run", "-d", ApplicationJar.path(), command));
    args.addAll(options);
    args.addAll(Arrays.asList(extra));
    return args.toArray(String[]::new);
  }

  private JobID submitAvailableNow(FlinkCluster cluster, String checkpoint, Path table, long rows) {
    FlinkCommand run =
        cluster.startFlink(
            "run",
            "-d",
            ApplicationJar.path(),
            "run",
            "demo",
            "--trigger",
            "availableNow",
            "--max-rows-per-trigger",
            "1000",
            "--rows",
            Long.toString(rows),
            "--rows-per-second",
            Long.toString(ROWS_PER_SECOND),
            "--output",
            table.toString(),
            "--checkpoint",
            checkpoint);
    JobID job = run.awaitJobId(Duration.ofMinutes(2));
    assertThat(run.awaitExit(Duration.ofMinutes(1)).exitCode()).as("%s", run.logFile()).isZero();
    return job;
  }

  private void awaitOrders(long count, Duration timeout) throws IOException {
    awaitOrders(output, count, timeout);
  }

  private static void awaitOrders(Path lake, long count, Duration timeout) throws IOException {
    long deadline = System.nanoTime() + timeout.toNanos();
    long now;
    while ((now = committedOrdersOf(lake)) < count) {
      assertThat(System.nanoTime())
          .as("orders table reaches %d rows (has %d)", count, now)
          .isLessThan(deadline);
      sleep(500);
    }
  }

  /**
   * Rows the orders table's commits added, from the {@code numRecords} statistics in its Delta log
   * (cheap enough to poll; the final check reads the rows).
   */
  private long committedOrders() throws IOException {
    return committedOrdersOf(output);
  }

  static long committedOrdersOf(Path lake) throws IOException {
    return committedRows(lake.resolve("orders"));
  }

  private static long committedRows(Path table) throws IOException {
    Path log = table.resolve("_delta_log");
    if (!Files.isDirectory(log)) {
      return 0;
    }
    long rows = 0;
    try (Stream<Path> files = Files.list(log)) {
      for (Path commit : files.filter(p -> p.toString().matches(".*\\d{20}\\.json")).toList()) {
        for (String line : Files.readAllLines(commit)) {
          JsonNode add = MAPPER.readTree(line).path("add");
          if (!add.isMissingNode()) {
            rows += MAPPER.readTree(add.path("stats").asText("{}")).path("numRecords").asLong();
          }
        }
      }
    }
    return rows;
  }

  /** The orders table's rows, or none before its first commit. */
  private List<String> orders() throws IOException {
    return ordersOf(output);
  }

  static List<String> ordersOf(Path lake) throws IOException {
    if (!Files.isDirectory(lake.resolve("orders/_delta_log"))) {
      return List.of();
    }
    DeltaTableReader reader =
        new DeltaTableReader(DeltaTable.forPath(lake.resolve("orders").toUri().toString()));
    return reader.readLatest().stream().map(Arrays::toString).toList();
  }

  private List<String> deadLetterRaws() throws IOException {
    List<String> raws = new ArrayList<>();
    try (Stream<Path> files = Files.list(output.resolve("orders_dead_letters"))) {
      for (Path file : files.filter(p -> p.toString().endsWith(".jsonl")).toList()) {
        for (String line : Files.readAllLines(file)) {
          raws.add(MAPPER.readTree(line).get("raw").asText());
        }
      }
    }
    return raws;
  }

  /**
   * What the demo's generator produces for rows 0..rows-1, split as the demo's parser splits it.
   */
  /** What the demo's bronze table and dead letters hold after {@code rows} generated records. */
  static Expected expected(long rows) {
    DemoOrdersModel model = DemoOrdersModel.of(rows, ROWS_PER_SECOND);
    return new Expected(
        new ArrayList<>(model.bronzeRows()), new ArrayList<>(model.deadLetterRaws()));
  }

  record Expected(List<String> orders, List<String> deadLetters) {}

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
