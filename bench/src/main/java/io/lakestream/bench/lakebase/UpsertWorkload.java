package io.lakestream.bench.lakebase;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.apache.flink.api.java.tuple.Tuple2;

/**
 * The upsert stream of the lakebase benches and the table it must leave: sequence number {@code n}
 * updates key {@code (n * 7919) % keys} (a permutation, so keys interleave and every key gets
 * {@code rows / keys} updates), with columns {@code id int8} (primary key), {@code seq int8} and
 * {@code label text = 'v' || seq}. The last update of a key is its largest sequence number.
 *
 * <p>{@link #verify} reads the whole table and fails on the first row that is not the key's last
 * update, or when a key is missing or extra: a sink that drops, reorders or duplicates cannot pass.
 */
final class UpsertWorkload implements java.io.Serializable {
  private static final long serialVersionUID = 1L;
  static final long MULTIPLIER = 7919; // prime, coprime with 10^k and 2^k key counts

  private final long rows;
  private final int keys;

  UpsertWorkload(long rows, int keys) {
    if (keys <= 0 || rows < keys || keys % MULTIPLIER == 0) {
      throw new IllegalArgumentException(
          "need rows >= keys > 0 and keys not a multiple of "
              + MULTIPLIER
              + ": "
              + rows
              + ", "
              + keys);
    }
    this.rows = rows;
    this.keys = keys;
  }

  long rows() {
    return rows;
  }

  int keys() {
    return keys;
  }

  /** The key sequence number {@code seq} updates. */
  long keyOf(long seq) {
    return (seq % keys) * MULTIPLIER % keys;
  }

  /** The row of sequence number {@code seq}: (id, seq). */
  Tuple2<Long, Long> row(long seq) {
    return Tuple2.of(keyOf(seq), seq);
  }

  /** The sink's column values of a row. */
  static Object[] columns(Tuple2<Long, Long> row) {
    return new Object[] {row.f0, row.f1, "v" + row.f1};
  }

  /** {@code CREATE TABLE} of the target table (dropped first if it exists). */
  static void createTable(Connection connection, String table) throws SQLException {
    try (Statement s = connection.createStatement()) {
      s.execute("DROP TABLE IF EXISTS " + table);
      s.execute("CREATE TABLE " + table + " (id int8 PRIMARY KEY, seq int8 NOT NULL, label text)");
    }
  }

  /**
   * Checks that {@code table} holds exactly one row per key with the key's last update.
   *
   * @throws IllegalStateException naming the first wrong, missing or extra row
   */
  void verify(Connection connection, String table) throws SQLException {
    long[] last = new long[keys];
    java.util.Arrays.fill(last, -1);
    for (long seq = 0; seq < rows; seq++) {
      last[(int) keyOf(seq)] = seq;
    }
    connection.setAutoCommit(false); // lets the driver stream the result with a fetch size
    try (Statement s = connection.createStatement()) {
      s.setFetchSize(10_000);
      try (ResultSet rs = s.executeQuery("SELECT id, seq, label FROM " + table + " ORDER BY id")) {
        long expectedId = 0;
        while (rs.next()) {
          long id = rs.getLong(1);
          long seq = rs.getLong(2);
          String label = rs.getString(3);
          if (expectedId >= keys) {
            throw new IllegalStateException(
                "table " + table + " holds more than " + keys + " keys, e.g. " + id);
          }
          if (id != expectedId || seq != last[(int) id] || !("v" + seq).equals(label)) {
            throw new IllegalStateException(
                String.format(
                    "table %s: row (%d, %d, %s) where (%d, %d, v%d) was expected",
                    table,
                    id,
                    seq,
                    label,
                    expectedId,
                    last[(int) expectedId],
                    last[(int) expectedId]));
          }
          expectedId++;
        }
        if (expectedId != keys) {
          throw new IllegalStateException(
              "table " + table + " holds " + expectedId + " keys, expected " + keys);
        }
      }
    } finally {
      connection.rollback();
    }
  }
}
