package io.lakestream.pipelines.demo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.connectors.rate.OrderEventGenerator;
import io.lakestream.pipelines.cli.LakestreamCli;
import io.lakestream.testkit.delta.DeltaLogTxns;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the demo through the CLI, embedded, three times on one checkpoint location (availableNow:
 * half the rows, nothing new, all rows) and checks its tables row for row, and its Delta log: one
 * version per epoch, each with the query's txn.
 */
class OrdersDemoITCase {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final int ROWS = 3_000;

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
  void availableNowRunsResumeAndWriteEveryOrderOnceAndEveryMalformedOneAsADeadLetter()
      throws Exception {
    assertThat(runDemo(ROWS / 2)).isZero();
    assertThat(readOrders()).hasSizeLessThan(ROWS / 2 + 1);
    String watermarkAfterFirstRun = lastOrdersWatermark();
    assertThat(watermarkAfterFirstRun).isNotEmpty();
    assertThat(runDemo(ROWS / 2)).as("a second run without new input does nothing").isZero();
    assertThat(lastOrdersWatermark())
        .as("the watermark survives the stop with savepoint")
        .isEqualTo(watermarkAfterFirstRun);
    assertThat(runDemo(ROWS)).isZero();

    OrderEventGenerator generator =
        new OrderEventGenerator(
            OrdersDemo.EVENT_TIME_START.toEpochMilli(),
            1000,
            OrdersDemo.DUPLICATE_EVERY,
            OrdersDemo.MALFORMED_EVERY);
    OrderJson json = new OrderJson();
    List<String> expectedOrders = new ArrayList<>();
    List<String> expectedDead = new ArrayList<>();
    for (long i = 0; i < ROWS; i++) {
      String raw = generator.map(i);
      try {
        expectedOrders.add(Arrays.toString(OrdersDemo.toDeltaRow(json.parse(raw))));
      } catch (Exception e) {
        expectedDead.add(raw);
      }
    }

    assertThat(readOrders()).containsExactlyInAnyOrderElementsOf(expectedOrders);
    List<String> deadRaw = new ArrayList<>();
    for (String line : readLines(output.resolve("orders_dead_letters"))) {
      JsonNode node = MAPPER.readTree(line);
      assertThat(node.get("error").asText()).startsWith("not valid JSON");
      deadRaw.add(node.get("raw").asText());
    }
    assertThat(deadRaw).containsExactlyInAnyOrderElementsOf(expectedDead).isNotEmpty();
    // the generator's producer retries reach the table as duplicates (no dedup in this demo)
    assertThat(expectedOrders.size() - new HashSet<>(expectedOrders).size()).isPositive();
    assertThat(output.resolve("orders/_delta_log")).isNotEmptyDirectory();
    DeltaLogTxns log = DeltaLogTxns.read(output.resolve("orders")).assertEachEpochOnce();
    assertThat(log.appIds()).as("app ids of the orders table's txns").hasSize(1);
    log.assertVersionPerEpoch(
        log.appIds().get(0), output.resolve("_checkpoints/demo"), "orders-sink");
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

  /** The orders Delta table's rows, read with Delta Kernel. */
  private List<String> readOrders() throws IOException {
    DeltaTableReader reader =
        new DeltaTableReader(DeltaTable.forPath(output.resolve("orders").toUri().toString()));
    return reader.readLatest().stream().map(Arrays::toString).toList();
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
