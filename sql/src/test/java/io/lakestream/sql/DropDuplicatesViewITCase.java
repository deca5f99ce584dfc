package io.lakestream.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.delta.DeltaAppendCommit;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.DeltaTableWriter;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.runtime.StreamingQuery;
import io.lakestream.runtime.StreamingQueryBuilder;
import io.lakestream.runtime.Trigger;
import io.lakestream.state.StateBackendSettings;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code DROP_DUPLICATES_WITHIN_WATERMARK} in a SQL query over a Delta table read one version per
 * epoch: a duplicate within the watermark delay of its key's first row is dropped, also after a
 * restart from the first run's savepoint (the key's state survives); once the watermark has passed
 * the key's first event time plus the delay, the key's next row passes again (the key was freed); a
 * row behind the watermark is dropped as late. The output is checked row for row.
 */
class DropDuplicatesViewITCase {
  private static final DeltaTableSchema EVENTS =
      DeltaTableSchema.builder()
          .column("event_id", ColumnType.STRING, false)
          .column("amount", ColumnType.LONG)
          .column("ts", ColumnType.TIMESTAMP, false)
          .build();
  private static final Instant T0 = Instant.parse("2026-06-01T12:00:00Z");

  @TempDir Path dir;

  private static Object[] event(String id, long amount, long second) {
    return new Object[] {id, amount, T0.plusSeconds(second)};
  }

  private void appendVersion(DeltaTable input, long version, Object[]... rows) throws Exception {
    DeltaTableWriter writer = new DeltaTableWriter(input, EVENTS);
    DeltaAppendCommit commit = new DeltaAppendCommit(input, EVENTS, "producer");
    commit.open();
    commit.commit(version, writer.write(List.of(rows)));
  }

  private StreamingQuery run(DeltaTable input, String out) throws Exception {
    String script =
        """
        CREATE TABLE events (
          event_id STRING NOT NULL, amount BIGINT, ts TIMESTAMP_LTZ(3) NOT NULL,
          WATERMARK FOR ts AS ts - INTERVAL '10' SECOND
        ) WITH ('connector' = 'delta', 'path' = '%s', 'maxFilesPerTrigger' = '1');
        CREATE TEMPORARY VIEW unique_events AS
        SELECT * FROM TABLE(DROP_DUPLICATES_WITHIN_WATERMARK(TABLE events, DESCRIPTOR(event_id)));
        CREATE TABLE out_events (event_id STRING NOT NULL, amount BIGINT, ts TIMESTAMP_LTZ(6))
        WITH ('connector' = 'delta', 'path' = '%s');
        INSERT INTO out_events SELECT event_id, amount, ts FROM unique_events;
        """
            .formatted(input.path(), out);
    StreamingQuery query =
        StreamingQueryBuilder.of(SqlDataflow.of(script))
            .queryName("sql-dedup")
            .checkpointLocation(dir.resolve("checkpoint").toString())
            .trigger(Trigger.availableNow())
            .parallelism(1) // one reader: a second, idle one would hold the watermark back
            .stateBackend(StateBackendSettings.defaults())
            .start();
    query.awaitTermination();
    return query;
  }

  private static List<String> rows(String table) {
    List<String> rows = new ArrayList<>();
    for (Object[] row : new DeltaTableReader(DeltaTable.forPath(table)).readLatest()) {
      rows.add(row[0] + "/" + row[1] + "@" + ((Instant) row[2]).getEpochSecond() % 3600);
    }
    return rows;
  }

  @Test
  void duplicatesWithinTheDelayAreDroppedAcrossARestartAndAFreedKeyPassesAgain() throws Exception {
    DeltaTable input = DeltaTable.forPath(dir.resolve("events").toUri().toString());
    String out = dir.resolve("out").toUri().toString();
    appendVersion(input, 1, event("a", 1, 0), event("b", 2, 1), event("a", 3, 2));
    appendVersion(input, 2, event("a", 4, 5), event("c", 5, 30));
    run(input, out);
    assertThat(rows(out)).containsExactlyInAnyOrder("a/1@0", "b/2@1", "c/5@30");

    // the restarted query resumes at the first run's watermark, 20 s (c at 30 s - 10 s): b at
    // 3 s and e at 15 s are behind it, late, dropped (b's key, bound 11 s, was freed at the
    // end of the epoch that passed it); a's key was freed too (bound 10 s), so a/8 passes and
    // a/9, a duplicate of it within the delay, is dropped
    appendVersion(
        input,
        3,
        event("b", 6, 3),
        event("d", 7, 60),
        event("a", 8, 61),
        event("a", 9, 62),
        event("e", 10, 15));
    run(input, out);
    assertThat(rows(out)).containsExactlyInAnyOrder("a/1@0", "b/2@1", "c/5@30", "d/7@60", "a/8@61");
  }
}
