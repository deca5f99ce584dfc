package io.lakestream.pipelines.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.merge.DeltaMerge;
import io.lakestream.connectors.delta.merge.DeltaMergeCommit;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.pipelines.gold.OrdersGoldDaily;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code lakestream table-changes}, the batch replay / audit of E4c, on a silver table written by
 * MERGE versions: the printed change rows of a version range are exactly the inserts, update pre-
 * and postimages and deletes those versions made; a range without the change data feed is a usage
 * error naming {@code delta.enableChangeDataFeed}.
 */
class TableChangesCommandTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private PrintStream oldOut;
  private PrintStream oldErr;

  @TempDir Path dir;

  @BeforeEach
  void capture() {
    oldOut = System.out;
    oldErr = System.err;
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  @AfterEach
  void restore() {
    System.setOut(oldOut);
    System.setErr(oldErr);
  }

  private static final Instant DAY_1 = Instant.parse("2026-03-01T08:00:00Z");
  private static final Instant DAY_2 = Instant.parse("2026-03-02T09:30:00Z");
  private static final Instant DAY_3 = Instant.parse("2026-03-03T23:59:59Z");
  private static final Instant UPDATED = Instant.parse("2026-04-01T00:00:00Z");

  private static Object[] order(String id, Instant ts, String amount, String op) {
    return new Object[] {id, ts, "c-" + id, new BigDecimal(amount), UPDATED, op};
  }

  /** Versions 1-3 of a silver table; returns it. */
  private DeltaTable silver(DeltaTableSchema schema) throws Exception {
    DeltaTable table = DeltaTable.forPath(dir.resolve("silver").toUri().toString());
    DeltaMergeCommit merge =
        new DeltaMergeCommit(
            DeltaMerge.into(table, schema, "order_id")
                .whenMatchedDelete((s, t) -> "D".equals(s[5]))
                .whenMatchedUpdateAll()
                .whenNotMatchedInsertAll((s, t) -> !"D".equals(s[5]))
                .build(),
            "silver");
    merge.commit(
        1,
        List.<Object[]>of(
            order("o1", DAY_1, "10.00", "I"),
            order("o2", DAY_1, "20.00", "I"),
            order("o3", DAY_2, "30.00", "I")));
    merge.commit(
        2,
        List.<Object[]>of(
            order("o1", DAY_2, "11.00", "U"), // moved to another day
            order("o2", DAY_1, "20.00", "D"),
            order("o4", DAY_3, "40.00", "I")));
    merge.commit(3, List.<Object[]>of(order("o3", DAY_2, "31.00", "U")));
    return table;
  }

  private static String timestamp(DeltaTable table, long version) throws Exception {
    return Instant.ofEpochMilli(
            new DeltaTableReader(table).snapshotAtVersion(version).getTimestamp(table.engine()))
        .toString();
  }

  @Test
  void jsonOutputIsExactlyTheChangeRowsOfTheRange() throws Exception {
    DeltaTable table = silver(OrdersGoldDaily.SILVER_SCHEMA);
    String v2 = timestamp(table, 2);
    String v3 = timestamp(table, 3);

    int code =
        LakestreamCli.execute(
            "table-changes",
            "--table",
            dir.resolve("silver").toString(),
            "--starting-version",
            "2",
            "--ending-version",
            "3",
            "--format",
            "json");

    assertThat(code).as(err.toString(StandardCharsets.UTF_8)).isZero();
    List<String> lines = new ArrayList<>();
    for (String line : out.toString(StandardCharsets.UTF_8).split("\n")) {
      if (line.isBlank()) {
        continue;
      }
      JsonNode n = JSON.readTree(line);
      assertThat(n.get("customer_id").asText()).isEqualTo("c-" + n.get("order_id").asText());
      assertThat(n.get("updated_at").asText()).isEqualTo(UPDATED.toString());
      lines.add(
          String.join(
              " ",
              n.get("order_id").asText(),
              n.get("order_ts").asText(),
              n.get("amount").decimalValue().setScale(2).toPlainString(),
              n.get("_change_type").asText(),
              n.get("_commit_version").asText(),
              n.get("_commit_timestamp").asText()));
    }
    assertThat(lines)
        .containsExactly(
            "o1 " + DAY_1 + " 10.00 update_preimage 2 " + v2,
            "o1 " + DAY_2 + " 11.00 update_postimage 2 " + v2,
            "o2 " + DAY_1 + " 20.00 delete 2 " + v2,
            "o4 " + DAY_3 + " 40.00 insert 2 " + v2,
            "o3 " + DAY_2 + " 30.00 update_preimage 3 " + v3,
            "o3 " + DAY_2 + " 31.00 update_postimage 3 " + v3);
  }

  @Test
  void tableOutputHasAHeaderAndEveryRowUpToTheLatestVersion() throws Exception {
    silver(OrdersGoldDaily.SILVER_SCHEMA);

    int code =
        LakestreamCli.execute(
            "table-changes",
            "--table",
            dir.resolve("silver").toString(),
            "--starting-version",
            "1");

    assertThat(code).as(err.toString(StandardCharsets.UTF_8)).isZero();
    String[] lines = out.toString(StandardCharsets.UTF_8).split("\n");
    assertThat(lines[0].split("\\s+"))
        .containsExactly(
            "order_id",
            "order_ts",
            "customer_id",
            "amount",
            "updated_at",
            "_change_type",
            "_commit_version",
            "_commit_timestamp");
    assertThat(lines).hasSize(1 + 3 + 4 + 2 + 1);
    assertThat(lines[1]).startsWith("o1").contains(" insert ").contains(" 1 ");
    assertThat(lines[lines.length - 1]).isEqualTo("(9 change rows)");
  }

  @Test
  void aRangeWithoutTheChangeFeedIsAUsageErrorNamingTheProperty() throws Exception {
    DeltaTableSchema noCdf =
        DeltaTableSchema.builder()
            .column("order_id", ColumnType.STRING, false)
            .column("order_ts", ColumnType.TIMESTAMP)
            .column("customer_id", ColumnType.STRING)
            .column("amount", ColumnType.decimal(12, 2))
            .column("updated_at", ColumnType.TIMESTAMP)
            .build();
    silver(noCdf);

    int code =
        LakestreamCli.execute(
            "table-changes",
            "--table",
            dir.resolve("silver").toString(),
            "--starting-version",
            "1",
            "--ending-version",
            "2");

    assertThat(code).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8))
        .contains("lakestream: [DELTA_CHANGE_DATA_FEED_NOT_ENABLED] ")
        .contains("delta.enableChangeDataFeed")
        .contains("version 1");
    assertThat(out.toString(StandardCharsets.UTF_8)).isEmpty();
  }

  @Test
  void versionsOutsideTheHistoryAndBadFormatsAreUsageErrors() throws Exception {
    silver(OrdersGoldDaily.SILVER_SCHEMA);
    String path = dir.resolve("silver").toString();

    assertThat(
            LakestreamCli.execute(
                "table-changes",
                "--table",
                path,
                "--starting-version",
                "2",
                "--ending-version",
                "9"))
        .isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("out of range");

    err.reset();
    assertThat(
            LakestreamCli.execute(
                "table-changes", "--table", path, "--starting-version", "1", "--format", "csv"))
        .isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("--format must be 'table' or 'json'");
  }
}
