package io.lakestream.sql.connector.delta;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.delta.DeltaAppendCommit;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.DeltaTableWriter;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.runtime.StreamingQuery;
import io.lakestream.sql.FailOnce;
import io.lakestream.sql.SqlQueries;
import io.lakestream.testkit.delta.DeltaLogTxns;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Delta to Delta in Flink SQL under the query runtime: the source reads the versions committed
 * before each availableNow run in bounded epochs, the sink commits each epoch once (txn), a task
 * failure mid-epoch and a restart from the run's savepoint change nothing in the output, which is
 * checked row for row against a model of the query.
 */
class DeltaSqlITCase {
  private static final long ROWS_PER_VERSION = 40;
  private static final DeltaTableSchema INPUT =
      DeltaTableSchema.builder()
          .column("id", ColumnType.LONG, false)
          .column("label", ColumnType.STRING)
          .column("amount", ColumnType.decimal(12, 2))
          .column("ts", ColumnType.TIMESTAMP)
          .column("day", ColumnType.DATE)
          .build();

  @TempDir Path dir;
  private DeltaTable input;
  private DeltaTableWriter writer;
  private DeltaAppendCommit commit;

  @BeforeEach
  void setUp() throws IOException {
    FailOnce.disarm();
    input = DeltaTable.forPath(dir.resolve("in").toUri().toString());
    writer = new DeltaTableWriter(input, INPUT);
    commit = new DeltaAppendCommit(input, INPUT, "producer");
    commit.open();
  }

  private void appendVersions(int from, int to) throws IOException {
    for (int v = from; v <= to; v++) {
      List<Object[]> rows = new ArrayList<>();
      for (long id = (v - 1) * ROWS_PER_VERSION; id < v * ROWS_PER_VERSION; id++) {
        rows.add(inputRow(id));
      }
      commit.commit(v, writer.write(rows));
    }
  }

  private static Object[] inputRow(long id) {
    return new Object[] {
      id,
      id % 7 == 0 ? null : "row-" + id,
      BigDecimal.valueOf(id * 125, 2),
      Instant.parse("2026-01-01T00:00:00Z").plusSeconds(id * 61).plusNanos(id * 1000),
      LocalDate.of(2026, 1, 1).plusDays(id % 30)
    };
  }

  /** What the query writes for input row {@code id}, or null when it filters the row out. */
  private static List<Object> expectedRow(long id) {
    if (id % 5 == 0) {
      return null;
    }
    Object[] in = inputRow(id);
    return Arrays.asList(
        id,
        in[1] == null ? null : ((String) in[1]).toUpperCase(),
        "p" + (id % 3),
        in[2],
        in[3],
        in[4]);
  }

  private String script() {
    return """
        -- input: written by another writer, read in epochs of at most 2 versions
        CREATE TABLE src (
          id BIGINT NOT NULL, label STRING, amount DECIMAL(12, 2), ts TIMESTAMP_LTZ(6), `day` DATE
        ) WITH ('connector' = 'delta', 'path' = '%s', 'maxFilesPerTrigger' = '2',
                'pollInterval' = '100ms');
        CREATE TABLE dst (
          id BIGINT NOT NULL, label STRING, part STRING, amount DECIMAL(12, 2),
          ts TIMESTAMP_LTZ(6), `day` DATE
        ) PARTITIONED BY (part)
        WITH ('connector' = 'delta', 'path' = '%s', 'delta.enableChangeDataFeed' = 'true');
        CREATE TEMPORARY FUNCTION fail_once AS '%s';
        INSERT INTO dst
        SELECT fail_once(id), UPPER(label), CONCAT('p', CAST(id %% 3 AS STRING)), amount, ts, `day`
        FROM src WHERE id %% 5 <> 0;
        """
        .formatted(input.path(), out(), FailOnce.class.getName());
  }

  private String out() {
    return dir.resolve("out").toUri().toString();
  }

  private StreamingQuery start() throws Exception {
    return SqlQueries.availableNow(script(), "sql-delta-copy", dir.resolve("checkpoint"));
  }

  private List<List<Object>> outRows() throws IOException {
    return new DeltaTableReader(DeltaTable.forPath(out()))
        .readLatest().stream()
            .map(Arrays::asList)
            .sorted((a, b) -> Long.compare((Long) a.get(0), (Long) b.get(0)))
            .collect(Collectors.toList());
  }

  private static List<List<Object>> model(long rows) {
    List<List<Object>> out = new ArrayList<>();
    for (long id = 0; id < rows; id++) {
      List<Object> row = expectedRow(id);
      if (row != null) {
        out.add(row);
      }
    }
    return out;
  }

  @Test
  void eachRunCopiesTheNewVersionsExactlyOnceThroughATaskFailureAndASavepointRestart()
      throws Exception {
    appendVersions(1, 5);
    FailOnce.arm(dir.resolve("checkpoint"));
    StreamingQuery first = start();
    first.awaitTermination();
    assertThat(FailOnce.failed()).as("the injected task failure happened").isTrue();
    assertThat(outRows()).containsExactlyElementsOf(model(5 * ROWS_PER_VERSION));
    appendVersions(6, 8); // the second run resumes from the first one's savepoint
    StreamingQuery second = start();
    second.awaitTermination();
    assertThat(outRows()).containsExactlyElementsOf(model(8 * ROWS_PER_VERSION));
    // (checked on the run without a failure: after a failover an epoch's progress also counts
    // the rows its failed attempt read)
    assertThat(second.recentProgress())
        .as("epochs of at most two versions")
        .allSatisfy(p -> assertThat(p.numInputRows()).isLessThanOrEqualTo(2 * ROWS_PER_VERSION))
        .anySatisfy(p -> assertThat(p.numInputRows()).isPositive());

    DeltaTable out = DeltaTable.forPath(out());
    assertThat(out.latestSnapshot().orElseThrow().getPartitionColumnNames())
        .containsExactly("part");
    assertThat(out.latestSnapshot().orElseThrow().getTableProperties())
        .containsEntry("delta.enableChangeDataFeed", "true");
    DeltaLogTxns.read(dir.resolve("out")).assertEachEpochOnce();
    assertThat(DeltaLogTxns.read(dir.resolve("out")).appIds()).containsExactly(second.appId());
  }

  private StreamingQuery startTotals() throws Exception {
    String script =
        """
        CREATE TABLE src (id BIGINT NOT NULL, amount DECIMAL(12, 2))
        WITH ('connector' = 'delta', 'path' = '%s', 'maxFilesPerTrigger' = '2');
        CREATE TABLE totals (
          customer STRING NOT NULL, total DECIMAL(38, 2), orders BIGINT,
          PRIMARY KEY (customer) NOT ENFORCED
        ) WITH ('connector' = 'delta', 'path' = '%s', 'delta.enableChangeDataFeed' = 'true');
        CREATE TEMPORARY FUNCTION fail_once AS '%s';
        INSERT INTO totals
        SELECT customer, total, orders FROM (
          SELECT CONCAT('c', CAST(id %% 6 AS STRING)) AS customer, SUM(amount) AS total,
                 COUNT(*) AS orders
          FROM (SELECT fail_once(id) AS id, amount FROM src)
          GROUP BY CONCAT('c', CAST(id %% 6 AS STRING))
        ) WHERE orders < 40 OR customer = 'c0';
        """
            .formatted(input.path(), out(), FailOnce.class.getName());
    return SqlQueries.availableNow(script, "sql-delta-totals", dir.resolve("checkpoint-totals"));
  }

  /** Per customer of the ids below {@code rows}: total amount and count, as the query keeps. */
  private static List<List<Object>> totalsModel(long rows) {
    java.util.TreeMap<String, BigDecimal> totals = new java.util.TreeMap<>();
    java.util.TreeMap<String, Long> counts = new java.util.TreeMap<>();
    for (long id = 0; id < rows; id++) {
      String customer = "c" + (id % 6);
      totals.merge(customer, (BigDecimal) inputRow(id)[2], BigDecimal::add);
      counts.merge(customer, 1L, Long::sum);
    }
    List<List<Object>> out = new ArrayList<>();
    totals.forEach(
        (customer, total) -> {
          if (counts.get(customer) < 40 || customer.equals("c0")) {
            out.add(Arrays.asList(customer, total.setScale(2), counts.get(customer)));
          }
        });
    return out;
  }

  private List<List<Object>> totalsRows() throws IOException {
    return new DeltaTableReader(DeltaTable.forPath(out()))
        .readLatest().stream()
            .map(Arrays::asList)
            .sorted((a, b) -> ((String) a.get(0)).compareTo((String) b.get(0)))
            .collect(Collectors.toList());
  }

  @Test
  void aRunningAggregationUpsertsAndDeletesByKeyOneMergePerEpochThroughAFailure() throws Exception {
    appendVersions(1, 5);
    FailOnce.arm(dir.resolve("checkpoint-totals"));
    StreamingQuery first = startTotals();
    first.awaitTermination();
    assertThat(FailOnce.failed()).as("the injected task failure happened").isTrue();
    assertThat(totalsModel(200)).hasSize(6);
    assertThat(totalsRows()).containsExactlyElementsOf(totalsModel(200));

    appendVersions(6, 8); // every customer but c0 reaches 40 orders: deleted
    StreamingQuery second = startTotals();
    second.awaitTermination();
    assertThat(totalsModel(320)).hasSize(1);
    assertThat(totalsRows()).containsExactlyElementsOf(totalsModel(320));
    DeltaLogTxns.read(dir.resolve("out")).assertEachEpochOnce();
    assertThat(Files.list(dir.resolve("out/_change_data")).count())
        .as("MERGE wrote change data files for the updates and deletes")
        .isPositive();
  }
}
