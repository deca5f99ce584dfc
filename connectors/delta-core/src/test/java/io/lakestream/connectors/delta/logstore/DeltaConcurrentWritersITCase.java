package io.lakestream.connectors.delta.logstore;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakestream.connectors.delta.DeltaAppendCommit;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.DeltaTableWriter;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.connectors.sink.EpochCommitOutcome;
import io.lakestream.testkit.s3.S3ServerExtension;
import io.lakestream.testkit.s3.S3aSettings;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several writers append to one Delta table at once, each through its own {@link DeltaTable} (own
 * Kernel engine, as on separate machines): three streaming writers commit many small epochs under
 * their own app ids, and a batch writer runs several "jobs", each a {@link DeltaAppendCommit} with
 * a fresh app id. On a local path and on S3 (conditional PUT), every row is in the table once,
 * versions are contiguous, every version file holds one writer's commit, and each {@code (appId,
 * epoch)} is in the log exactly once; the writers' lost races were retried, never dropped.
 */
class DeltaConcurrentWritersITCase {
  @RegisterExtension
  static final S3ServerExtension S3 = new S3ServerExtension("concurrent-writers");

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int STREAMING_WRITERS = 3;
  private static final int BATCH_JOBS = 3;
  private static final int ROWS_PER_COMMIT = 5;

  private static final DeltaTableSchema SCHEMA =
      DeltaTableSchema.builder()
          .column("id", ColumnType.LONG, false)
          .column("writer", ColumnType.STRING)
          .column("epoch", ColumnType.LONG)
          .build();

  @TempDir java.nio.file.Path dir;

  @BeforeEach
  void resetCount() {
    CountingLogStore.reset();
  }

  @Test
  void concurrentAppendersOnALocalPath() throws Exception {
    java.nio.file.Path root = dir.resolve("table");
    Map<String, String> conf =
        Map.of("io.delta.kernel.logStore.file.impl", CountingLogStore.Local.class.getName());
    runWriters(
        12,
        root.toString(),
        conf,
        () -> {
          try (Stream<java.nio.file.Path> files = Files.list(root.resolve("_delta_log"))) {
            return files.map(p -> p.getFileName().toString()).collect(Collectors.toList());
          }
        },
        name -> {
          try {
            return Files.readString(root.resolve("_delta_log").resolve(name));
          } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
        });
  }

  @Test
  void concurrentAppendersOnS3() throws Exception {
    Map<String, String> conf = new TreeMap<>(S3aSettings.of(S3.service()));
    conf.put("io.delta.kernel.logStore.s3a.impl", CountingLogStore.S3.class.getName());
    String prefix = "tables/concurrent/_delta_log/";
    runWriters(
        8, // each S3 commit costs several requests: fewer epochs keep the test short
        S3aSettings.uri(S3.service(), "tables/concurrent"),
        conf,
        () ->
            S3.service().keys(prefix).stream()
                .map(k -> k.substring(prefix.length()))
                .filter(n -> !n.contains("/"))
                .collect(Collectors.toList()),
        name -> new String(S3.service().read(prefix + name), StandardCharsets.UTF_8));
  }

  interface Listing {
    List<String> names() throws IOException;
  }

  private void runWriters(
      int epochs,
      String path,
      Map<String, String> conf,
      Listing logFiles,
      Function<String, String> read)
      throws Exception {
    DeltaTable.forPath(path, conf).ensureExists(SCHEMA);
    int threads = STREAMING_WRITERS + 1;
    CyclicBarrier start = new CyclicBarrier(threads);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    List<Future<Map<String, List<Long>>>> results = new ArrayList<>();
    for (int w = 0; w < STREAMING_WRITERS; w++) {
      int writer = w;
      results.add(
          pool.submit(
              () -> {
                DeltaTable table = DeltaTable.forPath(path, conf);
                String appId = "stream-" + writer;
                DeltaAppendCommit commit = new DeltaAppendCommit(table, SCHEMA, appId);
                commit.open();
                DeltaTableWriter files = new DeltaTableWriter(table, SCHEMA);
                start.await();
                List<Long> done = new ArrayList<>();
                for (long epoch = 1; epoch <= epochs; epoch++) {
                  EpochCommitOutcome outcome =
                      commit.commit(epoch, files.write(rows(writer, epoch)));
                  assertThat(outcome.status()).isEqualTo(EpochCommitOutcome.Status.COMMITTED);
                  done.add(epoch);
                }
                return Map.of(appId, done);
              }));
    }
    results.add(
        pool.submit(
            () -> {
              Map<String, List<Long>> committed = new HashMap<>();
              start.await();
              for (int job = 0; job < BATCH_JOBS; job++) {
                // A batch job: a fresh engine and app id per run, one commit.
                DeltaTable table = DeltaTable.forPath(path, conf);
                String appId = "batch-" + job;
                DeltaAppendCommit commit = new DeltaAppendCommit(table, SCHEMA, appId);
                commit.open();
                EpochCommitOutcome outcome =
                    commit.commit(0, new DeltaTableWriter(table, SCHEMA).write(rows(100 + job, 0)));
                assertThat(outcome.status()).isEqualTo(EpochCommitOutcome.Status.COMMITTED);
                committed.put(appId, List.of(0L));
              }
              return committed;
            }));
    Map<String, List<Long>> expectedTxns = new TreeMap<>();
    for (Future<Map<String, List<Long>>> result : results) {
      expectedTxns.putAll(result.get(5, TimeUnit.MINUTES));
    }
    pool.shutdown();
    int commits = STREAMING_WRITERS * epochs + BATCH_JOBS;

    // Every row exactly once.
    List<Long> expectedIds = new ArrayList<>();
    for (int w = 0; w < STREAMING_WRITERS; w++) {
      for (long epoch = 1; epoch <= epochs; epoch++) {
        rows(w, epoch).forEach(r -> expectedIds.add((Long) r[0]));
      }
    }
    for (int job = 0; job < BATCH_JOBS; job++) {
      rows(100 + job, 0).forEach(r -> expectedIds.add((Long) r[0]));
    }
    DeltaTable table = DeltaTable.forPath(path, conf);
    List<Long> ids =
        new DeltaTableReader(table)
            .readLatest().stream().map(r -> (Long) r[0]).sorted().collect(Collectors.toList());
    assertThat(ids).containsExactlyElementsOf(expectedIds.stream().sorted().toList());

    // Versions 0..commits, each one file, each commit (appId, epoch) exactly once.
    List<Long> versions =
        logFiles.names().stream()
            .filter(n -> n.matches("\\d{20}\\.json"))
            .map(n -> Long.parseLong(n.substring(0, 20)))
            .sorted()
            .collect(Collectors.toList());
    assertThat(versions)
        .containsExactlyElementsOf(LongStream.rangeClosed(0, commits).boxed().toList());
    Map<String, List<Long>> txnsInLog = new TreeMap<>();
    for (long version = 1; version <= commits; version++) {
      List<JsonNode> txns = new ArrayList<>();
      for (String line : read.apply(String.format("%020d.json", version)).split("\n")) {
        JsonNode action = JSON.readTree(line);
        if (action.has("txn")) {
          txns.add(action.get("txn"));
        }
      }
      assertThat(txns).as("txn actions in version %d", version).hasSize(1);
      txnsInLog
          .computeIfAbsent(txns.get(0).get("appId").asText(), k -> new ArrayList<>())
          .add(txns.get(0).get("version").asLong());
    }
    txnsInLog.values().forEach(list -> list.sort(null));
    assertThat(txnsInLog).isEqualTo(expectedTxns);

    // The writers did collide (and those commits were retried as later versions).
    System.out.printf(
        "%s: %d commits, %d refused commit-file writes retried%n",
        path, commits, CountingLogStore.REFUSED.get());
    assertThat(CountingLogStore.REFUSED.get()).as("refused commit-file writes").isPositive();
  }

  private static List<Object[]> rows(int writer, long epoch) {
    List<Object[]> rows = new ArrayList<>();
    for (int i = 0; i < ROWS_PER_COMMIT; i++) {
      long id = writer * 1_000_000L + epoch * 100 + i;
      rows.add(new Object[] {id, "w" + writer, epoch});
    }
    return rows;
  }
}
