package io.lakestream.connectors.lakebase.sink.writer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.connectors.lakebase.LakebaseSchema;
import io.lakestream.connectors.lakebase.LakebaseWriteException;
import io.lakestream.connectors.lakebase.PasswordProvider;
import io.lakestream.connectors.lakebase.PostgresEndpoint;
import io.lakestream.connectors.lakebase.PostgresTableName;
import io.lakestream.connectors.lakebase.UpsertStatement;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.testkit.postgres.PostgresExtension;
import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Batches, ordering, retries and error reports of the batch writer on a real PostgreSQL, writing by
 * UNNEST arrays ({@link PostgresBatchWriterCopyITCase} runs them all writing by COPY).
 */
class PostgresBatchWriterITCase {
  @RegisterExtension static final PostgresExtension POSTGRES = new PostgresExtension();

  private static final LakebaseSchema SCHEMA =
      LakebaseSchema.builder()
          .column("id", ColumnType.LONG)
          .column("name", ColumnType.STRING)
          .column("code", ColumnType.STRING)
          .column("qty", ColumnType.INT)
          .build();
  private static final PostgresTableName ITEMS = new PostgresTableName("public", "items");

  private final AtomicInteger passwordReads = new AtomicInteger();

  @BeforeEach
  void createTable() throws SQLException {
    execute("DROP TABLE IF EXISTS items");
    execute(
        "CREATE TABLE items (id BIGINT PRIMARY KEY, name TEXT NOT NULL, code VARCHAR(5),"
            + " qty SMALLINT CHECK (qty >= 0))");
  }

  private PostgresBatchWriter writer(List<String> key, int maxRetries) {
    return writer(POSTGRES.jdbcUrl(), key, maxRetries);
  }

  private PostgresBatchWriter writer(String url, List<String> key, int maxRetries) {
    String password = POSTGRES.password();
    AtomicInteger reads = passwordReads;
    PasswordProvider counting =
        () -> {
          reads.incrementAndGet();
          return password;
        };
    PostgresEndpoint endpoint = PostgresEndpoint.resolve(url, null, "x", POSTGRES.user(), counting);
    return new PostgresBatchWriter(
        endpoint,
        UpsertStatement.of(ITEMS, SCHEMA, key),
        maxRetries,
        Duration.ofMillis(20),
        copy());
  }

  /** Whether the writers upsert by binary COPY (option writeMethod copy); by UNNEST here. */
  boolean copy() {
    return false;
  }

  private static Object[][] rows(Object[]... rows) {
    return rows;
  }

  @Test
  void withAVersionColumnAReplayedOlderRowNeverMovesAKeyBackwards() throws Exception {
    UpsertStatement guarded =
        UpsertStatement.of(ITEMS, SCHEMA, List.of("id")).withVersionColumn("qty");
    try (PostgresBatchWriter writer =
        new PostgresBatchWriter(endpoint(), guarded, 0, Duration.ofMillis(10), copy())) {
      writer.write(rows(new Object[] {1L, "v5", "x", 5}, new Object[] {2L, "v7", "x", 7}), 2);
      // a replay after a failure: older versions of both keys, and an equal one
      writer.write(rows(new Object[] {1L, "v3", "x", 3}, new Object[] {2L, "v7b", "x", 7}), 2);
      assertThat(table()).containsExactly(Map.entry(1L, "v5/x/5"), Map.entry(2L, "v7/x/7"));
      writer.write(rows(new Object[] {1L, "v6", "x", 6}, new Object[] {3L, "v1", "x", 1}), 2);
    }
    assertThat(table())
        .containsExactly(Map.entry(1L, "v6/x/6"), Map.entry(2L, "v7/x/7"), Map.entry(3L, "v1/x/1"));
  }

  @Test
  void duplicateKeysInOneBatchKeepTheLastRow() throws Exception {
    try (PostgresBatchWriter writer = writer(List.of("id"), 0)) {
      Object[][] batch =
          rows(
              new Object[] {1L, "a", "x", 1},
              new Object[] {2L, "b", "x", 2},
              new Object[] {1L, "c", "x", 3},
              new Object[] {1L, "d", "x", 4});
      writer.write(batch, 4);
      writer.write(rows(new Object[] {2L, "b2", null, null}), 1);
      assertThat(writer.batches()).isEqualTo(2);
    }
    assertThat(table()).containsExactly(Map.entry(1L, "d/x/4"), Map.entry(2L, "b2/null/null"));
  }

  @Test
  void rowsOfABatchAreWrittenInKeyOrder() throws Exception {
    List<Long> shuffled = new ArrayList<>();
    for (long i = 0; i < 200; i++) {
      shuffled.add((i * 37) % 200);
    }
    Object[][] batch = new Object[200][];
    for (int i = 0; i < 200; i++) {
      batch[i] = new Object[] {shuffled.get(i), "n", "c", 0};
    }
    try (PostgresBatchWriter writer = writer(List.of("id"), 0)) {
      writer.write(batch, 200);
    }
    // a fresh heap table stores rows in the order they were inserted
    List<Long> physical = new ArrayList<>();
    try (Connection c = POSTGRES.connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT id FROM items ORDER BY ctid")) {
      while (rs.next()) {
        physical.add(rs.getLong(1));
      }
    }
    assertThat(physical).hasSize(200).isSorted();
  }

  @Test
  void aBatchOfChangesUpsertsAndDeletesInOneTransactionTheLastChangeOfAKeyWinning()
      throws Exception {
    try (PostgresBatchWriter writer = writer(List.of("id"), 0)) {
      writer.write(rows(item(1, "a"), item(2, "b"), item(3, "c"), item(4, "d"), item(5, "e")), 5);
      Object[][] changes =
          rows(
              item(6, "new"),
              item(2, "deleted"),
              item(3, "updated"),
              item(42, "a key that is not there"),
              item(4, "deleted first"),
              item(4, "then written again"),
              item(7, "written first"),
              item(7, "then deleted"));
      boolean[] deletes = {false, true, false, true, true, false, false, true};
      writer.write(changes, deletes, 8);
      assertThat(writer.batches()).isEqualTo(2);
    }
    assertThat(table())
        .containsExactly(
            Map.entry(1L, "a/x/1"),
            Map.entry(3L, "updated/x/1"),
            Map.entry(4L, "then written again/x/1"),
            Map.entry(5L, "e/x/1"),
            Map.entry(6L, "new/x/1"));
  }

  @Test
  void aBatchThatOnlyDeletesWorksAndDeletingAMissingKeyIsANoOp() throws Exception {
    try (PostgresBatchWriter writer = writer(List.of("id"), 0)) {
      writer.write(rows(item(1, "a"), item(2, "b")), 2);
      writer.write(rows(item(2, "gone"), item(99, "never there")), new boolean[] {true, true}, 2);
      writer.write(rows(item(98, "never there")), new boolean[] {true}, 1);
    }
    assertThat(table()).containsExactly(Map.entry(1L, "a/x/1"));
  }

  @Test
  void keysOfTypesWithoutArrayBindingAreDeletedThroughJdbcBatches() throws Exception {
    execute("DROP TABLE IF EXISTS daily");
    execute("CREATE TABLE daily (day DATE PRIMARY KEY, n BIGINT)");
    LakebaseSchema schema =
        LakebaseSchema.builder()
            .column("day", ColumnType.DATE, false)
            .column("n", ColumnType.LONG)
            .build();
    UpsertStatement upsert =
        UpsertStatement.of(new PostgresTableName("public", "daily"), schema, List.of("day"));
    assertThat(upsert.deleteUnnestSql()).isNull();
    LocalDate first = LocalDate.of(2026, 3, 1);
    try (PostgresBatchWriter writer =
        new PostgresBatchWriter(endpoint(), upsert, 0, Duration.ofMillis(10), copy())) {
      writer.write(
          rows(new Object[] {first, 1L}, new Object[] {first.plusDays(1), 2L}), 2); // LocalDate
      int second = (int) first.plusDays(1).toEpochDay(); // days since the epoch, as SQL rows hold
      writer.write(
          rows(new Object[] {second, null}, new Object[] {(int) first.toEpochDay() + 5, 6L}),
          new boolean[] {true, false},
          2);
    }
    List<String> found = new ArrayList<>();
    try (Connection c = POSTGRES.connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT day, n FROM daily ORDER BY day")) {
      while (rs.next()) {
        found.add(rs.getObject(1, LocalDate.class) + "=" + rs.getLong(2));
      }
    }
    assertThat(found).containsExactly("2026-03-01=1", "2026-03-06=6");
  }

  @Test
  void aDeleteThatFailsNamesTheKeyAndNothingOfTheBatchIsCommitted() throws Exception {
    execute("DROP TABLE IF EXISTS item_refs");
    try (PostgresBatchWriter writer = writer(List.of("id"), 3)) {
      writer.write(rows(item(1, "a"), item(2, "b")), 2);
      execute("CREATE TABLE item_refs (item BIGINT REFERENCES items (id))");
      execute("INSERT INTO item_refs VALUES (2)");
      Object[][] changes = rows(item(10, "new"), item(2, "deleted"), item(1, "updated"));
      assertThatThrownBy(() -> writer.write(changes, new boolean[] {false, true, false}, 3))
          .isInstanceOfSatisfying(
              LakebaseWriteException.class,
              e -> {
                assertThat(e.key()).isEqualTo("(id=2)");
                assertThat(e.sqlState()).isEqualTo("23503");
                assertThat(e.getMessage())
                    .contains("cannot delete row with key (id=2) from table public.items");
              });
      assertThat(writer.retries()).isZero();
    } finally {
      execute("DROP TABLE IF EXISTS item_refs");
    }
    assertThat(table()).containsExactly(Map.entry(1L, "a/x/1"), Map.entry(2L, "b/x/1"));
  }

  @Test
  void aBatchOfChangesIsRetriedWholeOnANewConnection() throws Exception {
    try (PostgresBatchWriter writer = writer(List.of("id"), 3)) {
      writer.write(rows(item(1, "a"), item(2, "b")), 2);
      assertThat(terminateSinkConnections()).isEqualTo(1);
      writer.write(rows(item(1, "gone"), item(3, "c")), new boolean[] {true, false}, 2);
      assertThat(writer.retries()).isEqualTo(1);
    }
    assertThat(table()).containsExactly(Map.entry(2L, "b/x/1"), Map.entry(3L, "c/x/1"));
  }

  private static Object[] item(long id, String name) {
    return new Object[] {id, name, "x", 1};
  }

  private static PostgresEndpoint endpoint() {
    return PostgresEndpoint.resolve(
        POSTGRES.jdbcUrl(), null, "x", POSTGRES.user(), PasswordProvider.of(POSTGRES.password()));
  }

  @Test
  void withoutKeyRowsAreInserted() throws Exception {
    execute("ALTER TABLE items DROP CONSTRAINT items_pkey");
    try (PostgresBatchWriter writer = writer(List.of(), 0)) {
      writer.write(rows(new Object[] {1L, "a", null, 1}, new Object[] {1L, "a", null, 1}), 2);
    }
    assertThat(count("SELECT count(*) FROM items WHERE id = 1")).isEqualTo(2);
  }

  @Test
  void aNotNullViolationNamesTheRowsKeyAndTheColumn() throws Exception {
    assertFailure(new Object[] {7L, null, "x", 1}, "(id=7)", "name", "23502");
  }

  @Test
  void aValueTooLongNamesTheColumnFoundByProbing() throws Exception {
    assertFailure(new Object[] {8L, "n", "toolong", 1}, "(id=8)", "code", "22001");
  }

  @Test
  void aNumericOverflowNamesTheColumn() throws Exception {
    assertFailure(new Object[] {9L, "n", "x", 70_000}, "(id=9)", "qty", "22003");
  }

  @Test
  void aCheckViolationNamesTheColumn() throws Exception {
    assertFailure(new Object[] {10L, "n", "x", -1}, "(id=10)", "qty", "23514");
  }

  @Test
  void aNulCharacterNamesTheColumn() throws Exception {
    // valid in JSON (escaped) and in a Delta string, but PostgreSQL text cannot hold U+0000
    assertFailure(new Object[] {12L, "a\u0000b", "x", 1}, "(id=12)", "name", "22021");
  }

  @Test
  void aValueOfTheWrongJavaTypeNamesTheColumn() throws Exception {
    assertFailure(new Object[] {11L, 42, "x", 1}, "(id=11)", "name", null);
  }

  private void assertFailure(Object[] bad, String key, String column, String sqlState)
      throws Exception {
    Object[][] batch = new Object[50][];
    for (int i = 0; i < 50; i++) {
      batch[i] = new Object[] {100L + i, "ok", "x", 1};
    }
    batch[25] = bad;
    try (PostgresBatchWriter writer = writer(List.of("id"), 3)) {
      assertThatThrownBy(() -> writer.write(batch, 50))
          .isInstanceOfSatisfying(
              LakebaseWriteException.class,
              e -> {
                assertThat(e.key()).isEqualTo(key);
                assertThat(e.column()).isEqualTo(column);
                assertThat(e.sqlState()).isEqualTo(sqlState);
                assertThat(e.getMessage())
                    .contains("key " + key)
                    .contains("column \"" + column + "\"");
              });
      assertThat(writer.retries()).isZero();
      // nothing of the failed batch is committed, and the writer still works
      assertThat(count("SELECT count(*) FROM items")).isZero();
      writer.write(rows(new Object[] {1L, "fine", null, null}), 1);
    }
    assertThat(count("SELECT count(*) FROM items")).isEqualTo(1);
  }

  @Test
  void typesWithoutArrayBindingGoThroughJdbcBatches() throws Exception {
    execute("DROP TABLE IF EXISTS events");
    execute("CREATE TABLE events (id BIGINT PRIMARY KEY, at TIMESTAMPTZ, doc JSONB NOT NULL)");
    LakebaseSchema schema =
        LakebaseSchema.builder()
            .column("id", ColumnType.LONG)
            .column("at", ColumnType.TIMESTAMP)
            .column("doc", ColumnType.JSON)
            .build();
    UpsertStatement upsert =
        UpsertStatement.of(new PostgresTableName("public", "events"), schema, List.of("id"));
    assertThat(upsert.unnestSql()).isNull();
    PostgresEndpoint endpoint =
        PostgresEndpoint.resolve(
            POSTGRES.jdbcUrl(),
            null,
            "x",
            POSTGRES.user(),
            PasswordProvider.of(POSTGRES.password()));
    java.time.Instant at = java.time.Instant.parse("2026-01-02T03:04:05.123456Z");
    try (PostgresBatchWriter writer =
        new PostgresBatchWriter(endpoint, upsert, 0, Duration.ofMillis(10), copy())) {
      writer.write(
          rows(
              new Object[] {2L, at, "{\"v\": 1}"},
              new Object[] {1L, null, "{\"v\": 2}"},
              new Object[] {2L, at, "{\"v\": 3}"},
              new Object[] {3L, at.getEpochSecond() * 1_000_000 + 123_456, "{\"v\": 4}"}),
          4); // a TIMESTAMP is an Instant or, as Flink SQL's rows hold it, Long microseconds
      assertThatThrownBy(() -> writer.write(rows(new Object[] {5L, at, null}), 1))
          .isInstanceOfSatisfying(
              LakebaseWriteException.class,
              e -> {
                assertThat(e.key()).isEqualTo("(id=5)");
                assertThat(e.column()).isEqualTo("doc");
              });
    }
    try (Connection c = POSTGRES.connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT id, at, doc->>'v' FROM events ORDER BY id")) {
      List<String> found = new ArrayList<>();
      while (rs.next()) {
        found.add(
            rs.getLong(1)
                + "/"
                + (rs.getObject(2, java.time.OffsetDateTime.class) == null
                    ? "null"
                    : rs.getObject(2, java.time.OffsetDateTime.class).toInstant())
                + "/"
                + rs.getString(3));
      }
      assertThat(found).containsExactly("1/null/2", "2/" + at + "/3", "3/" + at + "/4");
    }
  }

  @Test
  void aTerminatedConnectionIsRetriedOnANewOneThatAsksForThePasswordAgain() throws Exception {
    try (PostgresBatchWriter writer = writer(List.of("id"), 3)) {
      writer.write(rows(new Object[] {1L, "a", null, null}), 1);
      assertThat(passwordReads).hasValue(1);
      assertThat(terminateSinkConnections()).isEqualTo(1);
      writer.write(rows(new Object[] {2L, "b", null, null}, new Object[] {1L, "a2", null, 1}), 2);
      assertThat(writer.retries()).isEqualTo(1);
      assertThat(writer.connects()).isEqualTo(2);
      assertThat(passwordReads).hasValue(2);
    }
    assertThat(table()).containsExactly(Map.entry(1L, "a2/null/1"), Map.entry(2L, "b/null/null"));
  }

  @Test
  void transientErrorsOutlastingTheRetriesFailWithTheCause() throws Exception {
    int closedPort;
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    try (PostgresBatchWriter writer =
        writer("jdbc:postgresql://127.0.0.1:" + closedPort + "/db", List.of("id"), 2)) {
      long started = System.nanoTime();
      assertThatThrownBy(() -> writer.write(rows(new Object[] {1L, "a", null, null}), 1))
          .isInstanceOfSatisfying(
              LakebaseWriteException.class,
              e -> {
                assertThat(e.sqlState()).isEqualTo("08001");
                assertThat(e.getCause()).isInstanceOf(SQLException.class);
              })
          .hasMessageContaining("failed with a transient error 3 times")
          .hasMessageContaining("maxretries");
      // backoff 20 ms, then 40 ms
      assertThat(Duration.ofNanos(System.nanoTime() - started))
          .isGreaterThan(Duration.ofMillis(55));
      assertThat(writer.retries()).isEqualTo(2);
      assertThat(passwordReads).hasValue(3);
    }
  }

  @Test
  void transientSqlStatesAreRecognised() {
    for (String state : List.of("08006", "08001", "40P01", "40001", "53300", "57P01", "57P03")) {
      assertThat(PostgresBatchWriter.isTransient(new SQLException("x", state))).as(state).isTrue();
    }
    for (String state : List.of("23505", "22001", "42P01", "28P01")) {
      assertThat(PostgresBatchWriter.isTransient(new SQLException("x", state))).as(state).isFalse();
    }
    SQLException batch = new java.sql.BatchUpdateException("batch", "23505", new int[0]);
    batch.setNextException(new SQLException("deadlock", "40P01"));
    assertThat(PostgresBatchWriter.isTransient(batch)).isTrue();
    assertThat(PostgresBatchWriter.isTransient(new IOException("token service down"))).isTrue();
  }

  static int terminateSinkConnections() throws SQLException {
    return (int)
        count(
            "SELECT count(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                + " WHERE application_name = 'lakestream-lakebase-sink'"
                + " AND datname = current_database()) t");
  }

  private static Map<Long, String> table() throws SQLException {
    Map<Long, String> rows = new LinkedHashMap<>();
    try (Connection c = POSTGRES.connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT id, name, code, qty FROM items ORDER BY id")) {
      while (rs.next()) {
        rows.put(rs.getLong(1), rs.getString(2) + "/" + rs.getString(3) + "/" + rs.getObject(4));
      }
    }
    return rows;
  }

  static long count(String sql) throws SQLException {
    try (Connection c = POSTGRES.connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  static void execute(String sql) throws SQLException {
    try (Connection c = POSTGRES.connect();
        Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }
}
