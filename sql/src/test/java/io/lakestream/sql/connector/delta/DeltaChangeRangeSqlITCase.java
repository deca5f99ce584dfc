package io.lakestream.sql.connector.delta;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.cdf.DeltaChangeDataFeed;
import io.lakestream.connectors.schema.ColumnType;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bounded change data feed read in Flink SQL ({@code readChangeFeed} with {@code endingVersion},
 * Databricks' {@code table_changes(t, v1, v2)}): over a table changed by MERGEs (inserts, updates,
 * deletes), the rows of a version range equal {@link DeltaChangeDataFeed}'s for the same range, row
 * for row, in batch and streaming mode; invalid ranges fail at planning with an error class, naming
 * the option.
 */
class DeltaChangeRangeSqlITCase {
  @TempDir static Path dir;
  private static long sequence;
  private static long latest;

  /** One MERGE version of {@code table}: ids upserted with a status and amount, or deleted. */
  private static void change(
      String table,
      DeltaTableSchema schema,
      long epoch,
      long from,
      long to,
      String status,
      boolean delete)
      throws Exception {
    DeltaUpsertFunction merge =
        new DeltaUpsertFunction(table(table), schema, List.of("id"), "writer");
    List<Object[]> rows = new ArrayList<>();
    for (long id = from; id < to; id++) {
      rows.add(new Object[] {id, status, BigDecimal.valueOf(id * 3, 1), delete, sequence++});
    }
    merge.call(epoch, rows);
  }

  private static DeltaTableSchema.Builder columns() {
    return DeltaTableSchema.builder()
        .column("id", ColumnType.LONG, false)
        .column("status", ColumnType.STRING)
        .column("amount", ColumnType.decimal(12, 2));
  }

  private static DeltaTable table(String name) {
    return DeltaTable.forPath(dir.resolve(name).toUri().toString());
  }

  @BeforeAll
  static void writeTables() throws Exception {
    DeltaTableSchema cdf = columns().property("delta.enableChangeDataFeed", "true").build();
    change("accounts", cdf, 1, 0, 30, "open", false); // inserts
    change("accounts", cdf, 2, 0, 10, "closed", false); // updates
    change("accounts", cdf, 3, 20, 25, "open", true); // deletes
    change("accounts", cdf, 4, 25, 35, "new", false); // updates 25..29, inserts 30..34
    change("accounts", cdf, 5, 0, 5, "open", true);
    latest = new DeltaTableReader(table("accounts")).latestVersion();
    DeltaTableSchema plain = columns().build();
    change("plain", plain, 1, 0, 5, "open", false);
  }

  private static String ddl(String table, String options) {
    return """
        CREATE TABLE %s (
          id BIGINT NOT NULL, status STRING, amount DECIMAL(12, 2),
          _change_type STRING METADATA VIRTUAL, _commit_version BIGINT METADATA VIRTUAL,
          _commit_timestamp TIMESTAMP_LTZ(6) METADATA VIRTUAL
        ) WITH ('connector' = 'delta', 'path' = '%s'%s)
        """
        .formatted(table, dir.resolve(table).toUri(), options);
  }

  private static List<List<Object>> collect(TableEnvironment tables, String query)
      throws Exception {
    List<List<Object>> rows = new ArrayList<>();
    try (CloseableIterator<Row> it = tables.executeSql(query).collect()) {
      it.forEachRemaining(
          row -> {
            List<Object> fields = new ArrayList<>();
            for (int i = 0; i < row.getArity(); i++) {
              fields.add(row.getField(i));
            }
            rows.add(fields);
          });
    }
    return rows;
  }

  private static List<List<Object>> tableChanges(long from, long to) {
    return DeltaChangeDataFeed.tableChanges(table("accounts"), from, to).stream()
        .map(Arrays::asList)
        .toList();
  }

  @Test
  void aBatchQueryReadsTheRangesChangeRowsAsTableChangesDoes() throws Exception {
    long from = latest - 3;
    long to = latest - 1;
    List<List<Object>> expected = tableChanges(from, to);
    assertThat(expected)
        .extracting(row -> row.get(3))
        .contains("insert", "update_preimage", "update_postimage", "delete");
    TableEnvironment batch = TableEnvironment.create(EnvironmentSettings.inBatchMode());
    batch.executeSql(
        ddl(
            "accounts",
            ", 'readChangeFeed' = 'true', 'startingVersion' = '%d', 'endingVersion' = '%d'"
                .formatted(from, to)));
    assertThat(collect(batch, "SELECT * FROM accounts"))
        .containsExactlyInAnyOrderElementsOf(expected);
    assertThat(
            collect(
                batch,
                "SELECT _commit_version, COUNT(*) FROM accounts WHERE _change_type = 'delete'"
                    + " GROUP BY _commit_version"))
        .containsExactly(List.of(latest - 2, 5L));
  }

  @Test
  void aStreamingQueryWithOptionsHintsReadsTheRangeAndEnds() throws Exception {
    TableEnvironment streaming = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
    streaming.executeSql(ddl("accounts", ""));
    List<List<Object>> rows =
        collect(
            streaming,
            "SELECT * FROM accounts /*+ OPTIONS('readChangeFeed' = 'true',"
                + " 'startingVersion' = '%d', 'endingVersion' = '%d') */"
                    .formatted(latest - 1, latest));
    assertThat(rows).containsExactlyInAnyOrderElementsOf(tableChanges(latest - 1, latest));
  }

  @Test
  void invalidRangesFailAtPlanningNamingTheOption() {
    TableEnvironment batch = TableEnvironment.create(EnvironmentSettings.inBatchMode());
    batch.executeSql(ddl("accounts", ""));
    batch.executeSql(ddl("plain", ""));
    assertPlanningFails(
        batch,
        "accounts",
        "'startingVersion' = '1', 'endingVersion' = '2'",
        "CONFLICTING_OPTIONS",
        "readChangeFeed");
    assertPlanningFails(
        batch,
        "accounts",
        "'readChangeFeed' = 'true', 'startingVersion' = '3', 'endingVersion' = '2'",
        "CONFLICTING_OPTIONS",
        "endingVersion (2) is below startingVersion (3)");
    assertPlanningFails(
        batch,
        "accounts",
        "'readChangeFeed' = 'true', 'endingVersion' = '2'",
        "MISSING_OPTION",
        "needs startingVersion");
    assertPlanningFails(
        batch,
        "accounts",
        "'readChangeFeed' = 'true', 'startingVersion' = '1', 'endingVersion' = '%d'"
            .formatted(latest + 1),
        "DELTA_INVALID_VERSION_RANGE",
        "endingVersion (" + (latest + 1) + ")");
    assertPlanningFails(
        batch,
        "plain",
        "'readChangeFeed' = 'true', 'startingVersion' = '1', 'endingVersion' = '1'",
        "DELTA_CHANGE_DATA_FEED_NOT_ENABLED",
        "delta.enableChangeDataFeed");
  }

  private static void assertPlanningFails(
      TableEnvironment tables, String table, String options, String errorClass, String text) {
    assertThatThrownBy(
            () -> tables.explainSql("SELECT * FROM " + table + " /*+ OPTIONS(" + options + ") */"))
        .as(options)
        .satisfies(e -> assertThat(LakestreamException.errorClassOf(e)).isEqualTo(errorClass))
        .hasStackTraceContaining(text);
  }
}
