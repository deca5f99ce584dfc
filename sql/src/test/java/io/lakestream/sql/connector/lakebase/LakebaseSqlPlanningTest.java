package io.lakestream.sql.connector.lakebase;

import static io.lakestream.sql.SqlPlanning.query;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.lakebase.PostgresTable;
import io.lakestream.connectors.lakebase.PostgresTableName;
import io.lakestream.connectors.lakebase.sink.LakebaseSink;
import io.lakestream.sql.SqlDataflow;
import io.lakestream.sql.SqlPlanning;
import io.lakestream.state.query.OutputMode;
import io.lakestream.state.query.QueryContext;
import io.lakestream.testkit.postgres.PostgresExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.transformations.PartitionTransformation;
import org.apache.flink.streaming.api.transformations.SinkTransformation;
import org.apache.flink.streaming.runtime.partitioner.KeyGroupStreamPartitioner;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.util.ExceptionUtils;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code 'connector' = 'lakebase'} checks while a statement is planned, against a real
 * PostgreSQL, before any job runs: options, keys, output mode and types, each refusal with its
 * error class, naming what to change and never the password; and a plain TableEnvironment run.
 */
class LakebaseSqlPlanningTest {
  @RegisterExtension static final PostgresExtension POSTGRES = new PostgresExtension();

  private static final String SECRET = "Lakebase-Secret-" + UUID.randomUUID();
  private static final String TABLE = "default_catalog.default_database.dst";

  /** Ids and labels, two rows per label. */
  private static final String VALUES =
      "(VALUES (1, 'a'), (2, 'b'), (3, 'a'), (4, 'b')) AS src(id, label)";

  /** A running count per label: updates. */
  private static final String COUNTS =
      "INSERT INTO dst SELECT label, COUNT(*) FROM " + VALUES + " GROUP BY label";

  @TempDir Path dir;

  /** The password the tables give: one no message may show (the embedded server trusts any). */
  private static String password() {
    return POSTGRES.server().isEmbedded() ? SECRET : POSTGRES.password();
  }

  private static String sink(String connector, String columns, String options) {
    return "CREATE TABLE dst ("
        + columns
        + ") WITH ('connector' = '"
        + connector
        + "', 'endpoint' = '"
        + POSTGRES.jdbcUrl()
        + "', 'user' = '"
        + POSTGRES.user()
        + "', 'password' = '"
        + password()
        + "'"
        + options
        + ");\n";
  }

  private static String sink(String columns, String options) {
    return sink(LakebaseTableFactory.IDENTIFIER, columns, options);
  }

  private static StreamExecutionEnvironment plan(String script) {
    return plan(script, query());
  }

  private static StreamExecutionEnvironment plan(String script, QueryContext query) {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    SqlDataflow.of(script).build(env, query);
    return env;
  }

  /** Fails with that class and texts, and nothing in the failure shows the password. */
  private static void assertRefused(ThrowingCallable call, String errorClass, String... texts) {
    SqlPlanning.assertFails(call, errorClass, texts);
    assertThatThrownBy(call)
        .satisfies(e -> assertThat(ExceptionUtils.stringifyException(e)).doesNotContain(SECRET));
  }

  @Test
  void anUnknownOptionNamesTheClosestValidOne() {
    assertRefused(
        () ->
            plan(sink("label STRING", ", 'dbtable' = 'unknown_opt', 'batchsise' = '10'") + COUNTS),
        "JDBC_STREAMING_SINK_INVALID_OPTIONS",
        "'batchsise' (did you mean 'batchsize'?)",
        TABLE,
        "upsertkey",
        "line 2, column 1");
  }

  @Test
  void aValueOfTheWrongTypeNamesTheOption() {
    assertRefused(
        () ->
            plan(sink("label STRING", ", 'dbtable' = 'typed', 'batchinterval' = 'soon'") + COUNTS),
        "JDBC_STREAMING_SINK_INVALID_OPTIONS",
        "batchinterval",
        "soon");
    assertRefused(
        () -> plan(sink("label STRING", ", 'dbtable' = 'typed', 'BATCHSIZE' = '0'") + COUNTS),
        "JDBC_STREAMING_SINK_INVALID_OPTIONS",
        "batchsize must be >= 1");
    assertRefused(
        () -> plan(sink("label STRING", ", 'dbtable' = 'typed', 'maxretries' = 'x'") + COUNTS),
        "JDBC_STREAMING_SINK_INVALID_OPTIONS",
        "maxretries");
  }

  @Test
  void aMissingRequiredOptionIsNamed() {
    assertRefused(
        () -> plan(sink("label STRING", "") + COUNTS),
        "JDBC_STREAMING_SINK_INVALID_OPTIONS",
        "dbtable is required",
        TABLE);
  }

  @Test
  void everyOptionIsTakenWhateverTheCaseOfItsKey() throws Exception {
    String url = POSTGRES.jdbcUrl(); // jdbc:postgresql://host:port/database
    String host = url.substring("jdbc:postgresql://".length(), url.lastIndexOf('/'));
    String options =
        ", 'ENDPOINT' = '"
            + host
            + "', 'Database' = '"
            + POSTGRES.databaseName()
            + "', 'DbTable' = 'public.all_options', 'UpsertKey' = 'label',"
            + " 'BatchSize' = '7', 'BATCHINTERVAL' = '50 milliseconds', 'MaxRetries' = '2',"
            + " 'retryBackoff' = '20 ms', 'TASKSPERCONNECTION' = '2',"
            + " 'checkpointlocation' = 'file:///unused'";
    String script =
        sink("label STRING NOT NULL, n BIGINT", options).replace("'endpoint' = '" + url + "', ", "")
            + COUNTS;
    LakebaseSink<?> sink = lakebaseSink(plan(script));
    assertThat(sink.config().endpoint().jdbcUrl()).isEqualTo(url);
    assertThat(sink.config().table()).isEqualTo(new PostgresTableName("public", "all_options"));
    assertThat(sink.config().batchSize()).isEqualTo(7);
    assertThat(sink.config().batchInterval()).isEqualTo(Duration.ofMillis(50));
    assertThat(sink.config().maxRetries()).isEqualTo(2);
    assertThat(sink.config().retryBackoff()).isEqualTo(Duration.ofMillis(20));
    assertThat(sink.config().tasksPerConnection()).isEqualTo(2);
    assertThat(sink.statement().key()).containsExactly("label");
    assertThat(table("all_options").orElseThrow().primaryKey()).containsExactly("label");

    Path passwordFile = Files.writeString(dir.resolve("token"), password() + "\n");
    String fromFile =
        sink("label STRING NOT NULL, n BIGINT", ", 'dbtable' = 'all_options'")
            .replace(
                "'password' = '" + password() + "'", "'PasswordFile' = '" + passwordFile + "'");
    assertThat(lakebaseSink(plan(fromFile + COUNTS)).statement().key()).containsExactly("label");
  }

  @Test
  void tasksPerConnectionComesFromTheQuerySettingUnlessTheTableSetsIt() throws Exception {
    String setting = "SET 'spark.databricks.sql.streaming.jdbc.tasksPerConnection' = '3';\n";
    String bySetting =
        setting
            + sink(
                "label STRING NOT NULL, n BIGINT",
                ", 'dbtable' = 'per_connection', 'upsertkey' = 'label'");
    assertThat(lakebaseSink(plan(bySetting + COUNTS)).config().tasksPerConnection()).isEqualTo(3);

    String byTable =
        setting
            + sink(
                "label STRING NOT NULL, n BIGINT",
                ", 'dbtable' = 'per_connection', 'upsertkey' = 'label', 'tasksPerConnection' = '2'");
    assertThat(lakebaseSink(plan(byTable + COUNTS)).config().tasksPerConnection()).isEqualTo(2);
    assertThat(
            lakebaseSink(
                    plan(
                        sink(
                                "label STRING NOT NULL, n BIGINT",
                                ", 'dbtable' = 'per_connection', 'upsertkey' = 'label'")
                            + COUNTS))
                .config()
                .tasksPerConnection())
        .isEqualTo(1);
  }

  @Test
  void theDeclaredPrimaryKeyMustNameTheColumnsOfOptionUpsertkey() {
    assertRefused(
        () ->
            plan(
                sink(
                        "label STRING NOT NULL, n BIGINT, PRIMARY KEY (label) NOT ENFORCED",
                        ", 'dbtable' = 'two_keys', 'upsertkey' = 'n'")
                    + COUNTS),
        "JDBC_STREAMING_SINK_INVALID_UPSERT_KEY",
        "option upsertkey [n] differs from the PRIMARY KEY of " + TABLE + " [label]",
        "Remove option upsertkey");
  }

  @Test
  void theKeyMustBeThePostgresTablesPrimaryKey() throws Exception {
    execute("CREATE TABLE keyed_by_n (label TEXT, n BIGINT PRIMARY KEY)");
    assertRefused(
        () ->
            plan(
                sink(
                        "label STRING NOT NULL, n BIGINT, PRIMARY KEY (label) NOT ENFORCED",
                        ", 'dbtable' = 'keyed_by_n'")
                    + COUNTS),
        "JDBC_STREAMING_SINK_INVALID_UPSERT_KEY",
        "the PRIMARY KEY of "
            + TABLE
            + " [label] must equal the primary key of table"
            + " public.keyed_by_n, which is [n]");
    assertRefused(
        () ->
            plan(
                sink(
                        "label STRING NOT NULL, n BIGINT",
                        ", 'dbtable' = 'keyed_by_n', 'upsertkey' = 'label'")
                    + COUNTS),
        "JDBC_STREAMING_SINK_INVALID_UPSERT_KEY",
        "option upsertkey [label] must equal the primary key of table public.keyed_by_n");
    execute("CREATE TABLE not_keyed (label TEXT, n BIGINT)");
    assertRefused(
        () ->
            plan(
                sink(
                        "label STRING NOT NULL, n BIGINT, PRIMARY KEY (label) NOT ENFORCED",
                        ", 'dbtable' = 'not_keyed'")
                    + COUNTS),
        "JDBC_STREAMING_SINK_INVALID_UPSERT_KEY",
        "which is not defined",
        "ADD PRIMARY KEY");
  }

  @Test
  void updatesIntoATableWithoutAnyKeyAreRefusedBeforeTheTableIsCreated() throws Exception {
    assertRefused(
        () -> plan(sink("label STRING, n BIGINT", ", 'dbtable' = 'no_key'") + COUNTS),
        "SQL_UPDATES_INTO_APPEND_ONLY_TABLE",
        TABLE,
        "PRIMARY KEY (...) NOT ENFORCED",
        "upsertkey");
    assertThat(table("no_key")).isEmpty();
    execute("CREATE TABLE existing_no_key (label TEXT, n BIGINT)");
    assertRefused(
        () -> plan(sink("label STRING, n BIGINT", ", 'dbtable' = 'existing_no_key'") + COUNTS),
        "SQL_UPDATES_INTO_APPEND_ONLY_TABLE",
        "public.existing_no_key");
    // inserts only: taken, and the table created without a key
    LakebaseSink<?> inserts =
        lakebaseSink(
            plan(
                sink("id INT, label STRING", ", 'dbtable' = 'inserts_only'")
                    + "INSERT INTO dst SELECT id, label FROM "
                    + VALUES));
    assertThat(inserts.statement().key()).isEmpty();
    assertThat(inserts.takesDeletes()).isFalse();
    assertThat(table("inserts_only").orElseThrow().primaryKey()).isEmpty();
  }

  @Test
  void updatesAreTakenWhenTheKeyIsOptionUpsertkeyOrThePostgresTablesPrimaryKey() throws Exception {
    LakebaseSink<?> byOption =
        lakebaseSink(
            plan(
                sink(
                        "label STRING NOT NULL, n BIGINT",
                        ", 'dbtable' = 'by_option', 'upsertkey' = 'label'")
                    + COUNTS));
    assertThat(byOption.takesDeletes()).isTrue();
    assertThat(table("by_option").orElseThrow().primaryKey()).containsExactly("label");
    execute("CREATE TABLE by_table (label TEXT PRIMARY KEY, n BIGINT, note TEXT)");
    LakebaseSink<?> byTable =
        lakebaseSink(
            plan(
                sink(
                        PostgresqlTableFactory.ALIAS,
                        "label STRING NOT NULL, n BIGINT",
                        ", 'dbtable' = 'by_table'")
                    + COUNTS));
    assertThat(byTable.statement().key()).containsExactly("label");
    assertThat(byTable.takesDeletes()).isTrue();
  }

  @Test
  void aMissingTableIsCreatedWithTheDeclaredColumnsAndKeyAndTheKeysRowsGoToOneWriter()
      throws Exception {
    StreamExecutionEnvironment env =
        plan(
            sink(
                    PostgresqlTableFactory.ALIAS,
                    "label STRING NOT NULL, n BIGINT, since DATE, seen_at TIMESTAMP_LTZ(3),"
                        + " local_at TIMESTAMP(6), amount DECIMAL(10, 2), ok BOOLEAN, payload BYTES,"
                        + " score DOUBLE, small INT, PRIMARY KEY (label) NOT ENFORCED",
                    ", 'dbtable' = 'created'")
                + "INSERT INTO dst SELECT label, COUNT(*), MAX(DATE '2026-03-01'),"
                + " MAX(TO_TIMESTAMP_LTZ(0, 3)), MAX(TIMESTAMP '2026-03-01 10:00:00'),"
                + " CAST(SUM(id) AS DECIMAL(10, 2)), TRUE, CAST(NULL AS BYTES), CAST(1.5 AS DOUBLE),"
                + " MAX(id)"
                + " FROM "
                + VALUES
                + " GROUP BY label");
    PostgresTable created = table("created").orElseThrow();
    assertThat(created.primaryKey()).containsExactly("label");
    assertThat(created.columns())
        .containsEntry("label", "text")
        .containsEntry("n", "bigint")
        .containsEntry("since", "date")
        .containsEntry("seen_at", "timestamp with time zone")
        .containsEntry("local_at", "timestamp without time zone")
        .containsEntry("amount", "numeric(10,2)")
        .containsEntry("ok", "boolean")
        .containsEntry("payload", "bytea")
        .containsEntry("score", "double precision")
        .containsEntry("small", "integer");
    SinkTransformation<?, ?> sink = sinkTransformation(env);
    assertThat(sink.getUid()).isEqualTo(TABLE);
    assertThat(sink.getInputs())
        .singleElement()
        .isInstanceOfSatisfying(
            PartitionTransformation.class,
            keyBy ->
                assertThat(keyBy.getPartitioner()).isInstanceOf(KeyGroupStreamPartitioner.class));
  }

  @Test
  void outputModeCompleteIsRefused() {
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
    assertRefused(
        () ->
            plan(
                sink(
                        "label STRING NOT NULL, n BIGINT, PRIMARY KEY (label) NOT ENFORCED",
                        ", 'dbtable' = 'complete'")
                    + COUNTS,
                complete),
        "JDBC_STREAMING_SINK_UNSUPPORTED_OUTPUT_MODE",
        "output mode complete",
        "update or append");
  }

  @Test
  void aTypeTheSinkDoesNotWriteIsRefusedNamingTheColumn() {
    assertRefused(
        () ->
            plan(
                sink("id INT, tiny TINYINT", ", 'dbtable' = 'typed'")
                    + "INSERT INTO dst SELECT id, CAST(id AS TINYINT) FROM "
                    + VALUES),
        "UNSUPPORTED_DATA_TYPE",
        "Column 'tiny' of " + TABLE,
        "TINYINT",
        "BIGINT");
    assertRefused(
        () ->
            plan(
                sink("id INT, t TIME", ", 'dbtable' = 'typed'")
                    + "INSERT INTO dst SELECT id, TIME '10:00:00' FROM "
                    + VALUES),
        "UNSUPPORTED_DATA_TYPE",
        "Column 't'",
        "TIME");
  }

  @Test
  void aPlainTableEnvironmentWritesEveryTypeWithOptionCheckpointLocationAndAsksForItWithout()
      throws Exception {
    TableEnvironment tables = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
    tables.executeSql(
        sink(
                "label STRING NOT NULL, n BIGINT, PRIMARY KEY (label) NOT ENFORCED",
                ", 'dbtable' = 'plain'")
            .replace("dst", "without_location"));
    assertThatThrownBy(() -> tables.explainSql(COUNTS.replace("dst", "without_location")))
        .satisfies(
            e -> {
              assertThat(LakestreamException.errorClassOf(e))
                  .isEqualTo("JDBC_STREAMING_SINK_INVALID_OPTIONS");
              assertThat(ExceptionUtils.stringifyException(e))
                  .contains("checkpointLocation is required")
                  .doesNotContain(SECRET);
            });
    // every type the sink writes, through a running count (updates)
    tables.executeSql(
        sink(
            "label STRING NOT NULL, n BIGINT, since DATE, seen_at TIMESTAMP_LTZ(3),"
                + " local_at TIMESTAMP(6), amount DECIMAL(10, 2), ok BOOLEAN, payload BYTES,"
                + " score DOUBLE, small INT, PRIMARY KEY (label) NOT ENFORCED",
            ", 'dbtable' = 'plain', 'checkpointLocation' = '" + dir.toUri() + "'"));
    tables
        .executeSql(
            "INSERT INTO dst SELECT label, COUNT(*), MAX(DATE '2026-03-01'),"
                + " MAX(TO_TIMESTAMP_LTZ(1772359200123, 3)),"
                + " MAX(TIMESTAMP '2026-03-01 10:00:00.123456'), CAST(SUM(id) AS DECIMAL(10, 2)),"
                + " label = 'a', CAST(label AS BYTES), CAST(MAX(id) AS DOUBLE) / 2, MAX(id) FROM "
                + VALUES
                + " GROUP BY label")
        .await();
    assertThat(
            rows(
                "SELECT label, concat_ws('|', n, since, seen_at AT TIME ZONE 'UTC', local_at,"
                    + " amount, ok, convert_from(payload, 'UTF8'), score, small) FROM plain"
                    + " ORDER BY label"))
        .containsExactly(
            "a=2|2026-03-01|2026-03-01 10:00:00.123|2026-03-01 10:00:00.123456|4.00|t|a|1.5|3",
            "b=2|2026-03-01|2026-03-01 10:00:00.123|2026-03-01 10:00:00.123456|6.00|f|b|2|4");
  }

  /** The Lakebase sink the statements were planned into. */
  private static LakebaseSink<?> lakebaseSink(StreamExecutionEnvironment env) {
    return (LakebaseSink<?>) sinkTransformation(env).getSink();
  }

  private static SinkTransformation<?, ?> sinkTransformation(StreamExecutionEnvironment env) {
    List<Transformation<?>> all = new ArrayList<>();
    env.getTransformations().forEach(t -> all.addAll(t.getTransitivePredecessors()));
    return all.stream()
        .filter(t -> t instanceof SinkTransformation<?, ?> s && s.getSink() instanceof LakebaseSink)
        .map(t -> (SinkTransformation<?, ?>) t)
        .findFirst()
        .orElseThrow();
  }

  private static Optional<PostgresTable> table(String name) throws SQLException {
    try (Connection c = POSTGRES.connect()) {
      return PostgresTable.describe(c, new PostgresTableName("public", name));
    }
  }

  private static List<String> rows(String sql) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (Connection c = POSTGRES.connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        rows.add(rs.getString(1) + "=" + rs.getString(2));
      }
    }
    return rows;
  }

  private static void execute(String sql) throws SQLException {
    try (Connection c = POSTGRES.connect();
        Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }
}
