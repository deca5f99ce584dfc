package io.lakestream.bench.lakebase;

import io.lakestream.bench.Measurement;
import io.lakestream.testkit.postgres.PostgresDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The server's own ceiling for lakebase-upsert: the same {@link UpsertWorkload} upserted by the
 * sink's own batch statement, {@code INSERT .. SELECT FROM unnest(ids, seqs, labels) .. ON CONFLICT
 * (id) DO UPDATE}, executed on arrays the server built beforehand, so only that statement's
 * execution is timed (no client data, no binding, no row generation).
 *
 * <p>Before the clock: the workload is cut into the batches the sink would send, {@code backends}
 * disjoint key shares ({@code id % backends}) of chunks of {@code backends * 1000} consecutive
 * sequence numbers (fewer when there are fewer keys, so a batch never holds a key twice), each
 * batch's columns aggregated server-side into three arrays sorted by key (as the sink sorts a
 * batch) in a table {@value #BATCHES}. Timed: {@code backends} connections concurrently, each
 * naming its batches in order to one prepared statement that unnests that batch's stored arrays
 * into the target, one autocommit transaction per batch (the sink's per-batch path). The client
 * sends two integers per batch; every row version is written by the server from its own arrays. The
 * table is then checked with {@link UpsertWorkload#verify} like the sinks'.
 *
 * <p>CPU is the server's only. Fails with the server's {@link SQLException} if a backend fails.
 */
final class UpsertCeiling {
  static final int BATCH_ROWS = 1000;
  static final String TABLE = "ceiling";
  static final String BATCHES = "ceiling_batches";

  /** The sink's statement shape over one stored batch's arrays. */
  private static final String UPSERT =
      "INSERT INTO "
          + TABLE
          + " (id, seq, label) SELECT u.id, u.seq, u.label FROM "
          + BATCHES
          + " b CROSS JOIN LATERAL unnest(b.ids, b.seqs, b.labels) AS u(id, seq, label)"
          + " WHERE b.backend = ? AND b.n = ?"
          + " ON CONFLICT (id) DO UPDATE SET seq = EXCLUDED.seq, label = EXCLUDED.label";

  private UpsertCeiling() {}

  /** What the ceiling runs, for the report. */
  static String describe(UpsertWorkload workload, int backends) {
    return String.format(
        Locale.ROOT,
        "server only: the sink's batch statement INSERT .. SELECT FROM unnest(ids, seqs, labels) .."
            + " ON CONFLICT (id) DO UPDATE on %d backends concurrently (keys split by id %% %d),"
            + " each batch about %,d rows (its share of a %,d-row chunk of the sequence, sorted by"
            + " key) unnested from arrays the server built before the clock, one autocommit"
            + " transaction per batch: %,d row versions, as the sink's per-batch path",
        backends,
        backends,
        chunk(workload, backends) / backends,
        chunk(workload, backends),
        workload.rows());
  }

  static Measurement run(
      PostgresDatabase db, UpsertWorkload workload, int backends, Optional<PostgresCpu> server)
      throws Exception {
    int batches;
    try (Connection c = db.connect()) {
      UpsertWorkload.createTable(c, TABLE);
      batches = prepareBatches(c, workload, backends);
    }
    List<Connection> connections = new ArrayList<>();
    ExecutorService pool = Executors.newFixedThreadPool(backends);
    try {
      for (int b = 0; b < backends; b++) {
        connections.add(db.connect()); // connected before the clock starts, as the sinks' are
      }
      long cpu0 = server.map(PostgresCpu::nanos).orElse(0L);
      long start = System.nanoTime();
      List<Future<?>> calls = new ArrayList<>();
      for (int b = 0; b < backends; b++) {
        Connection connection = connections.get(b);
        int backend = b;
        calls.add(
            pool.submit(
                () -> {
                  upsert(connection, backend, batches);
                  return null;
                }));
      }
      for (Future<?> call : calls) {
        call.get();
      }
      long nanos = System.nanoTime() - start;
      long cpu = server.map(PostgresCpu::nanos).orElse(0L) - cpu0;
      try (Connection c = db.connect();
          Statement s = c.createStatement()) {
        workload.verify(c, TABLE);
        c.setAutoCommit(true);
        s.execute("DROP TABLE " + BATCHES);
      }
      return new Measurement(
          "ceiling: PostgreSQL alone (" + backends + " backends)",
          workload.rows(),
          nanos,
          server.isPresent() ? cpu : -1,
          -1,
          -1,
          describe(workload, backends)
              + (server.isPresent()
                  ? String.format(Locale.ROOT, "; CPU s = PostgreSQL %.2f", cpu / 1e9)
                  : "; CPU unknown (external PostgreSQL)"));
    } finally {
      pool.shutdownNow();
      for (Connection c : connections) {
        c.close();
      }
    }
  }

  /**
   * Builds table {@value #BATCHES}: per backend and batch number its rows as three arrays sorted by
   * key. Returns the number of batches per backend (the last may be empty for some backends).
   */
  private static int prepareBatches(Connection c, UpsertWorkload workload, int backends)
      throws SQLException {
    long chunk = chunk(workload, backends);
    try (Statement s = c.createStatement()) {
      s.execute("DROP TABLE IF EXISTS " + BATCHES);
      s.execute(
          "CREATE TABLE "
              + BATCHES
              + " (backend int4, n int4, ids int8[], seqs int8[], labels text[],"
              + " PRIMARY KEY (backend, n))");
      s.execute(
          String.format(
              Locale.ROOT,
              "INSERT INTO %s SELECT id %% %d, seq / %d, array_agg(id ORDER BY id),"
                  + " array_agg(seq ORDER BY id), array_agg('v' || seq ORDER BY id) FROM (SELECT"
                  + " s AS seq, (s %% %d) * %d %% %d AS id FROM generate_series(0, %d) s) g"
                  + " GROUP BY 1, 2",
              BATCHES,
              backends,
              chunk,
              workload.keys(),
              UpsertWorkload.MULTIPLIER,
              workload.keys(),
              workload.rows() - 1));
      s.execute("VACUUM ANALYZE " + BATCHES);
      try (ResultSet r = s.executeQuery("SELECT max(n) + 1 FROM " + BATCHES)) {
        r.next();
        return r.getInt(1);
      }
    }
  }

  private static void upsert(Connection connection, int backend, int batches) throws SQLException {
    connection.setAutoCommit(true); // one transaction per batch, as the sink's
    try (PreparedStatement statement = connection.prepareStatement(UPSERT)) {
      for (int n = 0; n < batches; n++) {
        statement.setInt(1, backend);
        statement.setInt(2, n);
        statement.executeUpdate();
      }
    }
  }

  /** Consecutive sequence numbers of one chunk: at most one per key. */
  private static long chunk(UpsertWorkload workload, int backends) {
    return Math.min((long) BATCH_ROWS * backends, workload.keys());
  }
}
