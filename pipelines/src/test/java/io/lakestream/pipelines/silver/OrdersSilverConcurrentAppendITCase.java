package io.lakestream.pipelines.silver;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakestream.connectors.delta.DeltaAppendCommit;
import io.lakestream.connectors.delta.DeltaCommitConflictException;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableWriter;
import io.lakestream.connectors.sink.EpochCommitOutcome;
import io.lakestream.connectors.sink.EpochFunction;
import io.lakestream.pipelines.PipelineOptions;
import io.lakestream.pipelines.silver.OrderEvents.Event;
import io.lakestream.runtime.StreamingQuery;
import io.lakestream.runtime.StreamingQueryBuilder;
import io.lakestream.runtime.Trigger;
import io.lakestream.state.StateBackendSettings;
import io.lakestream.testkit.delta.DeltaLogTxns;
import io.lakestream.testkit.kafka.KafkaBrokerExtension;
import io.lakestream.testkit.query.EpochRecords;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A batch job appends to the silver table while the streaming E3 MERGEs into it. The appended rows
 * have order ids inside the key range of the stream's orders, so a MERGE that loses a version race
 * to an append finds a conflict ({@link io.lakestream.connectors.delta.merge.DeltaMergeCommit}
 * judges the added file by its key statistics): nothing of that plan is committed, and the MERGE is
 * planned again on the new version (its files stay unreferenced until VACUUM); only after {@link
 * io.lakestream.connectors.delta.merge.DeltaMergeCommit#MAX_REPLANS} lost races in a row does the
 * epoch fail with {@link DeltaCommitConflictException}, and the query restores its last checkpoint
 * and replays it. The query runs with its default restart budget. An append that loses a race to a
 * MERGE is rebased by Delta Kernel. In the end both writes survive: every appended row is present,
 * the merged rows equal the model, and no epoch of either writer is in the log twice.
 */
class OrdersSilverConcurrentAppendITCase {
  @RegisterExtension static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String BATCH_APP = "orders-backfill";
  static final AtomicInteger CONFLICTS = new AtomicInteger();
  static final int BATCHES = 12;
  static final int ROWS_PER_BATCH = 5;

  @TempDir Path dir;

  /** Counts MERGE conflicts and rethrows them: the query, not the function, retries the epoch. */
  static EpochFunction countConflicts(EpochFunction function) {
    return (epoch, rows) -> {
      try {
        function.call(epoch, rows);
      } catch (DeltaCommitConflictException e) {
        CONFLICTS.incrementAndGet();
        throw e;
      }
    };
  }

  @Test
  void concurrentBatchAppendsAndStreamingMergeBothSurvive() throws Exception {
    CONFLICTS.set(0);
    KAFKA.createTopic("orders", 3);
    Random random = new Random(5);
    List<Event> events = new ArrayList<>(OrderEvents.versions(200));
    Collections.shuffle(events, random);
    List<String> values = new ArrayList<>();
    events.forEach(e -> values.add(e.json()));
    for (int i = 0; i < 60; i++) {
      values.add(events.get(random.nextInt(events.size())).json()); // duplicates
    }
    Collections.shuffle(values, random);
    OrderEvents.produce(KAFKA.bootstrapServers(), "orders", 3, values);

    PipelineOptions options =
        new PipelineOptions(
            dir.resolve("lake").toUri(),
            0,
            0,
            0,
            Map.of(
                "kafka.bootstrap.servers", KAFKA.bootstrapServers(), "maxOffsetsPerTrigger", "15"));
    StreamingQuery query =
        StreamingQueryBuilder.of(
                OrdersSilver.dataflow(
                    options,
                    java.util.function.UnaryOperator.identity(),
                    OrdersSilverConcurrentAppendITCase::countConflicts))
            .queryName("silver")
            .checkpointLocation(dir.resolve("lake/_checkpoints/silver").toString())
            .trigger(Trigger.processingTime(Duration.ofSeconds(1)))
            .parallelism(2)
            .stateBackend(StateBackendSettings.defaults())
            .start();

    DeltaTable silver =
        DeltaTable.forPath(dir.resolve("lake/" + OrdersSilver.SILVER_TABLE).toUri().toString());
    long deadline = System.nanoTime() + Duration.ofMinutes(4).toNanos();
    while (System.nanoTime() < deadline && OrderEvents.silver(silver).isEmpty()) {
      Thread.sleep(200);
    }
    assertThat(OrderEvents.silver(silver)).as("the stream merged a first epoch").isNotEmpty();

    // The batch job: BATCHES appends while the stream merges, keys inside the stream's range.
    Map<String, List<Object>> appended = new TreeMap<>();
    List<EpochCommitOutcome> outcomes = Collections.synchronizedList(new ArrayList<>());
    CompletableFuture<Void> batchJob =
        CompletableFuture.runAsync(
            () -> {
              try {
                for (int b = 0; b < BATCHES; b++) {
                  List<Object[]> rows = new ArrayList<>();
                  for (int r = 0; r < ROWS_PER_BATCH; r++) {
                    Object[] row = batchRow(b, r);
                    rows.add(row);
                    synchronized (appended) {
                      appended.put((String) row[0], Arrays.asList(row));
                    }
                  }
                  DeltaAppendCommit commit =
                      new DeltaAppendCommit(silver, OrdersSilverTables.SILVER, BATCH_APP);
                  outcomes.add(
                      commit.commit(
                          b, new DeltaTableWriter(silver, OrdersSilverTables.SILVER).write(rows)));
                  Thread.sleep(1_500);
                }
              } catch (Exception e) {
                throw new RuntimeException(e);
              }
            });
    batchJob.get(5, TimeUnit.MINUTES);

    Map<String, List<Object>> expected = new TreeMap<>(OrderEvents.silverModel(events));
    expected.putAll(appended);
    while (System.nanoTime() < deadline && !OrderEvents.silver(silver).equals(expected)) {
      Thread.sleep(500);
    }
    // two more epochs committed: a replay still in flight, if any, has landed
    EpochRecords.awaitMoreEpochs(dir.resolve("lake/_checkpoints/silver"), 2, Duration.ofMinutes(1));
    query.cancel();

    assertThat(outcomes)
        .extracting(EpochCommitOutcome::status)
        .as("every batch append committed once")
        .containsOnly(EpochCommitOutcome.Status.COMMITTED)
        .hasSize(BATCHES);
    assertThat(OrderEvents.silver(silver)).isEqualTo(expected);
    DeltaTable quarantine =
        DeltaTable.forPath(dir.resolve("lake/" + OrdersSilver.QUARANTINE_TABLE).toUri().toString());
    assertThat(OrderEvents.quarantine(quarantine))
        .containsExactlyElementsOf(OrderEvents.quarantineModel(events, Map.of()));

    Map<String, List<Long>> epochs = txnEpochs(dir.resolve("lake/" + OrdersSilver.SILVER_TABLE));
    assertThat(epochs.get(BATCH_APP)).containsExactlyElementsOf(range(BATCHES));
    assertThat(epochs.get(query.appId())).isNotEmpty().doesNotHaveDuplicates().isSorted();
    DeltaLogTxns.read(dir.resolve("lake/" + OrdersSilver.SILVER_TABLE)).assertEachEpochOnce();
    int lostPlans = unreferencedDataFiles(dir.resolve("lake/" + OrdersSilver.SILVER_TABLE));
    assertThat(lostPlans)
        .as("data files of MERGE plans that lost a race to a conflicting append")
        .isPositive();
    System.out.printf(
        "concurrent append: %d MERGE epochs, %d unreferenced data files of lost plans, %d epochs"
            + " failed after %d re-plans%n",
        epochs.get(query.appId()).size(),
        lostPlans,
        CONFLICTS.get(),
        io.lakestream.connectors.delta.merge.DeltaMergeCommit.MAX_REPLANS);
  }

  /** Parquet files under the table directory that no add action of the log references. */
  private static int unreferencedDataFiles(Path table) throws Exception {
    java.util.Set<String> added = new java.util.HashSet<>();
    try (var logs = Files.list(table.resolve("_delta_log"))) {
      for (Path log : logs.filter(f -> f.toString().endsWith(".json")).toList()) {
        for (String line : Files.readAllLines(log)) {
          com.fasterxml.jackson.databind.JsonNode add = JSON.readTree(line).get("add");
          if (add != null) {
            added.add(java.net.URLDecoder.decode(add.get("path").asText(), "UTF-8"));
          }
        }
      }
    }
    try (var files = Files.walk(table)) {
      return (int)
          files
              .filter(f -> f.toString().endsWith(".parquet"))
              .filter(f -> !f.startsWith(table.resolve("_delta_log")))
              .filter(f -> !f.startsWith(table.resolve("_change_data")))
              .filter(f -> !added.contains(table.relativize(f).toString()))
              .count();
    }
  }

  /**
   * Row {@code r} of batch {@code b}: order ids no stream row has ({@code o-0000-b00} .. {@code
   * o-0199-b00}), but whose file's key statistics span the stream's keys, so a MERGE that loses a
   * race to this append conflicts with it.
   */
  private static Object[] batchRow(int b, int r) {
    return new Object[] {
      String.format("o-%04d-b%02d", Math.min(r * 50, 199), b),
      "backfill-" + b + "-" + r,
      "c-backfill",
      new BigDecimal(b + "." + r + "0"),
      "EUR",
      Instant.parse("2026-02-01T00:00:00Z").plusSeconds(b * 10L + r)
    };
  }

  /**
   * The txn versions per app id over the log, checking that the log's versions are contiguous (each
   * version was written by exactly one writer).
   */
  private static Map<String, List<Long>> txnEpochs(Path table) throws Exception {
    Map<String, List<Long>> epochs = new TreeMap<>();
    List<Path> files;
    try (var list = Files.list(table.resolve("_delta_log"))) {
      files = list.filter(f -> f.toString().endsWith(".json")).sorted().toList();
    }
    for (int v = 0; v < files.size(); v++) {
      assertThat(files.get(v).getFileName().toString()).isEqualTo(String.format("%020d.json", v));
      for (String line : Files.readAllLines(files.get(v))) {
        var txn = JSON.readTree(line).get("txn");
        if (txn != null) {
          epochs
              .computeIfAbsent(txn.get("appId").asText(), k -> new ArrayList<>())
              .add(txn.get("version").asLong());
        }
      }
    }
    return epochs;
  }

  private static List<Long> range(int n) {
    List<Long> out = new ArrayList<>();
    for (long i = 0; i < n; i++) {
      out.add(i);
    }
    return out;
  }
}
