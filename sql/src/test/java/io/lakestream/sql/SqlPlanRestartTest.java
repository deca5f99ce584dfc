package io.lakestream.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.delta.DeltaAppendCommit;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.DeltaTableWriter;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.runtime.DataflowPlan;
import io.lakestream.runtime.PlanVerdict;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The SQL restart matrix on compiled plans, without running a job: each case plans a script, then a
 * changed one, and asks the changed plan whether it can take over the first one's state.
 */
class SqlPlanRestartTest {
  private static final DeltaTableSchema EVENTS =
      DeltaTableSchema.builder()
          .column("event_id", ColumnType.STRING, false)
          .column("customer", ColumnType.STRING)
          .column("region", ColumnType.STRING)
          .column("amount", ColumnType.LONG)
          .column("ts", ColumnType.TIMESTAMP, false)
          .build();

  @TempDir static Path dir;

  @BeforeAll
  static void writeEvents() throws Exception {
    DeltaTable table = DeltaTable.forPath(dir.resolve("events").toUri().toString());
    DeltaAppendCommit commit = new DeltaAppendCommit(table, EVENTS, "producer");
    commit.open();
    commit.commit(
        1,
        new DeltaTableWriter(table, EVENTS)
            .write(List.<Object[]>of(new Object[] {"e1", "c1", "r1", 5L, Instant.EPOCH})));
  }

  private static String tables() {
    return """
        CREATE TABLE events (
          event_id STRING NOT NULL, customer STRING, region STRING, amount BIGINT,
          ts TIMESTAMP_LTZ(3) NOT NULL, WATERMARK FOR ts AS ts - INTERVAL '10' SECOND
        ) WITH ('connector' = 'delta', 'path' = '%s');
        CREATE TABLE totals (customer STRING NOT NULL, n BIGINT, total BIGINT,
          PRIMARY KEY (customer) NOT ENFORCED) WITH ('connector' = 'delta', 'path' = '%s');
        CREATE TABLE copies (event_id STRING, customer STRING, amount BIGINT)
          WITH ('connector' = 'delta', 'path' = '%s');
        """
        .formatted(
            dir.resolve("events").toUri(),
            dir.resolve("totals").toUri(),
            dir.resolve("copies").toUri());
  }

  private static final String TOTALS =
      "INSERT INTO totals SELECT customer, COUNT(*), SUM(amount) FROM events GROUP BY customer;";

  /** The plan of {@code statements} (after the tables), and the uids of the job's operators. */
  private record Planned(DataflowPlan plan, List<String> uids) {}

  private static Planned plan(String statements) {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    DataflowPlan plan =
        SqlDataflow.fromFile("q.sql", tables() + statements)
            .buildPlanned(env, SqlPlanning.query())
            .orElseThrow();
    List<String> uids = new ArrayList<>();
    for (Transformation<?> sink : env.getTransformations()) {
      sink.getTransitivePredecessors().forEach(t -> uids.add(t.getUid()));
    }
    return new Planned(plan, uids);
  }

  private static PlanVerdict restart(String before, String after) {
    return plan(after).plan().restartFrom(plan(before).plan().text());
  }

  @Test
  void aFilterBeforeAnAggregationLeavesItsUidAndPasses() {
    String filtered =
        "INSERT INTO totals SELECT customer, COUNT(*), SUM(amount) FROM events"
            + " WHERE CHAR_LENGTH(event_id) > 1 GROUP BY customer;";
    Planned before = plan(TOTALS);
    Planned after = plan(filtered);
    String aggregation = "default_catalog.default_database.totals/group-aggregate";
    assertThat(before.uids())
        .contains(aggregation)
        .noneMatch(u -> u != null && u.matches("\\d+_.*"));
    assertThat(after.uids()).contains(aggregation);
    PlanVerdict verdict = after.plan().restartFrom(before.plan().text());
    assertThat(verdict.problems()).isEmpty();
    assertThat(verdict.decidedOperators()).contains(aggregation);
  }

  @Test
  void aProjectionThatRenamesOrReordersTheKeyPasses() {
    String projected =
        "INSERT INTO totals SELECT c, COUNT(*), SUM(a) FROM"
            + " (SELECT amount AS a, UPPER(region) AS r, customer AS c FROM events) GROUP BY c;";
    assertThat(restart(TOTALS, projected).problems()).isEmpty();
  }

  @Test
  void anotherGroupByKeyIsRefusedNamingTheStatementAndOperator() {
    String byRegion =
        "INSERT INTO totals SELECT region, COUNT(*), SUM(amount) FROM events GROUP BY region;";
    assertThat(restart(TOTALS, byRegion).problems())
        .singleElement()
        .asString()
        .contains("INSERT INTO totals at q.sql:9:1")
        .contains("the aggregation GroupAggregate(groupBy=[region]")
        .contains("uid default_catalog.default_database.totals/group-aggregate")
        .contains("grouping keys from [events.customer VARCHAR(2147483647)] to [events.region");
  }

  @Test
  void anotherRowNumberDeduplicationKeyIsRefused() {
    String dedup =
        "INSERT INTO copies SELECT event_id, customer, amount FROM (SELECT *, ROW_NUMBER() OVER"
            + " (PARTITION BY %s ORDER BY pt) AS rn FROM (SELECT *, PROCTIME() AS pt FROM events))"
            + " WHERE rn = 1;";
    assertThat(restart(dedup.formatted("event_id"), dedup.formatted("customer")).problems())
        .singleElement()
        .asString()
        .contains("INSERT INTO copies")
        .contains("the deduplication")
        .contains("keys from [events.event_id");
  }

  @Test
  void aJoinAddedIsRefused() {
    String copy = "INSERT INTO copies SELECT event_id, customer, amount FROM events;";
    String joined =
        "INSERT INTO copies SELECT a.event_id, a.customer, b.amount FROM events a"
            + " JOIN events b ON a.event_id = b.event_id;";
    assertThat(restart(copy, joined).problems())
        .singleElement()
        .asString()
        .contains("INSERT INTO copies at q.sql:9:1: the join Join(joinType=[InnerJoin]")
        .contains("is new: the checkpoint holds no state for it");
  }

  @Test
  void anAggregationRemovedIsRefused() {
    String plain = "INSERT INTO totals SELECT customer, 1, amount FROM events;";
    assertThat(restart(TOTALS, plain).problems())
        .singleElement()
        .asString()
        .contains("the aggregation GroupAggregate(groupBy=[customer]")
        .contains("was removed: the state it keeps would be dropped");
  }

  @Test
  void anotherAggregateFunctionIsRefused() {
    String max =
        "INSERT INTO totals SELECT customer, COUNT(*), MAX(amount) FROM events GROUP BY customer;";
    assertThat(restart(TOTALS, max).problems())
        .singleElement()
        .asString()
        .contains("aggregates from [COUNT(), SUM(BIGINT)] to [COUNT(), MAX(BIGINT)]");
  }

  @Test
  void aStateTtlTurnedOnIsRefusedAndItsLengthMayChange() {
    String hour = "SET 'table.exec.state.ttl' = '1 h';\n";
    String day = "SET 'table.exec.state.ttl' = '1 d';\n";
    assertThat(restart(TOTALS, hour + TOTALS).problems())
        .singleElement()
        .asString()
        .contains("state TTL from [groupAggregateState without TTL]");
    assertThat(restart(hour + TOTALS, day + TOTALS).problems()).isEmpty();
  }

  @Test
  void anotherDropDuplicatesViewKeyIsRefused() {
    String view =
        "CREATE TEMPORARY VIEW unique_events AS SELECT * FROM"
            + " TABLE(DROP_DUPLICATES_WITHIN_WATERMARK(TABLE events, DESCRIPTOR(%s)));\n"
            + "INSERT INTO copies SELECT event_id, customer, amount FROM unique_events;";
    PlanVerdict verdict = restart(view.formatted("event_id"), view.formatted("customer"));
    assertThat(verdict.problems())
        .singleElement()
        .asString()
        .contains("CREATE TEMPORARY VIEW unique_events at q.sql:9:1")
        .contains("uid drop-duplicates-unique_events")
        .contains("now keys by [customer] instead of [event_id]");
    assertThat(verdict.decidedOperators()).contains("drop-duplicates-unique_events");
  }

  @Test
  void aNewStatementWithoutStatePasses() {
    String copy = "INSERT INTO copies SELECT event_id, customer, amount FROM events;";
    assertThat(restart(TOTALS, TOTALS + "\n" + copy).problems()).isEmpty();
  }
}
