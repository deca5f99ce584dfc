package io.lakestream.pipelines.demo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.pipelines.cli.LakestreamCli;
import io.lakestream.testkit.delta.DeltaLogTxns;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the demo through the CLI, embedded, three times on one output (availableNow: half the rows,
 * nothing new, all rows) and checks each layer of the medallion against {@link DemoOrdersModel} row
 * for row: bronze every event once (no event id twice, though the generator repeats events),
 * malformed records as dead letters, silver one row per order, an empty quarantine, gold the daily
 * totals of silver, the PostgreSQL table of the Lakebase stage equal to gold row for row; that the
 * run without new input writes nothing (Delta and PostgreSQL); that each run stops its PostgreSQL
 * server; and bronze's Delta log (one version per epoch, each with the query's txn).
 */
class OrdersDemoITCase {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final int ROWS = 3_000;
  private static final List<String> QUERIES =
      List.of("demo", "demo-silver", "demo-gold", "demo-lakebase");
  private static final List<String> TABLES =
      List.of("orders", "orders_silver", "orders_silver_quarantine", "orders_gold_daily");

  @TempDir Path output;

  private int runDemo(long rows) {
    return LakestreamCli.execute(
        "run",
        "demo",
        "--rows",
        Long.toString(rows),
        "--rows-per-second",
        "0",
        "--max-rows-per-trigger",
        "700",
        "--output",
        output.toString());
  }

  @Test
  void availableNowRunsResumeAndEveryLayerEqualsTheModel() throws Exception {
    assertThat(runDemo(ROWS / 2)).isZero();
    assertLayers(DemoOrdersModel.of(ROWS / 2, 1000));
    List<String> lakebaseAfterFirstRun = assertLakebaseEqualsGold();
    String watermarkAfterFirstRun = lastOrdersWatermark();
    assertThat(watermarkAfterFirstRun).isNotEmpty();
    Map<String, Long> versions = versions();
    Map<String, Long> epochs = lastEpochs();

    assertThat(runDemo(ROWS / 2)).as("a second run without new input does nothing").isZero();
    assertThat(versions()).as("no table gets a new version").isEqualTo(versions);
    assertThat(assertLakebaseEqualsGold())
        .as("the PostgreSQL table is unchanged")
        .isEqualTo(lakebaseAfterFirstRun);
    for (String query : QUERIES) {
      assertThat(inputRowsAfter(query, epochs.get(query))).as("rows %s read", query).isZero();
    }
    assertThat(lastOrdersWatermark())
        .as("the watermark survives the stop with savepoint")
        .isEqualTo(watermarkAfterFirstRun);

    assertThat(runDemo(ROWS)).isZero();
    DemoOrdersModel model = DemoOrdersModel.of(ROWS, 1000);
    assertLayers(model);
    assertLakebaseEqualsGold();
    assertThat(model.duplicates()).as("the generator repeats events").isPositive();
    DemoSummary summary =
        DemoSummary.read(output.toUri(), output.resolve("_checkpoints/demo").toString());
    assertThat(summary.duplicatesDropped()).isEqualTo(model.duplicates());
    assertThat(summary.bronzeDuplicateEventIds()).isZero();
    DeltaLogTxns log = DeltaLogTxns.read(output.resolve("orders")).assertEachEpochOnce();
    assertThat(log.appIds()).as("app ids of the orders table's txns").hasSize(1);
    log.assertVersionPerEpoch(
        log.appIds().get(0), output.resolve("_checkpoints/demo"), "orders-sink");
  }

  private void assertLayers(DemoOrdersModel model) throws IOException {
    List<String> bronze = rows("orders");
    assertThat(bronze).containsExactlyInAnyOrderElementsOf(model.bronzeRows());
    List<Object> eventIds = read("orders").stream().map(r -> r[0]).toList();
    assertThat(new HashSet<>(eventIds)).as("no event id twice in bronze").hasSize(eventIds.size());

    List<String> deadRaw = new ArrayList<>();
    for (String line : readLines(output.resolve("orders_dead_letters"))) {
      JsonNode node = MAPPER.readTree(line);
      assertThat(node.get("error").asText()).startsWith("not valid JSON");
      deadRaw.add(node.get("raw").asText());
    }
    assertThat(deadRaw).containsExactlyInAnyOrderElementsOf(model.deadLetterRaws()).isNotEmpty();

    assertThat(rows("orders_silver")).containsExactlyInAnyOrderElementsOf(model.silverRows());
    assertThat(read("orders_silver_quarantine")).isEmpty();

    Map<LocalDate, List<Object>> gold = new TreeMap<>();
    for (Object[] row : read("orders_gold_daily")) {
      gold.put((LocalDate) row[0], List.of(row[1], row[2]));
    }
    assertThat(gold).as("gold = silver's daily totals").isEqualTo(silverTotals());
    assertThat(gold).as("gold = the model's daily totals").isEqualTo(model.goldTotals());
  }

  /**
   * Checks that the run stopped the demo's PostgreSQL server, then starts it on its data directory
   * and checks that its table equals the Delta gold table row for row (order_date, orders,
   * total_amount, silver_version, change_rows); returns those rows.
   */
  private List<String> assertLakebaseEqualsGold() throws Exception {
    Path data = output.resolve(DemoPostgres.DIRECTORY).resolve("data");
    assertThat(data.resolve("PG_VERSION")).as("the demo's PostgreSQL data directory").exists();
    assertThat(data.resolve("postmaster.pid")).as("the server stopped with the run").doesNotExist();
    List<String> postgres = new ArrayList<>();
    try (DemoPostgres server = DemoPostgres.start(output);
        Connection connection = server.connect();
        Statement statement = connection.createStatement();
        ResultSet rows =
            statement.executeQuery(
                "SELECT order_date, orders, total_amount, silver_version, change_rows FROM"
                    + " public.orders_gold_daily ORDER BY order_date")) {
      while (rows.next()) {
        postgres.add(
            Arrays.asList(
                    rows.getObject(1, LocalDate.class),
                    rows.getLong(2),
                    rows.getBigDecimal(3),
                    rows.getLong(4),
                    rows.getLong(5))
                .toString());
      }
    }
    List<String> gold =
        read("orders_gold_daily").stream()
            .sorted(Comparator.comparing(r -> (LocalDate) r[0]))
            .map(Arrays::toString)
            .toList();
    assertThat(postgres)
        .as("PostgreSQL orders_gold_daily = Delta gold")
        .isEqualTo(gold)
        .isNotEmpty();
    return postgres;
  }

  /** Orders and total amount per order day, computed from the silver table's rows. */
  private Map<LocalDate, List<Object>> silverTotals() throws IOException {
    Map<LocalDate, List<Object>> totals = new TreeMap<>();
    for (Object[] row : read("orders_silver")) {
      LocalDate day = LocalDate.ofInstant((Instant) row[5], ZoneOffset.UTC);
      List<Object> t = totals.getOrDefault(day, List.of(0L, BigDecimal.ZERO.setScale(2)));
      totals.put(
          day, List.of((Long) t.get(0) + 1, ((BigDecimal) t.get(1)).add((BigDecimal) row[3])));
    }
    return totals;
  }

  private Map<String, Long> versions() {
    Map<String, Long> versions = new LinkedHashMap<>();
    for (String table : TABLES) {
      versions.put(table, reader(table).latestVersion());
    }
    return versions;
  }

  private Map<String, Long> lastEpochs() throws IOException {
    Map<String, Long> epochs = new LinkedHashMap<>();
    for (String query : QUERIES) {
      try (Stream<Path> files = Files.list(output.resolve("_checkpoints/" + query + "/progress"))) {
        epochs.put(
            query,
            files.mapToLong(p -> Long.parseLong(p.getFileName().toString())).max().orElseThrow());
      }
    }
    return epochs;
  }

  /** Rows the query read in its epochs after {@code afterEpoch}, from its {@code progress/}. */
  private long inputRowsAfter(String query, long afterEpoch) throws IOException {
    long rows = 0;
    try (Stream<Path> files = Files.list(output.resolve("_checkpoints/" + query + "/progress"))) {
      for (Path epoch : files.toList()) {
        if (Long.parseLong(epoch.getFileName().toString()) > afterEpoch) {
          rows += MAPPER.readTree(epoch.toFile()).path("numInputRows").asLong();
        }
      }
    }
    return rows;
  }

  /** The watermark in the orders sink's commit record of the last epoch. */
  private String lastOrdersWatermark() throws IOException {
    Path commits = output.resolve("_checkpoints/demo/commits");
    long last;
    try (Stream<Path> epochs = Files.list(commits)) {
      last = epochs.mapToLong(p -> Long.parseLong(p.getFileName().toString())).max().orElseThrow();
    }
    JsonNode commit = MAPPER.readTree(commits.resolve(last + "/orders-sink").toFile());
    return commit.path("watermark").asText("");
  }

  private DeltaTableReader reader(String table) {
    return new DeltaTableReader(DeltaTable.forPath(output.resolve(table).toUri().toString()));
  }

  private List<Object[]> read(String table) {
    return reader(table).readLatest();
  }

  private List<String> rows(String table) {
    return read(table).stream().map(Arrays::toString).toList();
  }

  private static List<String> readLines(Path dir) throws IOException {
    List<String> lines = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path file : files.filter(p -> p.toString().endsWith(".jsonl")).toList()) {
        lines.addAll(Files.readAllLines(file));
      }
    }
    return lines;
  }
}
