package io.lakestream.pipelines.demo;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.connectors.lakebase.LakebaseSinkOptions;
import io.lakestream.pipelines.Pipeline;
import io.lakestream.pipelines.PipelineOptions;
import io.lakestream.pipelines.gold.GoldToLakebase;
import io.lakestream.runtime.Dataflow;
import io.lakestream.runtime.Trigger;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * The demo's Lakebase stage (query {@code demo-lakebase}): the gold pipeline's daily totals, kept
 * from silver's change data feed by the aggregate of {@link GoldToLakebase} (uid {@code
 * daily-totals}, the same as gold's), upserted into the PostgreSQL table {@value #TABLE} (key
 * {@code order_date}) of the demo's own server ({@link DemoPostgres}) by the Lakebase sink in its
 * exactly-once mode: each epoch's days are staged and applied once its checkpoint completes. Its
 * first run reads silver's snapshot (so it also catches up on an output whose gold ran before this
 * stage existed or while the server could not start), later runs only silver's new versions.
 *
 * <p>Runs after {@link DemoGold} in an embedded {@code lakestream run demo}, only when the server
 * started; fails naming the table when there is no silver table yet.
 */
@Internal
public final class DemoLakebase implements Pipeline {

  /** The PostgreSQL table, in schema {@code public}, named as the Delta gold table. */
  public static final String TABLE = "orders_gold_daily";

  private final String jdbcUrl;

  /**
   * @param jdbcUrl the server's {@code jdbc:postgresql://} URL, without credentials ({@value
   *     DemoPostgres#USER} is trusted)
   */
  DemoLakebase(String jdbcUrl) {
    this.jdbcUrl = jdbcUrl;
  }

  @Override
  public String name() {
    return "demo-lakebase";
  }

  @Override
  public String description() {
    return "the demo's silver change feed -> daily totals -> exactly-once upserts into the"
        + " PostgreSQL table "
        + TABLE
        + " (key order_date)";
  }

  @Override
  public Trigger defaultTrigger() {
    return Trigger.availableNow();
  }

  @Override
  public Dataflow dataflow(PipelineOptions options) {
    Map<String, String> sink =
        Map.of(
            LakebaseSinkOptions.ENDPOINT.key(),
            jdbcUrl,
            LakebaseSinkOptions.USER.key(),
            DemoPostgres.USER,
            LakebaseSinkOptions.DBTABLE.key(),
            TABLE,
            LakebaseSinkOptions.DELIVERY_GUARANTEE.key(),
            LakebaseSinkOptions.EXACTLY_ONCE);
    return GoldToLakebase.dataflow(
        new PipelineOptions(options.output(), 0, 0, 0, sink), UnaryOperator.identity());
  }

  /**
   * The summary line of the PostgreSQL table: its rows, whether its totals per day (order_date,
   * orders, total_amount) equal the Delta gold table's, and the server's URL. (Its silver_version
   * and change_rows equal gold's too when both stages began on the same silver version, as in a new
   * demo; a stage that began later counts the changes from silver's snapshot then.)
   *
   * @throws SQLException if the table cannot be read
   */
  static String summaryLine(DemoPostgres server, String goldPath) throws SQLException {
    List<String> postgres = totals(server);
    List<String> gold = goldTotals(goldPath);
    String comparison =
        postgres.equals(gold)
            ? "= gold's totals per day"
            : "DIFFERS from gold (" + gold.size() + " rows)";
    return String.format(
        java.util.Locale.ROOT,
        "  %-8s %-26s %,9d rows  %s, PostgreSQL %s",
        "lakebase",
        "public." + TABLE,
        postgres.size(),
        comparison,
        server.jdbcUrl());
  }

  /** The PostgreSQL table's totals per day, as text; empty when there is no table yet. */
  static List<String> totals(DemoPostgres server) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (Connection connection = server.connect();
        Statement statement = connection.createStatement()) {
      if (!exists(connection)) {
        return rows;
      }
      try (ResultSet result =
          statement.executeQuery(
              "SELECT order_date, orders, total_amount FROM public."
                  + TABLE
                  + " ORDER BY order_date")) {
        while (result.next()) {
          rows.add(
              totals(
                  result.getObject(1, LocalDate.class),
                  result.getLong(2),
                  result.getBigDecimal(3)));
        }
      }
    }
    return rows;
  }

  /**
   * The Delta gold table's totals per day, as text, in the form of {@link #totals(DemoPostgres)}.
   */
  static List<String> goldTotals(String goldPath) {
    DeltaTable gold = DeltaTable.forPath(goldPath);
    if (gold.latestSnapshot().isEmpty()) {
      return List.of();
    }
    return new DeltaTableReader(gold)
        .readLatest().stream()
            .sorted(Comparator.comparing(r -> (LocalDate) r[0]))
            .map(r -> totals((LocalDate) r[0], (Long) r[1], (BigDecimal) r[2]))
            .toList();
  }

  private static boolean exists(Connection connection) throws SQLException {
    try (ResultSet tables = connection.getMetaData().getTables(null, "public", TABLE, null)) {
      return tables.next();
    }
  }

  private static String totals(LocalDate day, long orders, BigDecimal total) {
    return Arrays.asList(day, orders, total).toString();
  }
}
