package io.lakestream.pipelines.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.delta.DeltaAppendCommit;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.DeltaTableWriter;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.state.checkpoint.CheckpointLocation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code lakestream sql -f} runs a script embedded, twice on one checkpoint location: the command
 * line's trigger, query name and checkpoint location win over the script's {@code SET}s (the
 * script's processingTime=1h would never end the run), and the second run resumes the first's
 * aggregation state. The query's plan is kept in the location.
 */
class SqlCommandITCase {
  private static final DeltaTableSchema ORDERS =
      DeltaTableSchema.builder()
          .column("customer", ColumnType.STRING, false)
          .column("amount", ColumnType.LONG)
          .build();

  @TempDir Path dir;

  private void append(DeltaTable table, long version, Object[]... rows) throws Exception {
    DeltaAppendCommit commit = new DeltaAppendCommit(table, ORDERS, "producer");
    commit.open();
    commit.commit(version, new DeltaTableWriter(table, ORDERS).write(List.of(rows)));
  }

  private Map<String, Long> totals() {
    Map<String, Long> totals = new TreeMap<>();
    for (Object[] row :
        new DeltaTableReader(DeltaTable.forPath(dir.resolve("totals").toUri().toString()))
            .readLatest()) {
      totals.put((String) row[0], (Long) row[1]);
    }
    return totals;
  }

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void theCommandLineWinsOverTheScriptAndASecondRunResumes() throws Exception {
    DeltaTable orders = DeltaTable.forPath(dir.resolve("orders").toUri().toString());
    append(orders, 1, new Object[] {"c1", 5L}, new Object[] {"c2", 7L}, new Object[] {"c1", 1L});
    Path script =
        Files.writeString(
            dir.resolve("gold.sql"),
            """
            -- running totals per customer
            SET 'lakestream.trigger' = 'processingTime=1h';
            SET 'lakestream.queryName' = 'from_the_file';
            SET 'lakestream.checkpointLocation' = '%s';
            CREATE TABLE orders (customer STRING NOT NULL, amount BIGINT)
              WITH ('connector' = 'delta', 'path' = '%s');
            CREATE TABLE totals (customer STRING NOT NULL, total BIGINT,
              PRIMARY KEY (customer) NOT ENFORCED)
              WITH ('connector' = 'delta', 'path' = '%s');
            INSERT INTO totals SELECT customer, SUM(amount) FROM orders GROUP BY customer;
            """
                .formatted(dir.resolve("unused"), orders.path(), dir.resolve("totals").toUri()));
    Path location = dir.resolve("checkpoint");
    String[] run = {
      "sql",
      "-f",
      script.toString(),
      "--checkpoint-location",
      location.toString(),
      "--trigger",
      "availableNow",
      "--name",
      "gold",
      "--parallelism",
      "1"
    };

    assertThat(LakestreamCli.execute(run)).isZero();
    assertThat(totals()).isEqualTo(Map.of("c1", 6L, "c2", 7L));
    CheckpointLocation checkpoint = new CheckpointLocation(location.toUri());
    assertThat(checkpoint.readMetadata().orElseThrow().queryName()).isEqualTo("gold");
    assertThat(Files.exists(dir.resolve("unused"))).isFalse();
    try (Stream<Path> plans = Files.list(location.resolve("plans"))) {
      assertThat(plans.toList()).singleElement().asString().endsWith(".json");
    }

    append(orders, 2, new Object[] {"c2", 3L}, new Object[] {"c3", 4L});
    run[6] = "once";
    assertThat(LakestreamCli.execute(run)).isZero();
    assertThat(totals()).isEqualTo(Map.of("c1", 6L, "c2", 10L, "c3", 4L));
  }
}
