package io.lakestream.connectors.lakebase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.connectors.lakebase.sink.LakebaseSink;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.state.query.OutputMode;
import io.lakestream.state.query.QueryContext;
import io.lakestream.testkit.postgres.PostgresExtension;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Table creation, key inference and key/table validation against a real PostgreSQL. */
class LakebaseSinkBuilderITCase {
  @RegisterExtension static final PostgresExtension POSTGRES = new PostgresExtension();

  private static final LakebaseSchema ALL_TYPES =
      LakebaseSchema.builder()
          .column("id", ColumnType.LONG, false)
          .column("Region", ColumnType.STRING)
          .column("n", ColumnType.INT)
          .column("score", ColumnType.DOUBLE)
          .column("active", ColumnType.BOOLEAN)
          .column("amount", ColumnType.decimal(12, 2))
          .column("at", ColumnType.TIMESTAMP)
          .column("local_at", ColumnType.TIMESTAMP_NTZ)
          .column("day", ColumnType.DATE)
          .column("blob", ColumnType.BINARY)
          .column("doc", ColumnType.JSON)
          .column("select", ColumnType.STRING)
          .build();

  private static LakebaseSinkBuilder<Object[]> builder(LakebaseSchema schema, String table) {
    return LakebaseSinkBuilder.<Object[]>forSchema(schema, row -> row)
        .option("endpoint", POSTGRES.jdbcUrl())
        .option("user", POSTGRES.user())
        .option("password", POSTGRES.password())
        .option("dbtable", table)
        .option("checkpointLocation", "/tmp/chk");
  }

  @Test
  void createsAMissingTableWithTheDocumentedTypesAndTheKeyAsPrimaryKey() throws Exception {
    LakebaseSink<Object[]> sink =
        builder(ALL_TYPES, "created_all").option("upsertkey", "Region,id").build();
    assertThat(sink.statement().key()).containsExactly("Region", "id");
    PostgresTable table = describe("public", "created_all");
    Map<String, String> expected = new LinkedHashMap<>();
    expected.put("id", "bigint");
    expected.put("Region", "text");
    expected.put("n", "integer");
    expected.put("score", "double precision");
    expected.put("active", "boolean");
    expected.put("amount", "numeric(12,2)");
    expected.put("at", "timestamp with time zone");
    expected.put("local_at", "timestamp without time zone");
    expected.put("day", "date");
    expected.put("blob", "bytea");
    expected.put("doc", "jsonb");
    expected.put("select", "text");
    assertThat(table.columns()).containsExactlyInAnyOrderEntriesOf(expected);
    assertThat(table.primaryKey()).containsExactly("Region", "id");
    assertThat(notNullColumns("created_all")).containsExactlyInAnyOrder("id", "Region");
  }

  @Test
  void withoutAnyKeyTheCreatedTableHasNoPrimaryKeyAndTheSinkInserts() throws Exception {
    LakebaseSink<Object[]> sink = builder(ALL_TYPES, "created_plain").build();
    assertThat(sink.statement().key()).isEmpty();
    assertThat(sink.statement().sql()).doesNotContain("ON CONFLICT");
    assertThat(describe("public", "created_plain").primaryKey()).isEmpty();
  }

  @Test
  void theKeyIsInferredFromThePrimaryKey() throws Exception {
    execute("CREATE TABLE inferred (b TEXT, a BIGINT, v TEXT, PRIMARY KEY (a, b))");
    LakebaseSchema schema =
        LakebaseSchema.builder()
            .column("a", ColumnType.LONG)
            .column("b", ColumnType.STRING)
            .column("v", ColumnType.STRING)
            .build();
    LakebaseSink<Object[]> sink = builder(schema, "inferred").build();
    assertThat(sink.statement().key()).containsExactly("a", "b");
    assertThat(sink.statement().sql()).contains("ON CONFLICT (\"a\", \"b\") DO UPDATE SET");
    // given in another order, the same columns are accepted
    assertThat(builder(schema, "Inferred").option("upsertkey", "b,a").build().statement().key())
        .containsExactly("b", "a");
  }

  @Test
  void anExistingTableInAnotherSchemaWithExtraColumnsIsUsed() throws Exception {
    execute("CREATE SCHEMA sales");
    execute(
        "CREATE TABLE sales.orders (id BIGINT PRIMARY KEY, total NUMERIC(10,2), note TEXT"
            + " DEFAULT 'none')");
    LakebaseSchema schema =
        LakebaseSchema.builder()
            .column("id", ColumnType.LONG)
            .column("total", ColumnType.decimal(10, 2))
            .build();
    LakebaseSink<Object[]> sink = builder(schema, "Sales.Orders").build();
    assertThat(sink.statement().sql()).startsWith("INSERT INTO \"sales\".\"orders\"");
    assertThat(sink.sinkTarget()).endsWith("#sales.orders");
  }

  @Test
  void upsertKeyMustEqualThePrimaryKeyExactly() throws Exception {
    execute("CREATE TABLE keyed (a BIGINT, b TEXT, v TEXT, PRIMARY KEY (a, b))");
    execute("CREATE TABLE unkeyed (a BIGINT, b TEXT, v TEXT)");
    LakebaseSchema schema =
        LakebaseSchema.builder()
            .column("a", ColumnType.LONG)
            .column("b", ColumnType.STRING)
            .column("v", ColumnType.STRING)
            .build();
    assertThatThrownBy(() -> builder(schema, "keyed").option("upsertkey", "a").build())
        .isInstanceOfSatisfying(
            LakebaseSinkException.class,
            e -> assertThat(e.errorClass()).isEqualTo(LakebaseSinkException.INVALID_UPSERT_KEY))
        .hasMessageContaining("option upsertkey [a] must equal the primary key of table")
        .hasMessageContaining("which is [a, b]");
    assertThatThrownBy(() -> builder(schema, "keyed").option("upsertkey", "a,b,v").build())
        .hasMessageContaining("must equal the primary key");
    assertThatThrownBy(() -> builder(schema, "unkeyed").option("upsertkey", "a").build())
        .hasMessageContaining("which is not defined");
  }

  @Test
  void aDeclaredKeyIsTheUpsertKeyAndMustAgreeWithOptionUpsertkeyAndThePrimaryKey()
      throws Exception {
    LakebaseSchema schema =
        LakebaseSchema.builder()
            .column("a", ColumnType.LONG)
            .column("b", ColumnType.STRING)
            .column("v", ColumnType.STRING)
            .build();
    String origin = "the PRIMARY KEY of sql_table";
    LakebaseSink<Object[]> created =
        builder(schema, "declared").declaredKey(List.of("b", "a"), origin).build();
    assertThat(created.statement().key()).containsExactly("b", "a");
    assertThat(describe("public", "declared").primaryKey()).containsExactly("b", "a");
    // the same columns in another order agree
    assertThat(
            builder(schema, "declared")
                .declaredKey(List.of("b", "a"), origin)
                .option("upsertkey", "a,b")
                .build()
                .statement()
                .key())
        .containsExactly("b", "a");
    assertThatThrownBy(
            () ->
                builder(schema, "declared")
                    .declaredKey(List.of("a"), origin)
                    .option("upsertkey", "a,b")
                    .sanityCheck())
        .isInstanceOfSatisfying(
            LakebaseSinkException.class,
            e -> assertThat(e.errorClass()).isEqualTo(LakebaseSinkException.INVALID_UPSERT_KEY))
        .hasMessageContaining("option upsertkey [a, b] differs from " + origin + " [a]");
    assertThatThrownBy(() -> builder(schema, "declared").declaredKey(List.of("a"), origin).build())
        .isInstanceOfSatisfying(
            LakebaseSinkException.class,
            e -> assertThat(e.errorClass()).isEqualTo(LakebaseSinkException.INVALID_UPSERT_KEY))
        .hasMessageContaining(origin + " [a] must equal the primary key of table public.declared")
        .hasMessageContaining("which is [b, a]");
  }

  @Test
  void theUpsertKeyIsFoundWithoutCreatingTheTable() throws Exception {
    LakebaseSchema schema =
        LakebaseSchema.builder()
            .column("a", ColumnType.LONG)
            .column("v", ColumnType.STRING)
            .build();
    assertThat(builder(schema, "not_yet").upsertKey()).isEmpty();
    assertThat(builder(schema, "not_yet").option("upsertkey", "a").upsertKey())
        .containsExactly("a");
    assertThat(builder(schema, "not_yet").declaredKey(List.of("a"), "x").upsertKey())
        .containsExactly("a");
    assertThat(exists("not_yet")).isFalse();
    execute("CREATE TABLE has_key (a BIGINT PRIMARY KEY, v TEXT)");
    assertThat(builder(schema, "has_key").upsertKey()).containsExactly("a");
  }

  @Test
  void deletesNeedAKeyAndAreRefusedBeforeTheTableIsCreated() throws Exception {
    LakebaseSchema schema =
        LakebaseSchema.builder()
            .column("a", ColumnType.LONG)
            .column("v", ColumnType.STRING)
            .build();
    assertThatThrownBy(() -> builder(schema, "no_key_yet").deletes(row -> true).build())
        .isInstanceOfSatisfying(
            LakebaseSinkException.class,
            e -> assertThat(e.errorClass()).isEqualTo(LakebaseSinkException.INVALID_UPSERT_KEY))
        .hasMessageContaining("deletes rows by key, but the sink has no key")
        .hasMessageContaining("option upsertkey");
    assertThat(exists("no_key_yet")).isFalse();
    execute("CREATE TABLE keyless (a BIGINT, v TEXT)");
    assertThatThrownBy(() -> builder(schema, "keyless").deletes(row -> true).build())
        .hasMessageContaining("table public.keyless has no primary key");
    execute("CREATE TABLE keyed_for_deletes (a BIGINT PRIMARY KEY, v TEXT)");
    LakebaseSink<Object[]> inferred =
        builder(schema, "keyed_for_deletes").deletes(row -> true).build();
    assertThat(inferred.takesDeletes()).isTrue();
    assertThat(inferred.statement().key()).containsExactly("a");
    assertThat(
            builder(schema, "created_for_deletes")
                .option("upsertkey", "a")
                .deletes(row -> true)
                .build()
                .takesDeletes())
        .isTrue();
  }

  private static boolean exists(String table) throws SQLException {
    try (Connection c = POSTGRES.connect()) {
      return PostgresTable.describe(c, new PostgresTableName("public", table)).isPresent();
    }
  }

  @Test
  void upsertKeyMustBeColumnsOfTheStreamOfComparableTypes() {
    assertThatThrownBy(() -> builder(ALL_TYPES, "never").option("upsertkey", "ID").sanityCheck())
        .isInstanceOfSatisfying(
            LakebaseSinkException.class,
            e -> assertThat(e.errorClass()).isEqualTo(LakebaseSinkException.INVALID_UPSERT_KEY))
        .hasMessageContaining("'ID', which the stream does not have");
    assertThatThrownBy(() -> builder(ALL_TYPES, "never").option("upsertkey", "id,doc").build())
        .hasMessageContaining("'doc' of type JSON, which is not comparable");
    assertThatThrownBy(() -> builder(ALL_TYPES, "never").option("upsertkey", "blob").build())
        .hasMessageContaining("'blob' of type BINARY, which is not comparable");
  }

  @Test
  void aPrimaryKeyColumnMissingFromTheStreamIsRefused() throws Exception {
    execute("CREATE TABLE wide_key (a BIGINT, b TEXT, v TEXT, PRIMARY KEY (a, b))");
    LakebaseSchema schema =
        LakebaseSchema.builder()
            .column("a", ColumnType.LONG)
            .column("v", ColumnType.STRING)
            .build();
    assertThatThrownBy(() -> builder(schema, "wide_key").build())
        .hasMessageContaining("the primary key of public.wide_key names column 'b'");
  }

  @Test
  void streamColumnsMissingFromTheTableAreRefused() throws Exception {
    execute("CREATE TABLE narrow (id BIGINT PRIMARY KEY, \"Value\" TEXT)");
    LakebaseSchema schema =
        LakebaseSchema.builder()
            .column("id", ColumnType.LONG)
            .column("value", ColumnType.STRING)
            .build();
    assertThatThrownBy(() -> builder(schema, "narrow").build())
        .isInstanceOfSatisfying(
            LakebaseSinkException.class,
            e -> assertThat(e.errorClass()).isEqualTo(LakebaseSinkException.TABLE_MISMATCH))
        .hasMessageContaining("has no column(s) [value]")
        .hasMessageContaining("case-sensitive");
  }

  @Test
  void columnsOfTypesThatCannotTakeTheValuesAreRefused() throws Exception {
    execute("CREATE TABLE typed (id BIGINT PRIMARY KEY, doc JSONB, code VARCHAR(5), n SMALLINT)");
    LakebaseSchema wrong =
        LakebaseSchema.builder()
            .column("id", ColumnType.LONG)
            .column("doc", ColumnType.STRING)
            .column("code", ColumnType.STRING)
            .column("n", ColumnType.BOOLEAN)
            .build();
    assertThatThrownBy(() -> builder(wrong, "typed").build())
        .isInstanceOfSatisfying(
            LakebaseSinkException.class,
            e -> assertThat(e.errorClass()).isEqualTo(LakebaseSinkException.TABLE_MISMATCH))
        .hasMessageContaining("[doc (STRING into jsonb), n (BOOLEAN into smallint)]");
    LakebaseSchema right =
        LakebaseSchema.builder()
            .column("id", ColumnType.INT)
            .column("doc", ColumnType.JSON)
            .column("code", ColumnType.STRING)
            .column("n", ColumnType.LONG)
            .build();
    assertThat(builder(right, "typed").build().statement().key()).containsExactly("id");
  }

  @Test
  void aMissingSchemaIsReported() {
    assertThatThrownBy(() -> builder(ALL_TYPES, "nowhere.t").build())
        .isInstanceOfSatisfying(
            LakebaseSinkException.class,
            e -> assertThat(e.errorClass()).isEqualTo(LakebaseSinkException.TABLE_SETUP_FAILED))
        .hasMessageContaining("schema nowhere does not exist");
  }

  @Test
  void badIdentifiersAreRefusedBeforeConnecting() {
    // an unreachable endpoint: the refusal must come first
    LakebaseSinkBuilder<Object[]> unreachable =
        LakebaseSinkBuilder.<Object[]>forSchema(ALL_TYPES, row -> row)
            .option("endpoint", "127.0.0.1:1")
            .option("user", "u")
            .option("checkpointLocation", "/tmp/chk")
            .option("dbtable", "public.my-table");
    assertThatThrownBy(unreachable::build)
        .isInstanceOfSatisfying(
            LakebaseSinkException.class,
            e -> assertThat(e.errorClass()).isEqualTo(LakebaseSinkException.INVALID_OPTIONS))
        .hasMessageContaining("'my-table' is not a simple identifier");
  }

  @ParameterizedTest
  @EnumSource(OutputMode.class)
  void appendAndUpdateAreAcceptedCompleteIsRefused(OutputMode mode) {
    QueryContext query =
        new QueryContext("qid", "q", "run", "q-qid", "/tmp/chk", false, false, mode);
    LakebaseSinkBuilder<Object[]> builder =
        LakebaseSinkBuilder.<Object[]>forSchema(ALL_TYPES, row -> row)
            .option("endpoint", POSTGRES.jdbcUrl())
            .option("user", POSTGRES.user())
            .option("dbtable", "modes_" + mode.name().toLowerCase())
            .option("upsertkey", "id")
            .query(query);
    if (mode == OutputMode.COMPLETE) {
      assertThatThrownBy(builder::build)
          .isInstanceOfSatisfying(
              LakebaseSinkException.class,
              e ->
                  assertThat(e.errorClass())
                      .isEqualTo(LakebaseSinkException.UNSUPPORTED_OUTPUT_MODE))
          .hasMessageContaining("does not support output mode complete");
    } else {
      LakebaseSink<Object[]> sink = builder.build();
      assertThat(sink.config().checkpointLocation()).isEqualTo("/tmp/chk");
      assertThat(sink.statement().sql()).contains("ON CONFLICT (\"id\") DO UPDATE");
    }
  }

  private static PostgresTable describe(String schema, String table) throws SQLException {
    try (Connection c = POSTGRES.connect()) {
      return PostgresTable.describe(c, new PostgresTableName(schema, table)).orElseThrow();
    }
  }

  private static List<String> notNullColumns(String table) throws SQLException {
    try (Connection c = POSTGRES.connect();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT column_name FROM information_schema.columns WHERE table_name = '"
                    + table
                    + "' AND is_nullable = 'NO'")) {
      List<String> names = new java.util.ArrayList<>();
      while (rs.next()) {
        names.add(rs.getString(1));
      }
      return names;
    }
  }

  static void execute(String sql) throws SQLException {
    try (Connection c = POSTGRES.connect();
        Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }
}
