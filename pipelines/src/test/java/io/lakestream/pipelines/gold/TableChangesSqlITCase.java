package io.lakestream.pipelines.gold;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.connectors.delta.cdf.DeltaChangeDataFeed;
import io.lakestream.pipelines.SqlExample;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The worked example E4c as SQL ({@code pipelines/sql/e4c_table_changes.sql}, {@code
 * table_changes('orders_silver', 70, 75)}): over a silver table written by MERGE versions (inserts,
 * updates, deletes), the file writes exactly the change rows {@link DeltaChangeDataFeed} (what
 * {@code lakestream table-changes} prints) returns for the same version range, row for row, none of
 * the versions around it; a second run on its checkpoint adds nothing.
 */
class TableChangesSqlITCase {
  @TempDir Path dir;

  @Test
  void theSqlFileWritesTheChangeRowsOfTheRange() throws Exception {
    SilverOrders silver = new SilverOrders(dir.resolve("orders_silver").toUri().toString(), 7);
    silver.commit(40, 0, 0);
    long from = silver.commit(10, 15, 5);
    silver.commit(5, 10, 10);
    long to = silver.commit(0, 5, 5);
    silver.commit(20, 0, 0); // after the range
    SqlExample example =
        SqlExample.of("e4c_table_changes.sql")
            .localized(dir, null)
            .replace(
                "'startingVersion' = '70', 'endingVersion' = '75'",
                "'startingVersion' = '" + from + "', 'endingVersion' = '" + to + "'");
    // silver: order_id, order_ts, customer_id, amount, updated_at, then the metadata columns
    List<List<Object>> expected =
        DeltaChangeDataFeed.tableChanges(silver.table, from, to).stream()
            .map(r -> Arrays.asList(r[0], r[2], r[3], r[1], r[5], r[6], r[7]))
            .toList();
    assertThat(expected)
        .extracting(row -> row.get(4))
        .contains("insert", "update_preimage", "update_postimage", "delete");

    example.run();
    assertThat(changes()).containsExactlyInAnyOrderElementsOf(expected);
    example.run();
    assertThat(changes()).as("after a second run").containsExactlyInAnyOrderElementsOf(expected);
  }

  private List<List<Object>> changes() throws Exception {
    DeltaTable table =
        DeltaTable.forPath(dir.resolve("orders_silver_changes_70_75").toUri().toString());
    return new DeltaTableReader(table).readLatest().stream().map(Arrays::asList).toList();
  }
}
