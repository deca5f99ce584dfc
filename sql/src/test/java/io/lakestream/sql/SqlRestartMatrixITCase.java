package io.lakestream.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.delta.DeltaAppendCommit;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.DeltaTableWriter;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.runtime.StreamingQuery;
import io.lakestream.state.query.IncompatibleRestartException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * The SQL restart matrix on real runs: a query of two statements, a running aggregation ({@code
 * totals}, GROUP BY customer) and a {@code DROP_DUPLICATES_WITHIN_WATERMARK} view's rows ({@code
 * firsts}), ran once with availableNow over Delta tables. Each refused change (another GROUP BY
 * key, another dedup key, a join added, the aggregation removed) fails before anything runs and
 * leaves the checkpoint location and tables as they were; then each allowed change (a filter before
 * the aggregation, a projection, a source's rate limit, the trigger) runs on the same location, in
 * turn, on a new version of the input, and the outputs carry on from the state the earlier runs
 * left: running totals over every version, and a duplicate of an earlier run's event dropped.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SqlRestartMatrixITCase {
  private static final DeltaTableSchema EVENTS =
      DeltaTableSchema.builder()
          .column("event_id", ColumnType.STRING, false)
          .column("customer", ColumnType.STRING)
          .column("region", ColumnType.STRING)
          .column("amount", ColumnType.LONG)
          .column("ts", ColumnType.TIMESTAMP, false)
          .build();
  private static final Instant T0 = Instant.parse("2026-06-01T12:00:00Z");

  private static final String TOTALS =
      "INSERT INTO totals SELECT customer, COUNT(*), SUM(amount) FROM orders GROUP BY customer";
  private static final String FIRSTS =
      "INSERT INTO firsts SELECT event_id, customer, amount FROM unique_events";

  private Path dir;
  private DeltaTable events;
  private long version;
  private final List<Object[]> appended = new ArrayList<>();

  @BeforeAll
  void firstRun(@TempDir Path tmp) throws Exception {
    dir = tmp;
    events = DeltaTable.forPath(dir.resolve("events").toUri().toString());
    append(event("e1", "c1", 5, 0), event("e2", "c2", 7, 1), event("e3", "c1", 1, 2));
    run(script("availableNow", "1", "event_id", TOTALS, FIRSTS));
    assertOutputs();
  }

  private static Object[] event(String id, String customer, long amount, long second) {
    return new Object[] {id, customer, "r-" + customer, amount, T0.plusSeconds(second)};
  }

  private void append(Object[]... rows) throws Exception {
    DeltaAppendCommit commit = new DeltaAppendCommit(events, EVENTS, "producer");
    commit.open();
    commit.commit(++version, new DeltaTableWriter(events, EVENTS).write(List.of(rows)));
    appended.addAll(List.of(rows));
  }

  /** The query: its settings, tables, the dedup view keyed by {@code dedupKey}, the inserts. */
  private String script(
      String trigger, String maxFiles, String dedupKey, String totals, String firsts) {
    return """
        SET 'lakestream.queryName' = 'matrix';
        SET 'lakestream.checkpointLocation' = '%s';
        SET 'lakestream.trigger' = '%s';
        CREATE TABLE orders (customer STRING, region STRING, amount BIGINT)
          WITH ('connector' = 'delta', 'path' = '%s', 'maxFilesPerTrigger' = '%s');
        CREATE TABLE events (
          event_id STRING NOT NULL, customer STRING, amount BIGINT, ts TIMESTAMP_LTZ(3) NOT NULL,
          WATERMARK FOR ts AS ts - INTERVAL '1' HOUR
        ) WITH ('connector' = 'delta', 'path' = '%s', 'maxFilesPerTrigger' = '%s');
        CREATE TABLE totals (customer STRING NOT NULL, n BIGINT, total BIGINT,
          PRIMARY KEY (customer) NOT ENFORCED) WITH ('connector' = 'delta', 'path' = '%s');
        CREATE TABLE firsts (event_id STRING, customer STRING, amount BIGINT)
          WITH ('connector' = 'delta', 'path' = '%s');
        CREATE TEMPORARY VIEW unique_events AS SELECT * FROM
          TABLE(DROP_DUPLICATES_WITHIN_WATERMARK(TABLE events, DESCRIPTOR(%s)));
        %s;
        %s;
        """
        .formatted(
            dir.resolve("checkpoint"),
            trigger,
            events.path(),
            maxFiles,
            events.path(),
            maxFiles,
            dir.resolve("totals").toUri(),
            dir.resolve("firsts").toUri(),
            dedupKey,
            totals,
            firsts);
  }

  private static void run(String script) throws Exception {
    StreamingQuery query = SqlDataflow.of(script).queryBuilder().parallelism(1).start();
    query.awaitTermination();
  }

  /** Totals over every row appended so far; firsts without the repeated event ids. */
  private void assertOutputs() {
    Map<String, String> totals = new TreeMap<>();
    List<String> firsts = new ArrayList<>();
    List<String> seen = new ArrayList<>();
    for (Object[] row : appended) {
      totals.merge(
          (String) row[1],
          "1/" + row[3],
          (a, b) -> {
            String[] x = a.split("/");
            return (Long.parseLong(x[0]) + 1) + "/" + (Long.parseLong(x[1]) + (long) row[3]);
          });
      if (!seen.contains((String) row[0])) {
        seen.add((String) row[0]);
        firsts.add(row[0] + "/" + row[3]);
      }
    }
    Map<String, String> totalsNow = new TreeMap<>();
    for (Object[] row : read("totals")) {
      totalsNow.put((String) row[0], row[1] + "/" + row[2]);
    }
    assertThat(totalsNow).isEqualTo(totals);
    assertThat(read("firsts"))
        .extracting(r -> r[0] + "/" + r[2])
        .containsExactlyInAnyOrderElementsOf(firsts);
  }

  private List<Object[]> read(String table) {
    return new DeltaTableReader(DeltaTable.forPath(dir.resolve(table).toUri().toString()))
        .readLatest();
  }

  /** The files a refused start must leave alone: metadata, plans, the tables' logs. */
  private Map<String, String> guarded() throws IOException {
    Map<String, String> files = new TreeMap<>();
    for (String sub : List.of("checkpoint/metadata", "checkpoint/plans", "totals/_delta_log")) {
      Path path = dir.resolve(sub);
      try (Stream<Path> all = Files.walk(path)) {
        for (Path file : all.filter(Files::isRegularFile).toList()) {
          files.put(dir.relativize(file).toString(), Files.readString(file));
        }
      }
    }
    return files;
  }

  private void assertRefused(String script, String... words) throws Exception {
    Map<String, String> before = guarded();
    assertThatThrownBy(() -> run(script))
        .isInstanceOf(IncompatibleRestartException.class)
        .hasMessageContainingAll(words)
        .hasMessageContaining("start it as a new query with a new checkpoint location")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("INCOMPATIBLE_RESTART");
    assertThat(guarded()).isEqualTo(before);
  }

  @Test
  @Order(1)
  void anotherGroupByKeyIsRefused() throws Exception {
    String byRegion =
        "INSERT INTO totals SELECT region, COUNT(*), SUM(amount) FROM orders GROUP BY region";
    assertRefused(
        script("availableNow", "1", "event_id", byRegion, FIRSTS),
        "INSERT INTO totals at line 16, column 1: the aggregation GroupAggregate(groupBy=[region]",
        "uid default_catalog.default_database.totals/group-aggregate",
        "grouping keys from [orders.customer VARCHAR(2147483647)] to [orders.region");
  }

  @Test
  @Order(2)
  void anotherDeduplicationKeyIsRefused() throws Exception {
    assertRefused(
        script("availableNow", "1", "customer", TOTALS, FIRSTS),
        "CREATE TEMPORARY VIEW unique_events at line 14, column 1",
        "uid drop-duplicates-unique_events",
        "now keys by [customer] instead of [event_id]");
  }

  @Test
  @Order(3)
  void aJoinAddedIsRefused() throws Exception {
    String joined =
        "INSERT INTO firsts SELECT u.event_id, u.customer, e.amount FROM unique_events u"
            + " JOIN events e ON u.event_id = e.event_id";
    assertRefused(
        script("availableNow", "1", "event_id", TOTALS, joined),
        "INSERT INTO firsts at line 17, column 1: the join Join(joinType=[InnerJoin]",
        "is new: the checkpoint holds no state for it");
  }

  @Test
  @Order(4)
  void theAggregationRemovedIsRefused() throws Exception {
    String plain = "INSERT INTO totals SELECT customer, 1, amount FROM orders";
    assertRefused(
        script("availableNow", "1", "event_id", plain, FIRSTS),
        "INSERT INTO totals at line 16, column 1: the aggregation GroupAggregate(groupBy=[customer]",
        "was removed: the state it keeps would be dropped");
  }

  @Test
  @Order(5)
  void aFilterBeforeTheAggregationRuns() throws Exception {
    append(event("e1", "c1", 5, 3), event("e4", "c2", 2, 4)); // e1 again: a duplicate
    run(script("availableNow", "1", "event_id", filtered(), FIRSTS));
    assertOutputs();
  }

  private static String filtered() {
    return "INSERT INTO totals SELECT customer, COUNT(*), SUM(amount) FROM orders"
        + " WHERE CHAR_LENGTH(customer) > 0 GROUP BY customer";
  }

  @Test
  @Order(6)
  void aProjectionRuns() throws Exception {
    append(event("e5", "c3", 3, 5));
    String projected =
        "INSERT INTO totals SELECT c, COUNT(*), SUM(a) FROM (SELECT amount AS a, UPPER(region) AS"
            + " r, customer AS c FROM orders WHERE CHAR_LENGTH(customer) > 0) GROUP BY c";
    run(script("availableNow", "1", "event_id", projected, FIRSTS + " WHERE amount > -1"));
    assertOutputs();
  }

  @Test
  @Order(7)
  void anotherRateLimitRuns() throws Exception {
    append(event("e6", "c1", 4, 6));
    append(event("e7", "c2", 6, 7));
    run(script("availableNow", "2", "event_id", filtered(), FIRSTS));
    assertOutputs();
  }

  @Test
  @Order(8)
  void anotherTriggerRuns() throws Exception {
    append(event("e8", "c3", 1, 8), event("e2", "c2", 7, 9)); // e2 again: a duplicate
    run(script("once", "2", "event_id", filtered(), FIRSTS));
    assertOutputs();
  }
}
