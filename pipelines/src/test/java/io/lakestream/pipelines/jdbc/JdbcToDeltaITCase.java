package io.lakestream.pipelines.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.pipelines.PipelineOptions;
import io.lakestream.pipelines.Pipelines;
import io.lakestream.runtime.StreamingQuery;
import io.lakestream.runtime.StreamingQueryBuilder;
import io.lakestream.runtime.Trigger;
import io.lakestream.state.StateBackendSettings;
import io.lakestream.testkit.delta.DeltaLogTxns;
import io.lakestream.testkit.postgres.PostgresExtension;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pipeline {@code jdbc-to-delta} against the testkit's real PostgreSQL: a read of 6 partitions by 2
 * readers loses its database connections mid-read (the test terminates the reading backends once
 * two partitions are in the table, so tasks fail and restart from the last checkpoint); the table
 * then equals the source table row for row, with each partition committed exactly once under its
 * txn app id. A rerun of the same run from a new checkpoint (same txnAppId, the availableNow
 * default trigger) re-reads everything, commits nothing and ends by itself.
 */
class JdbcToDeltaITCase {
  @RegisterExtension static final PostgresExtension POSTGRES = new PostgresExtension();

  private static final int ROWS = 2400;
  private static final int PARTITIONS = 6;
  private static final Duration WAIT = Duration.ofMinutes(2);
  private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

  @TempDir static Path dir;

  @BeforeAll
  static void sourceTable() throws Exception {
    try (Connection c = POSTGRES.connect();
        Statement s = c.createStatement()) {
      s.execute(
          "CREATE TABLE orders (id BIGINT PRIMARY KEY, customer TEXT, amount NUMERIC(10,2),"
              + " placed TIMESTAMPTZ)");
      s.execute(
          "INSERT INTO orders SELECT g, 'c-' || (g % 7), g * 0.25, TIMESTAMPTZ"
              + " '2026-01-01 00:00:00+00' + g * INTERVAL '1 minute' FROM generate_series(1, "
              + ROWS
              + ") g");
      // 3 ms per row: 1.2 s per partition, so checkpoints (every 2 s) fall between commits
      s.execute(
          "CREATE FUNCTION slow(BIGINT) RETURNS BOOLEAN AS $$ BEGIN PERFORM pg_sleep(0.003);"
              + " RETURN true; END $$ LANGUAGE plpgsql");
    }
  }

  private static Map<String, String> options(String txnAppId) throws Exception {
    Path secret = dir.resolve("pg-secret");
    Files.writeString(secret, POSTGRES.password() + "\n");
    Map<String, String> options = new LinkedHashMap<>();
    options.put("url", POSTGRES.jdbcUrl());
    options.put("user", POSTGRES.user());
    options.put("passwordFile", secret.toString());
    options.put("dbtable", "(SELECT * FROM orders WHERE slow(id)) o");
    options.put("table", "orders");
    options.put("partitionColumn", "id");
    options.put("lowerBound", "1");
    options.put("upperBound", Integer.toString(ROWS + 1));
    options.put("numPartitions", Integer.toString(PARTITIONS));
    options.put("fetchsize", "50");
    if (txnAppId != null) {
      options.put("txnAppId", txnAppId);
    }
    return options;
  }

  private static StreamingQuery start(String checkpoint, Trigger trigger, String txnAppId)
      throws Exception {
    return StreamingQueryBuilder.of(
            Pipelines.byName("jdbc-to-delta")
                .dataflow(
                    new PipelineOptions(dir.resolve("out").toUri(), 0, 0, 0, options(txnAppId))))
        .queryName("jdbc-orders")
        .checkpointLocation(dir.resolve(checkpoint).toUri().toString())
        .trigger(trigger)
        .parallelism(2)
        .stateBackend(StateBackendSettings.defaults())
        .start();
  }

  private static Path table() {
    return dir.resolve("out/orders");
  }

  private static int committedPartitions() {
    return Files.isDirectory(table().resolve("_delta_log"))
        ? DeltaLogTxns.read(table()).appIds().size()
        : 0;
  }

  /** Whether Flink completed a checkpoint of the query (state/<job>/chk-N/_metadata). */
  private static boolean checkpointCompleted(String checkpoint) throws Exception {
    Path state = dir.resolve(checkpoint).resolve("state");
    if (!Files.isDirectory(state)) {
      return false;
    }
    try (var files = Files.walk(state, 3)) {
      return files.anyMatch(
          p ->
              p.getFileName().toString().equals("_metadata")
                  && p.getParent().getFileName().toString().startsWith("chk-"));
    }
  }

  /** Terminates the backends reading the orders, as a lost connection would; returns how many. */
  private static int terminateReaders() throws Exception {
    try (Connection c = POSTGRES.connect();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) FROM pg_stat_activity"
                    + " WHERE query LIKE 'SELECT * FROM (SELECT * FROM orders WHERE slow(id))%'"
                    + " AND pid <> pg_backend_pid()")) {
      rs.next();
      return rs.getInt(1);
    }
  }

  @Test
  void lostConnectionsMidReadThenARerunAddNothingTwice() throws Exception {
    StreamingQuery first = start("chk-1", Trigger.processingTime(Duration.ofSeconds(2)), null);
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (!checkpointCompleted("chk-1")) {
      assertThat(first.isActive()).as("query running: %s", first.exception()).isTrue();
      assertThat(System.nanoTime()).as("a checkpoint within %s", WAIT).isLessThan(deadline);
      Thread.sleep(20);
    }
    // A partition committed after the checkpoint is read again after the restore: it must be
    // skipped, not added twice.
    int atCheckpoint = committedPartitions();
    while (committedPartitions() == atCheckpoint) {
      assertThat(System.nanoTime()).as("a commit within %s", WAIT).isLessThan(deadline);
      Thread.sleep(20);
    }
    assertThat(committedPartitions()).as("partitions left to interrupt").isLessThan(PARTITIONS);
    assertThat(terminateReaders()).as("readers terminated mid-read").isPositive();
    while (committedPartitions() < PARTITIONS) {
      assertThat(first.isActive()).as("query running: %s", first.exception()).isTrue();
      assertThat(System.nanoTime()).as("all partitions within %s", WAIT).isLessThan(deadline);
      Thread.sleep(100);
    }
    first.stop();
    assertThat(rows()).containsExactlyElementsOf(expectedRows());
    DeltaLogTxns log = DeltaLogTxns.read(table()).assertEachEpochOnce();
    assertThat(log.appIds()).hasSize(PARTITIONS);
    for (String appId : log.appIds()) {
      assertThat(appId).startsWith(first.appId() + "-p").endsWith("of" + PARTITIONS);
      assertThat(log.epochsOf(appId)).as(appId).containsExactly(0L);
    }
    long version = new DeltaTableReader(DeltaTable.forPath(table().toString())).latestVersion();

    // The same run again, from a new checkpoint: every partition is read and skipped.
    StreamingQuery rerun = start("chk-2", Trigger.availableNow(), first.appId());
    assertThat(rerun.awaitTermination(WAIT)).as("availableNow rerun ends").isTrue();
    assertThat(new DeltaTableReader(DeltaTable.forPath(table().toString())).latestVersion())
        .isEqualTo(version);
    assertThat(rows()).containsExactlyElementsOf(expectedRows());
  }

  private static List<String> expectedRows() {
    List<String> rows = new ArrayList<>();
    for (long id = 1; id <= ROWS; id++) {
      rows.add(
          id
              + "|c-"
              + (id % 7)
              + "|"
              + BigDecimal.valueOf(id * 25, 2)
              + "|"
              + START.plus(Duration.ofMinutes(id)));
    }
    return rows;
  }

  /** The table's rows as {@code id|customer|amount|placed}, by id. */
  private static List<String> rows() {
    List<Object[]> read = new DeltaTableReader(DeltaTable.forPath(table().toString())).readLatest();
    return read.stream()
        .sorted((a, b) -> Long.compare((Long) a[0], (Long) b[0]))
        .map(r -> r[0] + "|" + r[1] + "|" + r[2] + "|" + r[3])
        .toList();
  }
}
