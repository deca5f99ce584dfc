package io.lakestream.sql.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.connectors.delta.DeltaAppendCommit;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.DeltaTableWriter;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.runtime.StreamingQueryBuilder;
import io.lakestream.runtime.Trigger;
import io.lakestream.sql.SqlDataflow;
import io.lakestream.state.StateBackendSettings;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Delta catalog: databases as directories, a table written by another writer showing up with
 * its schema, CREATE TABLE making a Delta table with its key, partitioning and properties, a query
 * of the runtime upserting into it, time travel, ALTER TABLE ADD, and DROP TABLE keeping the data.
 */
class DeltaCatalogITCase {
  private static final DeltaTableSchema RAW =
      DeltaTableSchema.builder()
          .column("id", ColumnType.LONG, false)
          .column("customer", ColumnType.STRING)
          .column("amount", ColumnType.decimal(12, 2))
          .column("day", ColumnType.DATE)
          .build();

  @TempDir Path dir;

  private String catalog() {
    return "CREATE CATALOG lake WITH ('type' = 'delta', 'warehouse' = '"
        + dir.resolve("lake").toUri()
        + "');\n";
  }

  private static Object[] raw(long id) {
    return new Object[] {
      id % 20,
      "c" + (id % 20 % 3),
      BigDecimal.valueOf(id, 1).setScale(2),
      LocalDate.of(2026, 5, 1 + (int) (id % 2))
    };
  }

  private void writeRaw() throws Exception {
    DeltaTable table = DeltaTable.forPath(dir.resolve("lake/bronze/raw_orders").toUri().toString());
    DeltaAppendCommit commit = new DeltaAppendCommit(table, RAW, "another-writer");
    commit.open();
    List<Object[]> rows = new ArrayList<>();
    for (long id = 0; id < 50; id++) {
      rows.add(raw(id));
    }
    commit.commit(1, new DeltaTableWriter(table, RAW).write(rows));
  }

  private static List<Row> collect(TableEnvironment tables, String query) throws Exception {
    List<Row> rows = new ArrayList<>();
    try (CloseableIterator<Row> it = tables.executeSql(query).collect()) {
      it.forEachRemaining(rows::add);
    }
    return rows;
  }

  @Test
  void createsReadsWritesTravelsAltersAndDropsDeltaTables() throws Exception {
    Files.createDirectories(dir.resolve("lake/bronze"));
    writeRaw();
    TableEnvironment batch = TableEnvironment.create(EnvironmentSettings.inBatchMode());
    batch.getConfig().set("table.local-time-zone", "UTC");
    batch.executeSql(catalog());
    batch.executeSql("USE CATALOG lake");
    assertThat(collect(batch, "SHOW DATABASES"))
        .containsExactly(Row.of("bronze"), Row.of("default"));
    assertThat(collect(batch, "SHOW TABLES IN bronze")).containsExactly(Row.of("raw_orders"));
    ResolvedSchema rawOrders = batch.from("bronze.raw_orders").getResolvedSchema();
    assertThat(rawOrders.getColumnNames()).containsExactly("id", "customer", "amount", "day");
    assertThat(rawOrders.getColumnDataTypes().get(2).toString()).isEqualTo("DECIMAL(12, 2)");

    batch.executeSql(
        "CREATE TABLE bronze.orders (id BIGINT NOT NULL, customer STRING, total DECIMAL(38, 2),"
            + " PRIMARY KEY (id) NOT ENFORCED) PARTITIONED BY (customer)"
            + " WITH ('delta.enableChangeDataFeed' = 'true')");
    DeltaTable orders = DeltaTable.forPath(dir.resolve("lake/bronze/orders").toUri().toString());
    assertThat(orders.latestSnapshot().orElseThrow().getTableProperties())
        .containsEntry("delta.enableChangeDataFeed", "true")
        .containsEntry(DeltaCatalog.PRIMARY_KEY_PROPERTY, "id");
    assertThat(
            batch
                .from("bronze.orders")
                .getResolvedSchema()
                .getPrimaryKey()
                .orElseThrow()
                .getColumns())
        .containsExactly("id");
    Instant beforeWrite = Instant.now();
    Thread.sleep(20);

    StreamingQueryBuilder.of(
            SqlDataflow.of(
                catalog()
                    + "INSERT INTO lake.bronze.orders"
                    + " SELECT id, customer, SUM(amount) FROM lake.bronze.raw_orders"
                    + " /*+ OPTIONS('maxFilesPerTrigger' = '1') */ GROUP BY id, customer"))
        .queryName("catalog-upsert")
        .checkpointLocation(dir.resolve("checkpoint").toString())
        .trigger(Trigger.availableNow())
        .parallelism(2)
        .stateBackend(StateBackendSettings.defaults())
        .start()
        .awaitTermination();
    assertThat(collect(batch, "SELECT COUNT(*), SUM(total) FROM bronze.orders"))
        .containsExactly(Row.of(20L, new BigDecimal("122.50")));
    String before =
        DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS")
            .format(beforeWrite.atOffset(ZoneOffset.UTC));
    assertThat(
            collect(
                batch,
                "SELECT COUNT(*) FROM bronze.orders FOR SYSTEM_TIME AS OF TIMESTAMP '"
                    + before
                    + "'"))
        .containsExactly(Row.of(0L));

    batch.executeSql("ALTER TABLE bronze.orders ADD note STRING");
    assertThat(batch.from("bronze.orders").getResolvedSchema().getColumnNames())
        .containsExactly("id", "customer", "total", "note");

    assertThatThrownBy(
            () ->
                batch.executeSql(
                    "CREATE TABLE bronze.bad (id BIGINT) WITH ('maxFilesPerTrigger' = '2')"))
        .rootCause()
        .hasMessageContaining("'maxFilesPerTrigger' is not a table property")
        .hasMessageContaining("OPTIONS(");

    batch.executeSql("DROP TABLE bronze.orders");
    assertThat(collect(batch, "SHOW TABLES IN bronze")).containsExactly(Row.of("raw_orders"));
    try (var dropped = Files.list(dir.resolve("lake/bronze/_dropped"))) {
      Path kept = dropped.findFirst().orElseThrow();
      assertThat(kept.getFileName().toString()).startsWith("orders-");
      assertThat(kept.resolve("_delta_log")).isDirectory();
    }
  }
}
