package io.lakestream.bench.lakebase;

import io.lakestream.bench.Measurement;
import io.lakestream.testkit.postgres.PostgresDatabase;
import java.sql.Connection;
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
 * The server's own ceiling for lakebase-upsert: the same {@link UpsertWorkload} upserted by a
 * PL/pgSQL procedure with no client in the loop. {@code backends} connections each {@code CALL} it
 * once, concurrently, for a disjoint share of the keys ({@code id % backends}); each walks the
 * sequence numbers in order in chunks of {@code backends * 1000} (fewer when there are fewer keys,
 * so a chunk never holds a key twice), upserts its share of a chunk, about 1,000 rows, by one
 * {@code INSERT .. SELECT .. FROM generate_series .. ON CONFLICT (id) DO UPDATE} and commits it. So
 * every update is its own row version of the target, in each key's order, as in the sink's
 * per-batch path, into a table of the same definition; the table is checked with {@link
 * UpsertWorkload#verify} afterwards like the sinks'.
 *
 * <p>Timed from the first {@code CALL} to the last one's return; CPU is the server's only (there is
 * no client work). Fails with the server's {@link SQLException} if a backend fails.
 */
final class UpsertCeiling {
  static final int BATCH_ROWS = 1000;
  static final String TABLE = "ceiling";

  /**
   * Static SQL (planned once per backend, as a prepared statement); the table name is fixed. The
   * key of sequence number s is {@link UpsertWorkload#keyOf}'s.
   */
  private static final String PROCEDURE =
      "CREATE OR REPLACE PROCEDURE lakestream_ceiling(total int8, keys int8, backends int4,"
          + " backend int4, chunk int8) LANGUAGE plpgsql AS $$\n"
          + "DECLARE lo int8 := 0;\n"
          + "BEGIN\n"
          + "  WHILE lo < total LOOP\n"
          + "    INSERT INTO "
          + UpsertCeiling.TABLE
          + " (id, seq, label)"
          + " SELECT g.id, g.seq, 'v' || g.seq FROM (SELECT s AS seq, (s % keys) * "
          + UpsertWorkload.MULTIPLIER
          + " % keys AS id FROM generate_series(lo, least(lo + chunk, total) - 1) s) g WHERE g.id % backends ="
          + " backend ON CONFLICT (id) DO UPDATE SET seq = EXCLUDED.seq, label = EXCLUDED.label;\n"
          + "    COMMIT;\n"
          + "    lo := lo + chunk;\n"
          + "  END LOOP;\n"
          + "END $$";

  private UpsertCeiling() {}

  /** What the ceiling runs, for the report. */
  static String describe(UpsertWorkload workload, int backends) {
    return String.format(
        Locale.ROOT,
        "server only: PL/pgSQL procedure on %d backends (one JDBC connection each, CALLed"
            + " concurrently, keys split by id %% %d), each upserting its keys' share of %,d-row"
            + " chunks of the same sequence (about %,d rows) by one INSERT .. SELECT FROM"
            + " generate_series .. ON CONFLICT (id) DO UPDATE and committing it: %,d row versions,"
            + " as the sink's per-batch path",
        backends,
        backends,
        chunk(workload, backends),
        chunk(workload, backends) / backends,
        workload.rows());
  }

  static Measurement run(
      PostgresDatabase db, UpsertWorkload workload, int backends, Optional<PostgresCpu> server)
      throws Exception {
    String table = TABLE;
    try (Connection c = db.connect();
        Statement s = c.createStatement()) {
      UpsertWorkload.createTable(c, table);
      s.execute(PROCEDURE);
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
                  call(connection, workload, backends, backend);
                  return null;
                }));
      }
      for (Future<?> call : calls) {
        call.get();
      }
      long nanos = System.nanoTime() - start;
      long cpu = server.map(PostgresCpu::nanos).orElse(0L) - cpu0;
      try (Connection c = db.connect()) {
        workload.verify(c, table);
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

  private static void call(
      Connection connection, UpsertWorkload workload, int backends, int backend)
      throws SQLException {
    connection.setAutoCommit(true); // CALL in autocommit: the procedure may COMMIT per batch
    try (Statement s = connection.createStatement()) {
      s.execute(
          String.format(
              Locale.ROOT,
              "CALL lakestream_ceiling(%d, %d, %d, %d, %d)",
              workload.rows(),
              workload.keys(),
              backends,
              backend,
              chunk(workload, backends)));
    }
  }

  /** Consecutive sequence numbers of one chunk: at most one per key. */
  private static long chunk(UpsertWorkload workload, int backends) {
    return Math.min((long) BATCH_ROWS * backends, workload.keys());
  }
}
