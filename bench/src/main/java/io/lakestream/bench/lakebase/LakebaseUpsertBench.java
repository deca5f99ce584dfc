package io.lakestream.bench.lakebase;

import io.lakestream.bench.Bench;
import io.lakestream.bench.BenchOptions;
import io.lakestream.bench.BenchResult;
import io.lakestream.bench.BenchServices;
import io.lakestream.bench.Measurement;
import io.lakestream.connectors.lakebase.LakebaseSchema;
import io.lakestream.connectors.lakebase.LakebaseSinkBuilder;
import io.lakestream.connectors.lakebase.LakebaseSinkOptions;
import io.lakestream.connectors.lakebase.sink.LakebaseSink;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.state.query.OutputMode;
import io.lakestream.state.query.QueryContext;
import io.lakestream.state.query.ReplayPlan;
import io.lakestream.testkit.postgres.PostgresDatabase;
import io.lakestream.testkit.postgres.PostgresServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.connector.jdbc.JdbcConnectionOptions;
import org.apache.flink.connector.jdbc.JdbcExecutionOptions;
import org.apache.flink.connector.jdbc.core.datastream.sink.JdbcSink;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;

/**
 * lakebase-upsert (issues 7, 23): rows/s of upserting {@code rows} updates over {@code rows / 10}
 * keys (default 2M over 200k) into one PostgreSQL, lakestream's Lakebase sink in its exactly-once
 * mode against the server's own ceiling ({@link UpsertCeiling}: the sink's batch statement run on
 * arrays the server built, on as many backends as the sink has subtasks), which the ratio is taken
 * against; the sink's realTime path (at-least-once, one upsert transaction per batch) is a row of
 * its own in the same run. Flink's own JDBC connector ({@code flink-connector-jdbc} 3.3.0-1.20,
 * {@code JdbcSink} with {@code INSERT .. ON CONFLICT (id) DO UPDATE}) is printed beside them,
 * twice: with the plain JDBC URL (how the connector is documented) and with the driver's {@code
 * reWriteBatchedInserts=true} (multi-row INSERTs; its best case). Both sinks use batch size 1000
 * and a 100 ms batch interval, on the same 2-slot MiniCluster and topology ({@link UpsertJob}),
 * each into a fresh table of the same shape. Every side's table is then read back whole and must
 * hold exactly the last update of every key ({@link UpsertWorkload#verify}). The server is the
 * testkit's embedded PostgreSQL, or Debian's with {@code --postgres debian} ({@link
 * DebianPostgres}).
 */
public final class LakebaseUpsertBench implements Bench {
  static final int BATCH_SIZE = 1000;
  static final long BATCH_INTERVAL_MS = 100;

  /**
   * The sink's option writeMethod: its default unless {@code -Dbench.lakebase.writeMethod=unnest}
   * or {@code copy} chooses one.
   */
  static final String WRITE_METHOD = System.getProperty("bench.lakebase.writeMethod");

  private static final LakebaseSchema SCHEMA =
      LakebaseSchema.builder()
          .column("id", ColumnType.LONG, false)
          .column("seq", ColumnType.LONG, false)
          .column("label", ColumnType.STRING)
          .build();

  private static final String UPSERT_SQL =
      "INSERT INTO %s (id, seq, label) VALUES (?, ?, ?)"
          + " ON CONFLICT (id) DO UPDATE SET seq = EXCLUDED.seq, label = EXCLUDED.label";

  @Override
  public String id() {
    return "lakebase-upsert";
  }

  @Override
  public String description() {
    return "Lakebase sink (exactly-once and realTime) vs the server alone (the sink's statement on"
        + " server-built arrays, p backends) and Flink's JDBC sink (p=2, batch 1000); 2M upserts"
        + " over 200k keys";
  }

  @Override
  public long defaultRows() {
    return 2_000_000;
  }

  @Override
  public void check(BenchServices services) throws Exception {
    services.postgres();
    services.flink();
    services.load(JdbcSink.class.getName());
    services.load(LakebaseSink.class.getName());
    services.load("org.postgresql.Driver");
  }

  @Override
  public BenchResult run(BenchOptions options) throws Exception {
    long rows = options.rowsOr(defaultRows());
    UpsertWorkload workload = new UpsertWorkload(rows, (int) Math.max(1, rows / 10));
    Path dir = Files.createDirectories(options.workDir());
    DebianPostgres debian = "debian".equals(options.postgres()) ? DebianPostgres.start() : null;
    try (DebianPostgres stopped = debian;
        PostgresServer server = debian != null ? debian.server() : PostgresServer.start();
        PostgresDatabase db = server.createDatabase("lakebase_bench");
        MiniCluster cluster = cluster(options.parallelism())) {
      Optional<PostgresCpu> cpu =
          PostgresCpu.of(debian != null ? debian.process() : server.process());
      String settings = settings(db);
      cluster.start();
      Measurement ceiling = UpsertCeiling.run(db, workload, options.parallelism(), cpu);
      Measurement plainJdbc =
          runPeer(
              cluster, options, dir, workload, db, cpu, "jdbc_plain", db.jdbcUrl(), "plain URL");
      String rewriteUrl =
          db.jdbcUrl() + (db.jdbcUrl().contains("?") ? "&" : "?") + "reWriteBatchedInserts=true";
      Measurement rewriteJdbc =
          runPeer(
              cluster,
              options,
              dir,
              workload,
              db,
              cpu,
              "jdbc_rewrite",
              rewriteUrl,
              "reWriteBatchedInserts=true");
      Measurement ours = runOurs(cluster, options, dir, workload, db, cpu, false);
      Measurement realTime = runOurs(cluster, options, dir, workload, db, cpu, true);
      Measurement jdbc =
          plainJdbc.rowsPerSecond() >= rewriteJdbc.rowsPerSecond() ? plainJdbc : rewriteJdbc;
      List<String> notes = new ArrayList<>();
      notes.add(
          String.format(
              Locale.ROOT,
              "workload: %,d upserts over %,d keys (%d updates per key, interleaved), columns id"
                  + " int8 primary key, seq int8, label text; one generator subtask -> keyBy(id)"
                  + " -> %d sink subtasks; checkpoint every %d ms",
              rows,
              workload.keys(),
              rows / workload.keys(),
              options.parallelism(),
              options.checkpointInterval().toMillis()));
      notes.add(
          "ratio against the ceiling: "
              + UpsertCeiling.describe(workload, options.parallelism())
              + ", into a table of the same definition; run first, then the JDBC sinks, then"
              + " lakestream exactly-once, then its realTime path, each into its own fresh table."
              + " The ceiling's server work equals the realTime path's (one row version per"
              + " upsert); the exactly-once sink does other work (every row inserted into the"
              + " staging table, then per key and epoch its last row upserted into the target, and"
              + " the staged rows deleted), so it can pass the ceiling");
      notes.add(
          String.format(
              Locale.ROOT,
              "lakestream realTime path / ceiling: %.2f; realTime / exactly-once: %.2f",
              realTime.rowsPerSecond() / ceiling.rowsPerSecond(),
              realTime.rowsPerSecond() / ours.rowsPerSecond()));
      notes.add(
          String.format(
              Locale.ROOT,
              "lakestream / JDBC sink: %.2f against %s, %.2f against %s",
              ours.rowsPerSecond() / plainJdbc.rowsPerSecond(),
              plainJdbc.side(),
              ours.rowsPerSecond() / rewriteJdbc.rowsPerSecond(),
              rewriteJdbc.side()));
      notes.add(
          String.format(
              Locale.ROOT,
              "the faster JDBC sink (%s) / ceiling: %.2f",
              jdbc.side(),
              jdbc.rowsPerSecond() / ceiling.rowsPerSecond()));
      notes.add(
          "every table read back whole after its run: exactly one row per key holding its last"
              + " update (else the bench fails)");
      notes.add(
          "PostgreSQL: "
              + (debian != null ? debian.toString() : server.toString())
              + "; "
              + settings
              + " (the same for every side)");
      return new BenchResult(id(), ours, ceiling, List.of(realTime, plainJdbc, rewriteJdbc), notes);
    }
  }

  /** The server's version and the settings that matter most for write speed. */
  private static String settings(PostgresDatabase db) throws java.sql.SQLException {
    StringBuilder text = new StringBuilder();
    try (Connection c = db.connect();
        java.sql.Statement s = c.createStatement();
        java.sql.ResultSet r =
            s.executeQuery(
                "SELECT current_setting('server_version'), name, setting, unit FROM pg_settings"
                    + " WHERE name IN ('fsync', 'full_page_writes', 'synchronous_commit',"
                    + " 'shared_buffers', 'wal_buffers', 'max_wal_size', 'checkpoint_timeout',"
                    + " 'wal_level', 'autovacuum') ORDER BY name")) {
      while (r.next()) {
        if (text.length() == 0) {
          text.append("version ").append(r.getString(1));
        }
        text.append(", ").append(r.getString(2)).append('=').append(r.getString(3));
        if (r.getString(4) != null) {
          text.append(' ').append(r.getString(4));
        }
      }
    }
    return text.toString();
  }

  static MiniCluster cluster(int slots) {
    Configuration conf = new Configuration();
    conf.set(RestOptions.BIND_PORT, "0"); // the machine is shared: never 8081
    return new MiniCluster(
        new MiniClusterConfiguration.Builder()
            .setConfiguration(conf)
            .setNumTaskManagers(1)
            .setNumSlotsPerTaskManager(slots)
            .build());
  }

  private static Measurement runPeer(
      MiniCluster cluster,
      BenchOptions options,
      Path dir,
      UpsertWorkload workload,
      PostgresDatabase db,
      Optional<PostgresCpu> cpu,
      String table,
      String url,
      String variant)
      throws Exception {
    try (Connection c = db.connect()) {
      UpsertWorkload.createTable(c, table);
    }
    JdbcSink<Tuple2<Long, Long>> sink =
        JdbcSink.<Tuple2<Long, Long>>builder()
            .withQueryStatement(
                String.format(Locale.ROOT, UPSERT_SQL, table),
                (statement, row) -> {
                  statement.setLong(1, row.f0);
                  statement.setLong(2, row.f1);
                  statement.setString(3, "v" + row.f1);
                })
            .withExecutionOptions(
                JdbcExecutionOptions.builder()
                    .withBatchSize(BATCH_SIZE)
                    .withBatchIntervalMs(BATCH_INTERVAL_MS)
                    .build())
            .buildAtLeastOnce(
                new JdbcConnectionOptions.JdbcConnectionOptionsBuilder()
                    .withUrl(url)
                    .withDriverName("org.postgresql.Driver")
                    .withUsername(db.user())
                    .withPassword(db.password())
                    .build());
    Measurement m =
        UpsertJob.run(
            cluster,
            options,
            dir.resolve(table),
            workload,
            sink,
            "peer: Flink JDBC sink, " + variant,
            "flink-connector-jdbc 3.3.0-1.20 JdbcSink (at-least-once), INSERT .. ON CONFLICT DO"
                + " UPDATE, batch "
                + BATCH_SIZE
                + ", "
                + variant,
            cpu);
    try (Connection c = db.connect()) {
      workload.verify(c, table);
    }
    return m;
  }

  private static Measurement runOurs(
      MiniCluster cluster,
      BenchOptions options,
      Path dir,
      UpsertWorkload workload,
      PostgresDatabase db,
      Optional<PostgresCpu> cpu,
      boolean realTime)
      throws Exception {
    String table = realTime ? "lakestream_realtime" : "lakestream";
    try (Connection c = db.connect()) {
      UpsertWorkload.createTable(c, table);
    }
    String queryId = UUID.randomUUID().toString();
    QueryContext query =
        new QueryContext(
            queryId,
            "lakebase-upsert-bench",
            UUID.randomUUID().toString(),
            QueryContext.appIdFor("lakebase-upsert-bench", queryId),
            dir.resolve("query").toUri().toString(),
            false,
            false,
            OutputMode.UPDATE,
            ReplayPlan.NONE,
            realTime);
    LakebaseSink<Tuple2<Long, Long>> sink =
        LakebaseSinkBuilder.<Tuple2<Long, Long>>forSchema(SCHEMA, UpsertWorkload::columns)
            .option("endpoint", db.jdbcUrl())
            .option("user", db.user())
            .option("password", db.password())
            .option("dbtable", table)
            .option("batchsize", String.valueOf(BATCH_SIZE))
            .option("batchinterval", BATCH_INTERVAL_MS + " ms")
            .option(
                "writeMethod",
                WRITE_METHOD != null
                    ? WRITE_METHOD
                    : LakebaseSinkOptions.WRITE_METHOD.defaultValue())
            .query(query)
            .build(); // inspects the table (key inferred from its primary key): not timed
    Measurement m =
        UpsertJob.run(
            cluster,
            options,
            dir.resolve(table),
            workload,
            sink,
            realTime
                ? "lakestream: Lakebase sink, realTime path"
                : "lakestream: Lakebase sink, exactly-once",
            "LakebaseSink "
                + (sink.exactlyOnce()
                    ? "exactly-once (the default outside realTime)"
                    : "in a realTime query: at-least-once (its default there)")
                + ", batchinterval "
                + BATCH_INTERVAL_MS
                + " ms as every side (realTime's own default is 30 ms), key inferred from the primary key, batch "
                + BATCH_SIZE
                + ", "
                + (sink.exactlyOnce()
                    ? "each batch staged by "
                        + (sink.config().copy()
                            ? "one binary COPY"
                            : "one INSERT .. SELECT FROM UNNEST(arrays)")
                        + " into the staging table, each subtask's epoch applied at the checkpoint"
                        + " by one INSERT .. SELECT DISTINCT ON (id) .. ON CONFLICT (the target"
                        + " gets one row version per key and epoch)"
                    : sink.config().copy()
                        ? "one binary COPY into a temporary table and one INSERT .. SELECT .. ON"
                            + " CONFLICT from it per batch"
                        : "one INSERT .. SELECT FROM UNNEST(arrays) .. ON CONFLICT per batch"),
            cpu);
    try (Connection c = db.connect()) {
      workload.verify(c, table);
    }
    return m;
  }
}
