package io.lakestream.sql.connector.delta;

import static io.lakestream.sql.SqlPlanning.assertFails;
import static io.lakestream.sql.SqlPlanning.query;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.delta.DeltaAppendCommit;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.DeltaTableWriter;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.sql.SqlDataflow;
import io.lakestream.state.query.OutputMode;
import io.lakestream.state.query.QueryContext;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the Delta table factory checks while a statement is planned, before any job runs, and the
 * bounded reads a plain TableEnvironment makes without the query runtime.
 */
class DeltaSqlPlanningTest {
  private static final DeltaTableSchema INPUT =
      DeltaTableSchema.builder()
          .column("id", ColumnType.LONG, false)
          .column("label", ColumnType.STRING)
          .column("amount", ColumnType.decimal(12, 2))
          .column("ts", ColumnType.TIMESTAMP)
          .column("day", ColumnType.DATE)
          .build();

  @TempDir Path dir;
  private String in;

  @BeforeEach
  void writeInput() throws Exception {
    DeltaTable table = DeltaTable.forPath(dir.resolve("in").toUri().toString());
    DeltaAppendCommit commit = new DeltaAppendCommit(table, INPUT, "producer");
    commit.open();
    DeltaTableWriter writer = new DeltaTableWriter(table, INPUT);
    for (int version = 1; version <= 2; version++) {
      List<Object[]> rows = new ArrayList<>();
      for (long id = (version - 1) * 3; id < version * 3; id++) {
        rows.add(
            new Object[] {
              id,
              "row-" + id,
              BigDecimal.valueOf(id * 10 + 5, 1).setScale(2),
              Instant.parse("2026-03-01T10:00:00.000123Z").plusSeconds(id),
              LocalDate.of(2026, 3, 1).plusDays(id)
            });
      }
      commit.commit(version, writer.write(rows));
    }
    in = table.path();
  }

  private static void plan(String script) {
    SqlDataflow.of(script).build(StreamExecutionEnvironment.getExecutionEnvironment(), query());
  }

  private String source(String options) {
    return "CREATE TABLE src (id BIGINT NOT NULL, label STRING, amount DECIMAL(12, 2),"
        + " ts TIMESTAMP_LTZ(6), `day` DATE) WITH ('connector' = 'delta', 'path' = '"
        + in
        + "'"
        + options
        + ");\n";
  }

  private String sink(String columns, String options) {
    return "CREATE TABLE dst ("
        + columns
        + ") WITH ('connector' = 'delta', 'path' = '"
        + dir.resolve("out").toUri()
        + "'"
        + options
        + ");\n";
  }

  @Test
  void setStatementsApplyToThePlanningOfTheInserts() {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(2);
    SqlDataflow.of(
            "SET 'table.exec.resource.default-parallelism' = '1';\n"
                + "SET table.exec.state.ttl = '1 h';\n"
                + source("")
                + sink("id BIGINT", "")
                + "INSERT INTO dst SELECT id + 1 FROM src")
        .build(env, query());
    assertThat(env.getStreamGraph().getStreamNodes())
        .filteredOn(n -> n.getOperatorName().startsWith("Calc"))
        .isNotEmpty()
        .allSatisfy(n -> assertThat(n.getParallelism()).isEqualTo(1));
  }

  @Test
  void aSetStatementThatIsNoSettingNamesTheForm() {
    assertFails(
        () ->
            plan(
                "SET;\n"
                    + source("")
                    + sink("id BIGINT", "")
                    + "INSERT INTO dst SELECT id FROM src"),
        "SQL_UNSUPPORTED_STATEMENT",
        "SET 'key' = 'value'",
        "line 1, column 1");
  }

  @Test
  void anUnknownOptionNamesTheClosestValidOneAndTheStatement() {
    assertFails(
        () ->
            plan(
                source(", 'maxFilesPerTriger' = '2'")
                    + sink("id BIGINT", "")
                    + "INSERT INTO dst SELECT id FROM src"),
        "UNKNOWN_OPTION",
        "maxFilesPerTriger",
        "maxFilesPerTrigger",
        "line 3, column 1");
  }

  @Test
  void aBadValueNamesTheOption() {
    assertFails(
        () ->
            plan(
                source(", 'MAXFILESPERTRIGGER' = 'many'")
                    + sink("id BIGINT", "")
                    + "INSERT INTO dst SELECT id FROM src"),
        "INVALID_OPTION_VALUE",
        "maxFilesPerTrigger",
        "many");
  }

  @Test
  void aTableWithoutPathNamesTheOption() {
    assertFails(
        () ->
            plan(
                source("")
                    + "CREATE TABLE dst (id BIGINT) WITH ('connector' = 'delta');\n"
                    + "INSERT INTO dst SELECT id FROM src"),
        "MISSING_OPTION",
        "'path'",
        "default_catalog.default_database.dst");
  }

  @Test
  void aDeclaredColumnMustBeStoredWithItsType() {
    String wrongType =
        "CREATE TABLE src (id BIGINT NOT NULL, label INT) WITH ('connector' = 'delta', 'path' = '"
            + in
            + "');\n";
    assertFails(
        () -> plan(wrongType + sink("id BIGINT", "") + "INSERT INTO dst SELECT id FROM src"),
        "SQL_SCHEMA_MISMATCH",
        "Column 'label'",
        "declared INT",
        "stores STRING");
    String missing =
        "CREATE TABLE src (id BIGINT NOT NULL, nope STRING) WITH ('connector' = 'delta',"
            + " 'path' = '"
            + in
            + "');\n";
    assertFails(
        () -> plan(missing + sink("id BIGINT", "") + "INSERT INTO dst SELECT id FROM src"),
        "SQL_SCHEMA_MISMATCH",
        "Column 'nope'",
        "id BIGINT, label STRING");
  }

  @Test
  void updatesIntoAnAppendOnlyTableAreRefused() {
    assertFails(
        () ->
            plan(
                source("")
                    + sink("`day` DATE, n BIGINT", "")
                    + "INSERT INTO dst SELECT `day`, COUNT(*) FROM src GROUP BY `day`"),
        "SQL_UPDATES_INTO_APPEND_ONLY_TABLE",
        "default_catalog.default_database.dst",
        "PRIMARY KEY");
  }

  @Test
  void anUpsertTableRefusesOutputModeCompleteAndMergeSchema() {
    String insert = "INSERT INTO dst SELECT `day`, COUNT(*) FROM src GROUP BY `day`";
    String keyed = "`day` DATE NOT NULL, n BIGINT, PRIMARY KEY (`day`) NOT ENFORCED";
    QueryContext complete =
        new QueryContext(
            "q",
            "planning",
            "run",
            "planning-q",
            "file:///unused",
            false,
            false,
            OutputMode.COMPLETE);
    assertFails(
        () ->
            SqlDataflow.of(source("") + sink(keyed, "") + insert)
                .build(StreamExecutionEnvironment.getExecutionEnvironment(), complete),
        "DELTA_UNSUPPORTED_OUTPUT_MODE",
        "PRIMARY KEY",
        "output mode append");
    assertFails(
        () -> plan(source("") + sink(keyed, ", 'mergeSchema' = 'true'") + insert),
        "DELTA_INVALID_SINK_SETTING",
        "remove 'mergeSchema'");
  }

  @Test
  void aTypeDeltaCannotHoldIsRefusedNamingTheColumn() {
    assertFails(
        () ->
            plan(
                source("")
                    + sink("id BIGINT, t TIME", "")
                    + "INSERT INTO dst SELECT id, TIME '10:00:00' FROM src"),
        "UNSUPPORTED_DATA_TYPE",
        "Column 't'",
        "TIME");
    assertFails(
        () ->
            plan(
                source("")
                    + sink("id BIGINT, t TIMESTAMP(9)", "")
                    + "INSERT INTO dst SELECT id, CAST(ts AS TIMESTAMP(9)) FROM src"),
        "UNSUPPORTED_DATA_TYPE",
        "Column 't'",
        "microsecond");
  }

  @Test
  void statementsWithoutASinkAreRefused() {
    assertFails(
        () -> plan(source("") + "SELECT * FROM src"), "SQL_UNSUPPORTED_STATEMENT", "line 2");
    assertFails(() -> plan(source("")), "SQL_NO_INSERT", "INSERT INTO");
  }

  @Test
  void flinkErrorsPointAtTheStatementAndLeaveOptionValuesOut() {
    assertFails(
        () ->
            plan(
                source(", 'hadoop.fs.s3a.secret.key' = 'SECRET-VALUE-123'")
                    + "\nINSERT INTO nowhere SELECT id FROM src"),
        "SQL_INVALID_STATEMENT",
        "line 3, column 1",
        "nowhere");
    assertThatThrownBy(
            () ->
                plan(
                    source(", 'hadoop.fs.s3a.secret.key' = 'SECRET-VALUE-123'")
                        + sink("id BIGINT", "")
                        + "INSERT INTO dst SELECT nope FROM src"))
        .hasMessageNotContaining("SECRET-VALUE-123");
  }

  @Test
  void aSinkOutsideTheQueryRuntimeSaysHowToRunIt() {
    TableEnvironment tables = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
    tables.executeSql(sink("id BIGINT", ""));
    assertThatThrownBy(() -> tables.explainSql("INSERT INTO dst VALUES (1)"))
        .satisfies(
            e ->
                assertThat(LakestreamException.errorClassOf(e))
                    .isEqualTo("SQL_QUERY_RUNTIME_REQUIRED"))
        .rootCause()
        .hasMessageContaining("SqlDataflow");
  }

  @Test
  void aPlainTableEnvironmentReadsTheLatestVersionInBatchModeAndAnyVersionByVersionAsOf()
      throws Exception {
    TableEnvironment batch = TableEnvironment.create(EnvironmentSettings.inBatchMode());
    batch.executeSql(source(""));
    assertThat(collect(batch, "SELECT id, label, amount, ts, `day` FROM src WHERE id >= 4"))
        .containsExactlyInAnyOrder(
            Row.of(
                4L,
                "row-4",
                new BigDecimal("4.50"),
                Instant.parse("2026-03-01T10:00:04.000123Z"),
                LocalDate.of(2026, 3, 5)),
            Row.of(
                5L,
                "row-5",
                new BigDecimal("5.50"),
                Instant.parse("2026-03-01T10:00:05.000123Z"),
                LocalDate.of(2026, 3, 6)));

    TableEnvironment streaming = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
    streaming.executeSql(
        source(", 'versionAsOf' = '1'").replace("CREATE TABLE src", "CREATE TABLE v1"));
    assertThat(collect(streaming, "SELECT id FROM v1"))
        .containsExactlyInAnyOrder(Row.of(0L), Row.of(1L), Row.of(2L));
  }

  @Test
  void onlyFiltersOfAColumnAndALiteralOfItsTypeArePushedAndOnlyTheUsedColumnsAreRead() {
    TableEnvironment batch = TableEnvironment.create(EnvironmentSettings.inBatchMode());
    batch.executeSql(source(""));
    String plan =
        batch.explainSql(
            "SELECT id FROM src WHERE UPPER(label) = 'X' AND id > 3 AND ts IS NOT NULL"
                + " AND CAST(amount AS DOUBLE) < 1e1 AND `day` >= DATE '2026-03-02'");
    // UPPER(label) and the cast stay with Flink alone
    assertThat(plan)
        .contains("src, filter=[and(and(>(id, 3), >=(day, 2026-03-02)), IS NOT NULL(ts))]]]");
    assertThat(batch.explainSql("SELECT label FROM src WHERE label LIKE 'row%'"))
        .contains("src, filter=[], project=[label]]]");
  }

  private static List<Row> collect(TableEnvironment tables, String query) throws Exception {
    List<Row> rows = new ArrayList<>();
    try (CloseableIterator<Row> it = tables.executeSql(query).collect()) {
      it.forEachRemaining(rows::add);
    }
    return rows;
  }
}
