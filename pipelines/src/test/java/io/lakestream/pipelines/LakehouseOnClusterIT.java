package io.lakestream.pipelines;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.operators.parse.RecordParseException;
import io.lakestream.pipelines.demo.OrderJson;
import io.lakestream.pipelines.demo.OrdersDemo;
import io.lakestream.pipelines.demo.OrdersTopic;
import io.lakestream.pipelines.gold.SilverOrders;
import io.lakestream.pipelines.silver.OrderEvents;
import io.lakestream.pipelines.silver.OrderEvents.Event;
import io.lakestream.pipelines.silver.OrdersSilver;
import io.lakestream.pipelines.silver.OrdersSilverTables;
import io.lakestream.testkit.TempDirectory;
import io.lakestream.testkit.delta.DeltaLogTxns;
import io.lakestream.testkit.flink.FlinkCluster;
import io.lakestream.testkit.flink.FlinkClusterExtension;
import io.lakestream.testkit.flink.FlinkCommand;
import io.lakestream.testkit.kafka.KafkaBrokerExtension;
import io.lakestream.testkit.query.S3CheckpointLocation;
import io.lakestream.testkit.s3.S3ServerExtension;
import io.lakestream.testkit.s3.S3aSettings;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
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
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final Path CLUSTER_DIR =
      Path.of("target/lakehouse-on-cluster-it").toAbsolutePath();
  private static final String TOPIC = "orders";
  private static final int PARTITIONS = 4;
  private static final int PARALLELISM = 4;
  private static final int ORDERS = 1200;
  private static final int MAX_OFFSETS_PER_TRIGGER = 250;

  /** Event times cross midnight, so gold has two days and some updates move an order's day. */
  private static final Instant START = Instant.parse("2026-03-01T23:40:00Z");

  private static final List<String> BRONZE_SINKS = List.of("bronze-sink", "bronze-dead-letters");
  private static final List<String> SILVER_SINKS = List.of("silver-merge");
  private static final Duration CAUGHT_UP = Duration.ofMinutes(2);
  private static final Duration LEASE_RELEASE = Duration.ofSeconds(30);

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
    Input input = Input.generate(new Random(17));
    S3CheckpointLocation bronzeLocation = location("bronze");
    S3CheckpointLocation silverLocation = location("silver");
    S3CheckpointLocation goldLocation = location("gold");
    long t0 = System.nanoTime();

    JobID bronze = submit(cluster, "bronze", bronzeLocation, streamingOptions());
    JobID silver = submit(cluster, "silver", silverLocation, streamingOptions());
    cluster.awaitAllTasksRunning(bronze, Duration.ofMinutes(1));
    cluster.awaitAllTasksRunning(silver, Duration.ofMinutes(1));
    long submitted = elapsed(t0);

    long firstBatch = input.produce(0);
    awaitCheckpointsWithRows(cluster, bronze, silver);
    assertThat(bronzeLocation.committedOffset(OrdersTopic.SOURCE, BRONZE_SINKS))
        .as("the kill lands while bronze still reads the first batch")
        .isLessThan(firstBatch);
    assertThat(silverLocation.committedOffset(OrdersTopic.SOURCE, SILVER_SINKS))
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
    awaitCaughtUp(bronzeLocation, BRONZE_SINKS);
    awaitCaughtUp(silverLocation, SILVER_SINKS);
    input.produce(2); // late events, now that the watermark passed them
    awaitCaughtUp(bronzeLocation, BRONZE_SINKS);
    awaitCaughtUp(silverLocation, SILVER_SINKS);
    stop(cluster, bronze, bronzeLocation);
    stop(cluster, silver, silverLocation);
    long stopped = elapsed(t0);

    // every change of silver's feed (startingVersion 0) rather than its snapshot, a few epochs
    JobID gold =
        submit(
            cluster,
            "gold",
            goldLocation,
            List.of("-o", "startingVersion=0", "-o", "maxFilesPerTrigger=20"));
    cluster.awaitJobStatus(gold, JobStatus.FINISHED, Duration.ofMinutes(2));
    goldLocation.awaitLeaseReleased(LEASE_RELEASE);
    assertThat(S3.server().keys(goldLocation.key() + "/savepoints/"))
        .as("the availableNow gold job stopped itself with a savepoint")
        .isNotEmpty();
    long goldDone = elapsed(t0);

    Models models = input.models();
    List<String> bronzeRows = rows("orders_bronze").stream().map(Arrays::toString).toList();
    assertThat(bronzeRows).containsExactlyInAnyOrderElementsOf(models.bronze);
    assertThat(bronzeDeadLetters()).containsExactlyInAnyOrderElementsOf(models.bronzeDeadLetters);
    Map<String, List<Object>> silverRows = OrderEvents.silver(table(OrdersSilver.SILVER_TABLE));
    assertThat(silverRows).isEqualTo(models.silver);
    List<List<Object>> quarantine = OrderEvents.quarantine(table(OrdersSilver.QUARANTINE_TABLE));
    assertThat(quarantine).containsExactlyElementsOf(models.quarantine);
    Map<LocalDate, String> goldRows = SilverOrders.gold(table("orders_gold_daily"));
    assertThat(goldRows).isEqualTo(models.gold).hasSize(2);

    for (String name :
        List.of(
            "orders_bronze",
            OrdersSilver.SILVER_TABLE,
            OrdersSilver.QUARANTINE_TABLE,
            "orders_gold_daily")) {
      DeltaLogTxns log = DeltaLogTxns.read(S3.server(), "lake/" + name).assertEachEpochOnce();
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
        models.bronzeDeadLetters.size(),
        silverRows.size(),
        quarantine.size(),
        goldRows.size(),
        input.produced.size(),
        cluster.jobFailures(bronze).size(),
        cluster.jobFailures(silver).size());
  }

  /** The options of the streaming pipelines: the broker, small epochs, a 2 s trigger. */
  private static List<String> streamingOptions() {
    return List.of(
        "-o",
        "kafka.bootstrap.servers=" + KAFKA.bootstrapServers(),
        "-o",
        "maxOffsetsPerTrigger=" + MAX_OFFSETS_PER_TRIGGER,
        "--trigger",
        "processingTime=2s");
  }

  /** {@code flink run -d lakestream.jar run <pipeline>}; returns once the job is submitted. */
  private static JobID submit(
      FlinkCluster cluster, String pipeline, S3CheckpointLocation location, List<String> options) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "run",
                "-d",
                ApplicationJar.path(),
                "run",
                pipeline,
                "--parallelism",
                Integer.toString(PARALLELISM),
                "--output",
                S3.uri("lake").toString(),
                "--checkpoint",
                location.uri().toString()));
    args.addAll(options);
    FlinkCommand run = cluster.startFlink(args.toArray(String[]::new));
    JobID job = run.awaitJobId(Duration.ofMinutes(2));
    assertThat(run.awaitExit(Duration.ofMinutes(1)).exitCode())
        .as("flink run -d %s returns once the job is submitted: %s", pipeline, run.logFile())
        .isZero();
    return job;
  }

  /** Waits for two more completed checkpoints of each job: rows of the first batch committed. */
  private static void awaitCheckpointsWithRows(FlinkCluster cluster, JobID... jobs) {
    List<Long> targets = new ArrayList<>();
    for (JobID job : jobs) {
      targets.add(cluster.completedCheckpoints(job) + 2);
    }
    for (int i = 0; i < jobs.length; i++) {
      cluster.awaitCompletedCheckpoints(jobs[i], targets.get(i), Duration.ofMinutes(1));
    }
  }

  /** Waits until every sink of the query committed all records the topic holds now. */
  private static void awaitCaughtUp(S3CheckpointLocation location, List<String> sinks) {
    long records = KAFKA.broker().endOffsets(TOPIC).values().stream().mapToLong(l -> l).sum();
    location.awaitCommittedOffset(OrdersTopic.SOURCE, sinks, records, CAUGHT_UP);
  }

  /** {@code flink stop --savepointPath <location>/savepoints <job>}, then FINISHED, lease free. */
  private static void stop(FlinkCluster cluster, JobID job, S3CheckpointLocation location) {
    FlinkCommand.Result stop =
        cluster
            .flink("stop", "--savepointPath", location.uri() + "/savepoints", job.toString())
            .requireSuccess();
    assertThat(stop.output()).contains("Savepoint completed");
    cluster.awaitJobStatus(job, JobStatus.FINISHED, Duration.ofMinutes(1));
    location.awaitLeaseReleased(LEASE_RELEASE);
  }

  private static S3CheckpointLocation location(String pipeline) {
    return S3CheckpointLocation.of(S3.server(), "lake/_checkpoints/" + pipeline);
  }

  private static DeltaTable table(String name) {
    return DeltaTable.forPath(
        S3.uri("lake/" + name).toString(), S3aSettings.withS3Scheme(S3.server()));
  }

  private static List<Object[]> rows(String name) {
    return new DeltaTableReader(table(name)).readLatest();
  }

  /** The raw values in the bronze dead-letter files ({@code part-*.jsonl}, committed only). */
  private static List<String> bronzeDeadLetters() throws Exception {
    String prefix = "lake/orders_bronze_dead_letters/";
    List<String> raws = new ArrayList<>();
    for (String key : S3.server().keys(prefix)) {
      String name = key.substring(prefix.length());
      if (name.contains("/") || !name.endsWith(".jsonl")) {
        continue;
      }
      for (String line : new String(S3.server().read(key), StandardCharsets.UTF_8).split("\n")) {
        if (!line.isBlank()) {
          raws.add(MAPPER.readTree(line).get("raw").asText());
        }
      }
    }
    return raws;
  }

  private static long elapsed(long t0) {
    return Duration.ofNanos(System.nanoTime() - t0).toMillis();
  }

  /**
   * The input in three batches, each shuffled: (0) two thirds of the order versions with resends of
   * some of them and malformed records, produced before the kill; (1) the rest of the versions with
   * resends of any version and malformed records, produced after the recovery; (2) late events and
   * malformed records, produced once both queries caught up (so the watermark has passed the late
   * events on every partition).
   */
  private static final class Input {
    private final List<Event> distinct = new ArrayList<>();
    private final List<List<String>> batches = new ArrayList<>();
    private final List<String> malformed = new ArrayList<>();
    private final List<String> produced = new ArrayList<>();
    private final Map<String, String> malformedByPosition = new LinkedHashMap<>();

    static Input generate(Random random) {
      List<Event> all = new ArrayList<>(OrderEvents.versions(ORDERS, START));
      Collections.shuffle(all, random); // versions of an order arrive out of order
      List<Event> first = all.subList(0, all.size() * 2 / 3);
      List<Event> late = OrderEvents.late(8);
      Input input = new Input();
      input.add(first, sample(first, first.size() / 10, random), "a", random);
      input.add(all.subList(first.size(), all.size()), sample(all, 300, random), "b", random);
      input.add(late, List.of(), "c", random);
      return input;
    }

    private void add(List<Event> events, List<Event> resends, String tag, Random random) {
      distinct.addAll(events);
      List<String> values = new ArrayList<>();
      events.forEach(e -> values.add(e.json()));
      resends.forEach(e -> values.add(e.json()));
      List<String> bad = OrderEvents.malformed(tag);
      values.addAll(bad);
      malformed.addAll(bad);
      Collections.shuffle(values, random);
      batches.add(values);
    }

    /** Produces batch {@code batch}; returns the records in the topic after it. */
    long produce(int batch) throws Exception {
      List<String> values = batches.get(batch);
      List<String> positions =
          OrderEvents.produce(KAFKA.bootstrapServers(), TOPIC, PARTITIONS, values);
      for (int i = 0; i < values.size(); i++) {
        if (malformed.contains(values.get(i))) {
          malformedByPosition.put(positions.get(i), values.get(i));
        }
      }
      produced.addAll(values);
      return produced.size();
    }

    /**
     * The tables the input must give. Bronze parses with every check: a record that fails one is a
     * dead letter each time it is produced (the parser runs before the deduplication), a late event
     * is dropped, and every other event is one row. Silver and its quarantine follow {@link
     * OrderEvents}' model; gold is the daily aggregate of silver.
     */
    Models models() {
      OrderJson strict = new OrderJson();
      Set<String> seen = new HashSet<>();
      List<String> bronze = new ArrayList<>();
      List<String> deadLetters = new ArrayList<>();
      for (String raw : produced) {
        try {
          var order = strict.parse(raw);
          boolean late = order.orderTsMillis < OrderEvents.T0.toEpochMilli();
          if (!late && seen.add(order.eventId)) {
            bronze.add(Arrays.toString(OrdersDemo.toDeltaRow(order)));
          }
        } catch (RecordParseException e) {
          deadLetters.add(raw);
        }
      }
      Map<String, List<Object>> silver = OrderEvents.silverModel(distinct);
      List<Object[]> silverRows = silver.values().stream().map(List::toArray).toList();
      return new Models(
          bronze,
          deadLetters,
          silver,
          OrderEvents.quarantineModel(distinct, malformedByPosition),
          SilverOrders.dailyAggregate(silverRows, OrdersSilverTables.SILVER_ORDER_TS, 3));
    }

    private static List<Event> sample(List<Event> from, int n, Random random) {
      List<Event> out = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        out.add(from.get(random.nextInt(from.size())));
      }
      return out;
    }
  }

  private record Models(
      List<String> bronze,
      List<String> bronzeDeadLetters,
      Map<String, List<Object>> silver,
      List<List<Object>> quarantine,
      Map<LocalDate, String> gold) {}
}
