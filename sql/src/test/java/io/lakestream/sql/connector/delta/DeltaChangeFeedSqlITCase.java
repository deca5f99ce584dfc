package io.lakestream.sql.connector.delta;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.runtime.StreamingQuery;
import io.lakestream.sql.FailOnce;
import io.lakestream.sql.SqlQueries;
import io.lakestream.testkit.delta.DeltaLogTxns;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The changelog round trip in Flink SQL: a table changed by MERGEs (inserts, updates, deletes) read
 * as its change data feed, aggregated, and upserted by key into another Delta table, through a
 * restart from the savepoint of the first run and, in the second, a task failure mid-epoch after a
 * checkpoint of that run. Aggregating the feed's changes must give what aggregating the source
 * table's current rows gives, row for row.
 */
class DeltaChangeFeedSqlITCase {
  private static final DeltaTableSchema ACCOUNTS =
      DeltaTableSchema.builder()
          .column("id", ColumnType.LONG, false)
          .column("status", ColumnType.STRING)
          .column("amount", ColumnType.decimal(12, 2))
          .property("delta.enableChangeDataFeed", "true")
          .build();

  @TempDir Path dir;
  private long sequence;

  /** One MERGE version: ids upserted with a status and amount, or deleted. */
  private void change(long version, long from, long to, String status, boolean delete)
      throws Exception {
    DeltaTable table = DeltaTable.forPath(dir.resolve("accounts").toUri().toString());
    DeltaUpsertFunction merge = new DeltaUpsertFunction(table, ACCOUNTS, List.of("id"), "writer");
    List<Object[]> rows = new ArrayList<>();
    for (long id = from; id < to; id++) {
      rows.add(new Object[] {id, status, BigDecimal.valueOf(id * 3, 1), delete, sequence++});
    }
    merge.call(version, rows);
  }

  private StreamingQuery start() throws Exception {
    String script =
        """
        CREATE TABLE accounts (
          id BIGINT NOT NULL, status STRING, amount DECIMAL(12, 2),
          _change_type STRING METADATA VIRTUAL, _commit_version BIGINT METADATA VIRTUAL
        ) WITH ('connector' = 'delta', 'path' = '%s', 'readChangeFeed' = 'true',
                'maxFilesPerTrigger' = '1');
        CREATE TABLE by_status (
          status STRING NOT NULL, accounts BIGINT, total DECIMAL(38, 2),
          PRIMARY KEY (status) NOT ENFORCED
        ) WITH ('connector' = 'delta', 'path' = '%s', 'delta.enableChangeDataFeed' = 'true');
        CREATE TEMPORARY FUNCTION fail_once AS '%s';
        INSERT INTO by_status
        SELECT status, COUNT(*), SUM(amount) FROM accounts
        WHERE fail_once(_commit_version) >= 0 AND _change_type <> ''
        GROUP BY status;
        """
            .formatted(
                dir.resolve("accounts").toUri(),
                dir.resolve("by_status").toUri(),
                FailOnce.class.getName());
    return SqlQueries.availableNow(script, "by-status", dir.resolve("checkpoint"));
  }

  /** Count and total per status of the accounts table's current rows. */
  private List<List<Object>> model() throws Exception {
    TreeMap<String, long[]> counts = new TreeMap<>();
    TreeMap<String, BigDecimal> totals = new TreeMap<>();
    DeltaTable accounts = DeltaTable.forPath(dir.resolve("accounts").toUri().toString());
    for (Object[] row : new DeltaTableReader(accounts).readLatest()) {
      counts.computeIfAbsent((String) row[1], k -> new long[1])[0]++;
      totals.merge((String) row[1], (BigDecimal) row[2], BigDecimal::add);
    }
    List<List<Object>> out = new ArrayList<>();
    counts.forEach(
        (status, n) -> out.add(Arrays.asList(status, n[0], totals.get(status).setScale(2))));
    return out;
  }

  private List<List<Object>> byStatus() throws Exception {
    return new DeltaTableReader(DeltaTable.forPath(dir.resolve("by_status").toUri().toString()))
        .readLatest().stream()
            .map(Arrays::asList)
            .sorted((a, b) -> ((String) a.get(0)).compareTo((String) b.get(0)))
            .toList();
  }

  @Test
  void theChangeFeedAggregatedEqualsTheTableAggregatedThroughAFailureAndARestart()
      throws Exception {
    change(1, 0, 60, "open", false);
    change(2, 0, 20, "closed", false); // updates: open -> closed
    change(3, 40, 50, "open", true); // deletes
    // the first run reads the snapshot in one epoch: no checkpoint of it completes before its end
    StreamingQuery first = start();
    first.awaitTermination();
    assertThat(byStatus()).containsExactlyElementsOf(model()).hasSize(2);

    change(4, 0, 20, "open", true); // every closed account goes: its group is deleted
    change(5, 60, 70, "new", false);
    change(6, 50, 55, "open", false); // an update that keeps the status, new amount
    FailOnce.arm(dir.resolve("checkpoint"));
    StreamingQuery second = start(); // resumes from the first run's savepoint, one version an epoch
    second.awaitTermination();
    assertThat(FailOnce.failed()).as("the injected task failure happened").isTrue();
    assertThat(model()).extracting(row -> row.get(0)).containsExactly("new", "open");
    assertThat(byStatus()).containsExactlyElementsOf(model());
    DeltaLogTxns.read(dir.resolve("by_status")).assertEachEpochOnce();
  }
}
