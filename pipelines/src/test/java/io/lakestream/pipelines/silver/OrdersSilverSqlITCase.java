package io.lakestream.pipelines.silver;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.pipelines.LakehouseInput;
import io.lakestream.pipelines.PipelineOptions;
import io.lakestream.pipelines.SqlExample;
import io.lakestream.pipelines.silver.OrderEvents.Event;
import io.lakestream.runtime.StreamingQuery;
import io.lakestream.runtime.StreamingQueryBuilder;
import io.lakestream.runtime.Trigger;
import io.lakestream.state.StateBackendSettings;
import io.lakestream.testkit.delta.DeltaLogTxns;
import io.lakestream.testkit.kafka.KafkaBrokerExtension;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The worked example E3 as SQL ({@code pipelines/sql/e3_silver.sql}) against the Java pipeline
 * {@link OrdersSilver}, both on one topic in two availableNow runs: several versions per order
 * arriving out of order and across runs, duplicates, null order ids, negative and null amounts,
 * malformed records, and late events in the second run. The SQL silver table equals the Java one
 * row for row (per order its newest valid version); the SQL quarantine holds the Java quarantine's
 * rejects of valid JSON with the same reasons and messages; the Java quarantine's malformed records
 * are the SQL dead letters; and the late events the Java pipeline quarantines are the rows the SQL
 * deduplication reports dropped behind the watermark (the documented difference).
 */
class OrdersSilverSqlITCase {
  @RegisterExtension static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

  @TempDir Path dir;

  private static void produce(List<Event> events, List<Event> resend, String tag, List<Event> late)
      throws Exception {
    List<String> values = new ArrayList<>();
    events.forEach(e -> values.add(e.json()));
    resend.forEach(e -> values.add(e.json()));
    values.addAll(OrderEvents.malformed(tag));
    Collections.shuffle(values, new Random(tag.hashCode()));
    late.forEach(e -> values.add(e.json()));
    OrderEvents.produce(KAFKA.bootstrapServers(), "orders", 3, values);
  }

  private void runJava() throws Exception {
    PipelineOptions options =
        new PipelineOptions(
            dir.resolve("java").toUri(),
            0,
            0,
            0,
            Map.of(
                "kafka.bootstrap.servers",
                KAFKA.bootstrapServers(),
                "subscribe",
                "orders",
                "maxOffsetsPerTrigger",
                "100"));
    StreamingQueryBuilder.of(new OrdersSilver().dataflow(options))
        .queryName("silver")
        .checkpointLocation(dir.resolve("java/_checkpoints/silver").toString())
        .trigger(Trigger.availableNow())
        .parallelism(2)
        .stateBackend(StateBackendSettings.defaults())
        .start()
        .awaitTermination();
  }

  private StreamingQuery runSql() throws Exception {
    return SqlExample.of("e3_silver.sql")
        .localized(dir.resolve("sql"), KAFKA.bootstrapServers())
        .replace("'format' = 'json',", "'format' = 'json', 'maxOffsetsPerTrigger' = '100',")
        .run();
  }

  private DeltaTable table(String path) {
    return DeltaTable.forPath(dir.resolve(path).toUri().toString());
  }

  /** Rows of a table as lists, sorted, the columns given by name. */
  private List<List<Object>> rows(String path, List<String> columns) throws Exception {
    DeltaTableReader table = new DeltaTableReader(table(path));
    List<String> names = table.columnNames();
    List<List<Object>> rows = new ArrayList<>();
    for (Object[] row : table.readLatest()) {
      List<Object> picked = new ArrayList<>();
      columns.forEach(c -> picked.add(row[names.indexOf(c)]));
      rows.add(picked);
    }
    return OrderEvents.sorted(rows);
  }

  @Test
  void theSqlFileWritesTheTablesOfTheJavaPipeline() throws Exception {
    KAFKA.createTopic("orders", 3);
    Random random = new Random(5);
    List<Event> all = new ArrayList<>(OrderEvents.versions(90));
    Collections.shuffle(all, random); // versions of an order arrive out of order, across runs
    List<Event> first = all.subList(0, all.size() * 2 / 3);
    List<Event> late = OrderEvents.late(4);
    produce(first, LakehouseInput.sample(first, 30, random), "a", List.of());
    runJava();
    runSql();
    produce(
        all.subList(first.size(), all.size()), LakehouseInput.sample(all, 30, random), "b", late);
    runJava();
    runSql();

    Map<String, List<Object>> silver = OrderEvents.silver(table("sql/orders_silver"));
    assertThat(silver)
        .isEqualTo(OrderEvents.silverModel(all))
        .isEqualTo(OrderEvents.silver(table("java/orders_silver")));

    List<String> rejectColumns =
        List.of(
            "reason",
            "error",
            "event_id",
            "order_id",
            "customer_id",
            "amount",
            "currency",
            "order_ts");
    List<List<Object>> java = rows("java/orders_silver_quarantine", rejectColumns);
    List<List<Object>> sql = rows("sql/orders_silver_quarantine", rejectColumns);
    assertThat(sql)
        .isNotEmpty()
        .isEqualTo(
            java.stream()
                .filter(r -> !r.get(0).equals("MALFORMED_RECORD") && !r.get(0).equals("LATE_EVENT"))
                .toList());
    assertThat(rows("sql/orders_silver_dead_letters", List.of("source", "raw")))
        .hasSize(10)
        .isEqualTo(
            rows("java/orders_silver_quarantine", List.of("reason", "source", "raw")).stream()
                .filter(r -> r.get(0).equals("MALFORMED_RECORD"))
                .map(r -> r.subList(1, 3))
                .toList());
    assertThat(java.stream().filter(r -> r.get(0).equals("LATE_EVENT")).count()).isEqualTo(4);
    assertThat(sql.toString() + silver + rows("sql/orders_silver_dead_letters", List.of("raw")))
        .as("the late events, dropped by the SQL deduplication")
        .doesNotContain("late-");

    DeltaLogTxns.read(dir.resolve("sql/orders_silver")).assertEachEpochOnce();
    DeltaLogTxns.read(dir.resolve("sql/orders_silver_quarantine")).assertEachEpochOnce();
  }
}
