package io.lakestream.pipelines.bronze;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.pipelines.PipelineOptions;
import io.lakestream.pipelines.SqlExample;
import io.lakestream.pipelines.silver.OrderEvents;
import io.lakestream.runtime.StreamingQuery;
import io.lakestream.runtime.StreamingQueryBuilder;
import io.lakestream.runtime.Trigger;
import io.lakestream.state.StateBackendSettings;
import io.lakestream.testkit.delta.DeltaLogTxns;
import io.lakestream.testkit.kafka.KafkaBrokerExtension;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The worked example E2 as SQL ({@code pipelines/sql/e2_bronze.sql}) against the Java pipeline
 * {@link OrdersBronze}, both on one topic in two availableNow runs (the second re-sends orders of
 * the first): the SQL bronze table equals the Java one row for row, each distinct order once, and
 * the SQL dead-letter table holds the records the Java pipeline's dead letters hold (by raw value
 * and position), records without a required field among them.
 */
class OrdersBronzeSqlITCase {
  @RegisterExtension static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");

  @TempDir Path dir;

  private static String order(int i) {
    return "{\"event_id\":\"e-"
        + i
        + "\",\"order_id\":\"o-"
        + i
        + "\",\"customer_id\":\"c-"
        + (i % 31)
        + "\",\"amount\":"
        + (i % 300)
        + ".25,\"currency\":\""
        + (i % 3 == 0 ? "EUR" : "USD")
        + "\",\"order_ts\":\""
        + T0.plusSeconds(i % 900)
        + "\"}";
  }

  /** Orders {@code from..to-1}, {@code resends} of earlier ones and records neither can read. */
  private static void produce(int from, int to, int resends, String tag, long seed)
      throws Exception {
    Random random = new Random(seed);
    List<String> values = new ArrayList<>();
    IntStream.range(from, to).forEach(i -> values.add(order(i)));
    random.ints(resends, 0, to).forEach(i -> values.add(order(i)));
    values.add("{\"event_id\":\"truncated-" + tag + "\"");
    values.add("[\"not an object " + tag + "\"]");
    values.add("{\"event_id\":\"no-ts-" + tag + "\",\"order_id\":\"o\",\"amount\":1.00}");
    values.add(
        "{\"event_id\":\"no-order-" + tag + "\",\"amount\":1.00,\"order_ts\":\"" + T0 + "\"}");
    values.add("{\"event_id\":\"bad-ts-" + tag + "\",\"order_id\":\"o\",\"order_ts\":\"noon\"}");
    Collections.shuffle(values, random);
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
                "300"));
    StreamingQuery query =
        StreamingQueryBuilder.of(new OrdersBronze().dataflow(options))
            .queryName("bronze")
            .checkpointLocation(dir.resolve("java/_checkpoints/bronze").toString())
            .trigger(Trigger.availableNow())
            .parallelism(2)
            .stateBackend(StateBackendSettings.defaults())
            .start();
    query.awaitTermination();
  }

  private StreamingQuery runSql() throws Exception {
    return SqlExample.of("e2_bronze.sql")
        .localized(dir.resolve("sql"), KAFKA.bootstrapServers())
        .replace("'maxOffsetsPerTrigger' = '500000'", "'maxOffsetsPerTrigger' = '300'")
        .run();
  }

  private static List<List<Object>> rows(Path table) throws IOException {
    List<List<Object>> rows = new ArrayList<>();
    for (Object[] row :
        new DeltaTableReader(DeltaTable.forPath(table.toUri().toString())).readLatest()) {
      rows.add(Arrays.asList(row));
    }
    rows.sort(Comparator.comparing(Object::toString));
    return rows;
  }

  /** The Java pipeline's dead letters (JSON lines) as "source|raw". */
  private List<String> javaDeadLetters() throws IOException {
    List<String> letters = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir.resolve("java/orders_bronze_dead_letters"))) {
      for (Path file : files.filter(f -> f.toString().endsWith(".jsonl")).toList()) {
        for (String line : Files.readAllLines(file)) {
          JsonNode letter = JSON.readTree(line);
          letters.add(letter.get("source").asText() + "|" + letter.get("raw").asText());
        }
      }
    }
    letters.sort(null);
    return letters;
  }

  /** The SQL dead-letter table as "source|raw". */
  private List<String> sqlDeadLetters() throws IOException {
    DeltaTableReader table =
        new DeltaTableReader(
            DeltaTable.forPath(dir.resolve("sql/orders_bronze_dead_letters").toUri().toString()));
    List<String> names = table.columnNames();
    List<String> letters = new ArrayList<>();
    for (Object[] row : table.readLatest()) {
      letters.add(row[names.indexOf("source")] + "|" + row[names.indexOf("raw")]);
    }
    letters.sort(null);
    return letters;
  }

  @Test
  void theSqlFileWritesTheTablesOfTheJavaPipeline() throws Exception {
    KAFKA.createTopic("orders", 3);
    produce(0, 700, 80, "a", 1);
    runJava();
    StreamingQuery first = runSql();
    produce(700, 1000, 60, "b", 2); // re-sends of the first run's orders among them
    runJava();
    StreamingQuery second = runSql();

    List<List<Object>> sql = rows(dir.resolve("sql/orders_bronze"));
    assertThat(sql).hasSize(1000).isEqualTo(rows(dir.resolve("java/orders_bronze")));
    assertThat(sqlDeadLetters()).hasSize(10).isEqualTo(javaDeadLetters());
    assertThat(sqlDeadLetters())
        .anyMatch(letter -> letter.contains("no-ts-a"))
        .anyMatch(letter -> letter.contains("no-order-b"));
    DeltaLogTxns log = DeltaLogTxns.read(dir.resolve("sql/orders_bronze")).assertEachEpochOnce();
    assertThat(log.appIds()).containsExactly(first.appId());
    assertThat(second.appId()).isEqualTo(first.appId());
  }
}
