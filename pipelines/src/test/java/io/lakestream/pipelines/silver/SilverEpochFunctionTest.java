package io.lakestream.pipelines.silver;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.operators.parse.DeadLetter;
import io.lakestream.pipelines.demo.Order;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The epoch function on real Delta tables without Flink: valid rows MERGE (newest order_ts wins,
 * also within one epoch), rejects go to the quarantine with their reason, and a replayed epoch
 * changes neither table.
 */
class SilverEpochFunctionTest {
  private static final Instant T = Instant.parse("2026-03-01T10:00:00Z");

  @TempDir Path dir;

  private static Object[] staged(SilverInput in) {
    return OrdersSilverTables.stagingRow(in);
  }

  private static SilverInput order(String event, String id, String amount, int secs) {
    return SilverInput.order(
        new Order(
            event,
            id,
            "c",
            amount == null ? null : new BigDecimal(amount),
            "EUR",
            T.plusSeconds(secs).toEpochMilli()));
  }

  @Test
  void mergesValidRowsQuarantinesRejectsAndSkipsReplays() throws Exception {
    DeltaTable silver = DeltaTable.forPath(dir.resolve("silver").toUri().toString());
    DeltaTable quarantine = DeltaTable.forPath(dir.resolve("quarantine").toUri().toString());
    SilverEpochFunction function = new SilverEpochFunction(silver, quarantine, "app");

    List<Object[]> epoch1 = new ArrayList<>();
    epoch1.add(staged(order("e1", "o-1", "10", 10)));
    epoch1.add(staged(order("e2", "o-1", "11", 20))); // newer version of o-1 in the same epoch
    epoch1.add(staged(order("e3", null, "5", 5)));
    epoch1.add(staged(order("e4", "o-2", "-1", 5)));
    epoch1.add(
        staged(SilverInput.malformed(new DeadLetter("{x", "not valid JSON", "orders/0@7", 0))));
    function.call(1, epoch1);

    List<Object[]> epoch2 = new ArrayList<>();
    epoch2.add(staged(order("e5", "o-1", "9", 15))); // older than the row in the table
    epoch2.add(staged(order("e6", "o-2", null, 30)));
    epoch2.add(
        staged(SilverInput.late(new Order("e7", "o-3", "c", BigDecimal.ONE, "EUR", 0), 3_600_000)));
    epoch2.add(staged(order("e8", "o-3", "3", 40)));
    function.call(2, epoch2);
    function.call(2, epoch2); // replay: skipped by both tables
    function.call(1, epoch1);

    List<String> silverRows = new ArrayList<>();
    for (Object[] row : new DeltaTableReader(silver).readLatest()) {
      silverRows.add(row[0] + "/" + row[1] + "/" + row[3]);
    }
    assertThat(silverRows).containsExactlyInAnyOrder("o-1/e2/11.00", "o-3/e8/3.00");

    List<String> rejects = new ArrayList<>();
    for (Object[] row : new DeltaTableReader(quarantine).readLatest()) {
      rejects.add(row[0] + "/" + row[1] + "/" + row[5] + "/" + row[3]);
    }
    assertThat(rejects)
        .containsExactlyInAnyOrder(
            "1/MISSING_ORDER_ID/e3/null",
            "1/NEGATIVE_AMOUNT/e4/null",
            "1/MALFORMED_RECORD/null/orders/0@7",
            "2/MISSING_AMOUNT/e6/null",
            "2/LATE_EVENT/e7/null");
    assertThat(silver.latestSnapshot().orElseThrow().getTableProperties())
        .containsEntry("delta.enableChangeDataFeed", "true");
    assertThat(Arrays.asList(OrdersSilverTables.QUARANTINE.columnNames().toArray()))
        .startsWith("epoch", "reason", "error");
  }

  @Test
  void anEpochCommittedOnlyToTheSilverTableIsCompletedByItsReplay() throws Exception {
    DeltaTable silver = DeltaTable.forPath(dir.resolve("silver").toUri().toString());
    DeltaTable quarantine = DeltaTable.forPath(dir.resolve("quarantine").toUri().toString());
    List<Object[]> epoch = new ArrayList<>();
    epoch.add(staged(order("e1", "o-1", "10", 10)));
    epoch.add(staged(order("e2", null, "5", 5)));

    // The state a crash between the MERGE and the quarantine append leaves: the MERGE of epoch 3
    // is committed (here with the quarantine rows sent to a scratch table), the append is not.
    DeltaTable scratch = DeltaTable.forPath(dir.resolve("scratch").toUri().toString());
    new SilverEpochFunction(silver, scratch, "app").call(3, epoch);
    long silverVersion = silver.latestSnapshot().orElseThrow().getVersion();

    new SilverEpochFunction(silver, quarantine, "app").call(3, epoch); // the replay

    assertThat(silver.latestSnapshot().orElseThrow().getVersion())
        .as("the MERGE was not committed again")
        .isEqualTo(silverVersion);
    assertThat(new DeltaTableReader(silver).readLatest()).hasSize(1);
    List<Object[]> rejects = new DeltaTableReader(quarantine).readLatest();
    assertThat(rejects).hasSize(1);
    assertThat(rejects.get(0)[1]).isEqualTo("MISSING_ORDER_ID");
  }
}
