package io.lakestream.connectors.lakebase.sink.writer;

import io.lakestream.connectors.lakebase.LakebaseSchema;
import io.lakestream.connectors.lakebase.PasswordProvider;
import io.lakestream.connectors.lakebase.PostgresEndpoint;
import io.lakestream.connectors.lakebase.PostgresTableName;
import io.lakestream.connectors.lakebase.UpsertStatement;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.testkit.postgres.PostgresExtension;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Compares ways to run a batch of upserts on the same PostgreSQL: the writer's JDBC batch with
 * reWriteBatchedInserts, a JDBC batch without rewriting, and one INSERT .. SELECT FROM UNNEST of
 * column arrays; the writer with option writeMethod copy (binary COPY into a temporary table, then
 * INSERT .. SELECT .. ON CONFLICT). Not part of the build's test run (no Test/ITCase suffix); run
 * it with {@code -Dtest=UpsertStrategyBenchmark}.
 */
class UpsertStrategyBenchmark {
  @RegisterExtension static final PostgresExtension POSTGRES = new PostgresExtension();

  private static final int ROWS = 200_000;
  private static final int KEYS = 20_000;
  private static final int BATCH = 1000;
  private static final LakebaseSchema SCHEMA =
      LakebaseSchema.builder()
          .column("id", ColumnType.LONG)
          .column("v", ColumnType.STRING)
          .column("n", ColumnType.LONG)
          .build();

  @Test
  void compare() throws Exception {
    for (int round = 0; round < 3; round++) {
      System.out.printf("round %d%n", round);
      System.out.printf("  PostgresBatchWriter   : %,d rows/s%n", sinkWriter("t_writer", false));
      System.out.printf("  ... writeMethod copy  : %,d rows/s%n", sinkWriter("t_writerc", true));
      System.out.printf("  jdbc batch, rewritten : %,d rows/s%n", jdbcBatch("t_rewrite", true));
      System.out.printf("  jdbc batch, plain     : %,d rows/s%n", jdbcBatch("t_plain", false));
      System.out.printf("  unnest arrays         : %,d rows/s%n", unnest("t_unnest"));
      System.out.printf("  unnest primitive arr  : %,d rows/s%n", unnestPrimitive("t_unnestp"));
      System.out.printf("  copy binary + upsert  : %,d rows/s%n", copyUpsert("t_copy"));
    }
  }

  private static Object[][] batch(int start) {
    Object[][] rows = new Object[BATCH][];
    for (int i = 0; i < BATCH; i++) {
      long seq = start + i;
      long key = (seq * 7919) % KEYS;
      rows[i] = new Object[] {key, "value-" + seq, seq};
    }
    return rows;
  }

  private static void table(String name) throws Exception {
    try (Connection c = POSTGRES.connect();
        Statement s = c.createStatement()) {
      s.execute("DROP TABLE IF EXISTS " + name);
      s.execute("CREATE TABLE " + name + " (id BIGINT PRIMARY KEY, v TEXT, n BIGINT)");
    }
  }

  private static long sinkWriter(String name, boolean copy) throws Exception {
    table(name);
    UpsertStatement upsert =
        UpsertStatement.of(new PostgresTableName("public", name), SCHEMA, List.of("id"));
    {
      PostgresEndpoint endpoint =
          PostgresEndpoint.resolve(
              POSTGRES.jdbcUrl(),
              null,
              "x",
              POSTGRES.user(),
              PasswordProvider.of(POSTGRES.password()));
      try (PostgresBatchWriter writer =
          new PostgresBatchWriter(endpoint, upsert, 0, Duration.ofMillis(10), copy)) {
        long started = start();
        for (int start = 0; start < ROWS; start += BATCH) {
          writer.write(batch(start), BATCH);
        }
        return rate(started);
      }
    }
  }

  private static long jdbcBatch(String name, boolean rewrite) throws Exception {
    table(name);
    UpsertStatement upsert =
        UpsertStatement.of(new PostgresTableName("public", name), SCHEMA, List.of("id"));
    Properties properties = new Properties();
    properties.setProperty("reWriteBatchedInserts", String.valueOf(rewrite));
    properties.setProperty("user", POSTGRES.user());
    properties.setProperty("password", POSTGRES.password());
    try (Connection c = java.sql.DriverManager.getConnection(POSTGRES.jdbcUrl(), properties);
        PreparedStatement ps = c.prepareStatement(upsert.sql())) {
      c.setAutoCommit(false);
      long started = start();
      for (int start = 0; start < ROWS; start += BATCH) {
        Object[][] rows = batch(start);
        int kept = upsert.shape(rows, BATCH);
        for (int i = 0; i < kept; i++) {
          upsert.bind(ps, rows[i]);
          ps.addBatch();
        }
        ps.executeBatch();
        c.commit();
      }
      return rate(started);
    }
  }

  private static long unnest(String name) throws Exception {
    table(name);
    UpsertStatement upsert =
        UpsertStatement.of(new PostgresTableName("public", name), SCHEMA, List.of("id"));
    String sql =
        "INSERT INTO "
            + name
            + " (id, v, n) SELECT * FROM UNNEST(?::bigint[], ?::text[], ?::bigint[])"
            + " ON CONFLICT (id) DO UPDATE SET v = EXCLUDED.v, n = EXCLUDED.n";
    try (Connection c = POSTGRES.connect();
        PreparedStatement ps = c.prepareStatement(sql)) {
      c.setAutoCommit(false);
      long started = start();
      for (int start = 0; start < ROWS; start += BATCH) {
        Object[][] rows = batch(start);
        int kept = upsert.shape(rows, BATCH);
        Long[] ids = new Long[kept];
        String[] vs = new String[kept];
        Long[] ns = new Long[kept];
        for (int i = 0; i < kept; i++) {
          ids[i] = (Long) rows[i][0];
          vs[i] = (String) rows[i][1];
          ns[i] = (Long) rows[i][2];
        }
        ps.setArray(1, c.createArrayOf("bigint", ids));
        ps.setArray(2, c.createArrayOf("text", vs));
        ps.setArray(3, c.createArrayOf("bigint", ns));
        ps.executeUpdate();
        c.commit();
      }
      return rate(started);
    }
  }

  private static long serverStarted;
  private static long serverCpuStart;

  private static long rate(long started) {
    long nanos = System.nanoTime() - started;
    long cpu = serverCpu() - serverCpuStart;
    System.out.printf(
        "    (PostgreSQL CPU %.2f s = %,d rows per server CPU-s; wall %.2f s)%n",
        cpu / 1e9, (long) (ROWS / (cpu / 1e9)), nanos / 1e9);
    return (long) (ROWS / (nanos / 1e9));
  }

  private static long start() {
    serverCpuStart = serverCpu();
    return System.nanoTime();
  }

  /** CPU of the embedded server: postmaster (incl. reaped children) plus live backends. */
  private static long serverCpu() {
    ProcessHandle pm = POSTGRES.server().process().orElseThrow();
    long ticks = ticks(pm.pid(), true);
    for (ProcessHandle child : pm.descendants().toList()) {
      ticks += ticks(child.pid(), false);
    }
    return ticks * 10_000_000L;
  }

  private static long ticks(long pid, boolean reaped) {
    try {
      String stat = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/" + pid + "/stat"));
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      long t = Long.parseLong(f[11]) + Long.parseLong(f[12]);
      return reaped ? t + Long.parseLong(f[13]) + Long.parseLong(f[14]) : t;
    } catch (Exception e) {
      return 0;
    }
  }

  private static long unnestPrimitive(String name) throws Exception {
    table(name);
    UpsertStatement upsert =
        UpsertStatement.of(new PostgresTableName("public", name), SCHEMA, List.of("id"));
    String sql =
        "INSERT INTO "
            + name
            + " (id, v, n) SELECT * FROM UNNEST(?::bigint[], ?::text[], ?::bigint[])"
            + " ON CONFLICT (id) DO UPDATE SET v = EXCLUDED.v, n = EXCLUDED.n";
    try (Connection c = POSTGRES.connect();
        PreparedStatement ps = c.prepareStatement(sql)) {
      c.setAutoCommit(false);
      long started = start();
      for (int start = 0; start < ROWS; start += BATCH) {
        Object[][] rows = batch(start);
        int kept = upsert.shape(rows, BATCH);
        long[] ids = new long[kept];
        String[] vs = new String[kept];
        long[] ns = new long[kept];
        for (int i = 0; i < kept; i++) {
          ids[i] = (Long) rows[i][0];
          vs[i] = (String) rows[i][1];
          ns[i] = (Long) rows[i][2];
        }
        ps.setObject(1, ids);
        ps.setObject(2, vs);
        ps.setObject(3, ns);
        ps.executeUpdate();
        c.commit();
      }
      return rate(started);
    }
  }

  private static long copyUpsert(String name) throws Exception {
    table(name);
    UpsertStatement upsert =
        UpsertStatement.of(new PostgresTableName("public", name), SCHEMA, List.of("id"));
    try (Connection c = POSTGRES.connect()) {
      c.setAutoCommit(false);
      try (Statement s = c.createStatement()) {
        s.execute(
            "CREATE TEMP TABLE stage_"
                + name
                + " (id BIGINT, v TEXT, n BIGINT) ON COMMIT DELETE ROWS");
      }
      c.commit();
      org.postgresql.copy.CopyManager copy =
          c.unwrap(org.postgresql.PGConnection.class).getCopyAPI();
      try (PreparedStatement ps =
          c.prepareStatement(
              "INSERT INTO "
                  + name
                  + " (id, v, n) SELECT id, v, n FROM stage_"
                  + name
                  + " ON CONFLICT (id) DO UPDATE SET v = EXCLUDED.v, n = EXCLUDED.n")) {
        long started = start();
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream(64 * BATCH);
        for (int start = 0; start < ROWS; start += BATCH) {
          Object[][] rows = batch(start);
          int kept = upsert.shape(rows, BATCH);
          bytes.reset();
          java.io.DataOutputStream out = new java.io.DataOutputStream(bytes);
          out.writeBytes("PGCOPY\n");
          out.write(0xff);
          out.writeBytes("\r\n");
          out.write(0);
          out.writeInt(0);
          out.writeInt(0);
          for (int i = 0; i < kept; i++) {
            out.writeShort(3);
            out.writeInt(8);
            out.writeLong((Long) rows[i][0]);
            byte[] v = ((String) rows[i][1]).getBytes(java.nio.charset.StandardCharsets.UTF_8);
            out.writeInt(v.length);
            out.write(v);
            out.writeInt(8);
            out.writeLong((Long) rows[i][2]);
          }
          out.writeShort(-1);
          out.flush();
          copy.copyIn(
              "COPY stage_" + name + " (id, v, n) FROM STDIN (FORMAT binary)",
              new java.io.ByteArrayInputStream(bytes.toByteArray()));
          ps.executeUpdate();
          c.commit();
        }
        return rate(started);
      }
    }
  }
}
