package io.lakestream.sql.connector.lakebase;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.merge.DeltaMerge;
import io.lakestream.connectors.delta.merge.DeltaMergeCommit;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.sql.FailOnce;
import io.lakestream.sql.SqlQueries;
import io.lakestream.testkit.logging.CapturedLogs;
import io.lakestream.testkit.postgres.PostgresExtension;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The changelog round trip from Delta into Lakebase in Flink SQL: a table changed by MERGEs
 * (inserts, updates, deletes) read as its change data feed, aggregated per status and upserted by
 * key into PostgreSQL, where a status whose accounts are all deleted is deleted (the aggregation's
 * {@code -D}). Each run injects a task failure mid-epoch (a restart from the last checkpoint, the
 * second run's while a group is being deleted); the second run resumes from the first one's
 * savepoint. Afterwards the PostgreSQL table must equal the aggregate of the Delta table's current
 * rows, row for row, and no log line shows the password.
 */
class LakebaseChangeFeedSqlITCase {
  @RegisterExtension static final PostgresExtension POSTGRES = new PostgresExtension();

  private static final DeltaTableSchema ACCOUNTS =
      DeltaTableSchema.builder()
          .column("id", ColumnType.LONG, false)
          .column("status", ColumnType.STRING)
          .column("amount", ColumnType.decimal(12, 2))
          .property("delta.enableChangeDataFeed", "true")
          .build();

  private static final String SECRET = "Lakebase-Secret-" + UUID.randomUUID();

  @TempDir Path dir;

  /** One MERGE version: ids upserted with a status and amount, or deleted. */
  private void change(long version, long from, long to, String status, boolean delete)
      throws Exception {
    DeltaTable table = DeltaTable.forPath(dir.resolve("accounts").toUri().toString());
    table.ensureExists(ACCOUNTS);
    int deleteFlag = ACCOUNTS.columns().size();
    DeltaMerge merge =
        DeltaMerge.into(table, ACCOUNTS, "id")
            .whenMatchedDelete((source, target) -> (Boolean) source[deleteFlag])
            .whenMatchedUpdateAll()
            .whenNotMatchedInsertAll((source, target) -> !(Boolean) source[deleteFlag])
            .build();
    List<Object[]> rows = new ArrayList<>();
    for (long id = from; id < to; id++) {
      rows.add(new Object[] {id, status, BigDecimal.valueOf(id * 3 + version, 1), delete});
    }
    new DeltaMergeCommit(merge, "writer").commit(version, rows);
  }

  /** Runs the query once, failing a task mid-epoch after the run's first checkpoint. */
  private void run() throws Exception {
    String password = POSTGRES.server().isEmbedded() ? SECRET : POSTGRES.password();
    String script =
        """
        CREATE TABLE accounts (
          id BIGINT NOT NULL, status STRING, amount DECIMAL(12, 2),
          _change_type STRING METADATA VIRTUAL, _commit_version BIGINT METADATA VIRTUAL
        ) WITH ('connector' = 'delta', 'path' = '%s', 'readChangeFeed' = 'true',
                'startingVersion' = '0', 'maxFilesPerTrigger' = '1');
        CREATE TABLE by_status (
          status STRING NOT NULL, accounts BIGINT, total DECIMAL(38, 2),
          PRIMARY KEY (status) NOT ENFORCED
        ) WITH ('connector' = 'lakebase', 'endpoint' = '%s', 'user' = '%s', 'password' = '%s',
                'dbtable' = 'public.by_status', 'batchsize' = '7', 'batchinterval' = '20 ms');
        CREATE TEMPORARY FUNCTION fail_once AS '%s';
        INSERT INTO by_status
        SELECT status, COUNT(*), SUM(amount) FROM accounts
        WHERE fail_once(_commit_version) >= 0 AND _change_type <> ''
        GROUP BY status;
        """
            .formatted(
                dir.resolve("accounts").toUri(),
                POSTGRES.jdbcUrl(),
                POSTGRES.user(),
                password,
                FailOnce.class.getName());
    FailOnce.arm(dir.resolve("checkpoint"));
    try (CapturedLogs logs = CapturedLogs.of("")) {
      SqlQueries.availableNow(script, "by-status", dir.resolve("checkpoint")).awaitTermination();
      assertThat(logs.lines()).isNotEmpty().noneMatch(line -> line.contains(password));
    }
    assertThat(FailOnce.failed())
        .as("the injected task failure happened, after a checkpoint of the run")
        .isTrue();
  }

  /** Count and total per status of the accounts table's current rows. */
  private List<String> model() throws Exception {
    TreeMap<String, Long> counts = new TreeMap<>();
    TreeMap<String, BigDecimal> totals = new TreeMap<>();
    DeltaTable accounts = DeltaTable.forPath(dir.resolve("accounts").toUri().toString());
    for (Object[] row : new DeltaTableReader(accounts).readLatest()) {
      counts.merge((String) row[1], 1L, Long::sum);
      totals.merge((String) row[1], (BigDecimal) row[2], BigDecimal::add);
    }
    List<String> rows = new ArrayList<>();
    counts.forEach((status, n) -> rows.add(status + "/" + n + "/" + totals.get(status)));
    return rows;
  }

  private static List<String> byStatus() throws SQLException {
    List<String> rows = new ArrayList<>();
    try (Connection c = POSTGRES.connect();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery("SELECT status, accounts, total FROM by_status ORDER BY status")) {
      while (rs.next()) {
        rows.add(rs.getString(1) + "/" + rs.getLong(2) + "/" + rs.getBigDecimal(3));
      }
    }
    return rows;
  }

  @Test
  void theChangeFeedAggregatedIntoLakebaseEqualsTheTableAggregatedThroughFailuresAndARestart()
      throws Exception {
    // one version per epoch (maxFilesPerTrigger 1); the second epoch of each run fails
    change(1, 0, 40, "open", false); // 40 inserts
    change(2, 0, 20, "closed", false); // 20 updates open -> closed (40 changes)
    change(3, 30, 40, "open", true); // 10 deletes
    run();
    assertThat(byStatus()).containsExactlyElementsOf(model()).hasSize(2);

    change(4, 40, 80, "new", false);
    change(5, 0, 20, "closed", true); // every closed account goes: its row is deleted
    change(6, 20, 25, "open", false); // an update that keeps the status, new amount
    run(); // resumes from the first run's savepoint; fails after its first checkpoint
    assertThat(model()).extracting(row -> row.split("/")[0]).containsExactly("new", "open");
    assertThat(byStatus()).containsExactlyElementsOf(model());
  }
}
