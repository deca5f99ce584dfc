package io.lakestream.connectors.lakebase.sink.writer;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.lakebase.LakebaseSchema;
import io.lakestream.connectors.lakebase.PasswordProvider;
import io.lakestream.connectors.lakebase.PostgresEndpoint;
import io.lakestream.connectors.lakebase.PostgresTableName;
import io.lakestream.connectors.lakebase.UpsertStatement;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.testkit.postgres.PostgresExtension;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.apache.flink.streaming.runtime.tasks.TestProcessingTimeService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** When the writer flushes: batch size, batch interval (processing-time timers), checkpoints. */
class LakebaseSinkWriterITCase {
  @RegisterExtension static final PostgresExtension POSTGRES = new PostgresExtension();

  private static final LakebaseSchema SCHEMA =
      LakebaseSchema.builder().column("id", ColumnType.LONG).column("v", ColumnType.STRING).build();

  private final TestProcessingTimeService time = new TestProcessingTimeService();
  private LakebaseSinkWriter<Long> writer;

  @BeforeEach
  void createTable() throws SQLException {
    execute("DROP TABLE IF EXISTS kv");
    execute("CREATE TABLE kv (id BIGINT PRIMARY KEY, v TEXT)");
  }

  @AfterEach
  void close() {
    if (writer != null) {
      writer.close();
    }
  }

  private LakebaseSinkWriter<Long> writer(int batchSize, long intervalMillis) {
    PostgresBatchWriter out = batchWriter();
    writer =
        new LakebaseSinkWriter<>(
            id -> new Object[] {id % 10, "v" + id}, out, time, null, batchSize, intervalMillis);
    return writer;
  }

  private static PostgresBatchWriter batchWriter() {
    PostgresEndpoint endpoint =
        PostgresEndpoint.resolve(
            POSTGRES.jdbcUrl(),
            null,
            "x",
            POSTGRES.user(),
            PasswordProvider.of(POSTGRES.password()));
    return new PostgresBatchWriter(
        endpoint,
        UpsertStatement.of(new PostgresTableName("public", "kv"), SCHEMA, List.of("id")),
        0,
        Duration.ofMillis(10));
  }

  @Test
  void elementsTheSelectorPicksDeleteTheirKey() throws Exception {
    time.setCurrentTime(0);
    PostgresBatchWriter out = batchWriter();
    // a negative id deletes the key of its absolute value
    writer =
        new LakebaseSinkWriter<>(
            id -> new Object[] {Math.abs(id), "v" + id},
            id -> id < 0,
            out,
            out::close,
            time,
            null,
            4,
            60_000);
    for (long id : new long[] {1, 2, 3, -2, 4, -4, -9, 5}) {
      writer.write(id, null); // two batches by size
    }
    assertThat(rows()).isEqualTo(3);
    assertThat(value(2)).isNull();
    writer.write(2L, null);
    writer.flush(false); // a batch without deletes: plain upserts
    assertThat(rows()).isEqualTo(4);
    writer.write(-1L, null);
    writer.flush(false);
    assertThat(rows()).isEqualTo(3);
    assertThat(value(1)).isNull();
    assertThat(value(2)).isEqualTo("v2");
    assertThat(value(3)).isEqualTo("v3");
    assertThat(value(5)).isEqualTo("v5");
  }

  @Test
  void flushesWhenTheBufferIsFull() throws Exception {
    time.setCurrentTime(1_000);
    LakebaseSinkWriter<Long> w = writer(5, 60_000);
    for (long i = 0; i < 4; i++) {
      w.write(i, null);
    }
    assertThat(rows()).isZero();
    assertThat(w.buffered()).isEqualTo(4);
    w.write(4L, null);
    assertThat(rows()).isEqualTo(5);
    assertThat(w.buffered()).isZero();
    for (long i = 5; i < 23; i++) {
      w.write(i, null);
      assertThat(w.buffered()).isLessThan(5); // never more than batchsize rows held
    }
    assertThat(rows()).isEqualTo(10);
    assertThat(value(3)).isEqualTo("v13"); // 23 = 4 full batches + 3 buffered (20, 21, 22)
  }

  @Test
  void flushesWhenTheOldestRowIsOlderThanTheInterval() throws Exception {
    time.setCurrentTime(1_000);
    LakebaseSinkWriter<Long> w = writer(1000, 100);
    w.write(1L, null);
    time.setCurrentTime(1_060);
    w.write(2L, null);
    time.setCurrentTime(1_099);
    assertThat(rows()).isZero();
    time.setCurrentTime(1_100); // the first row's age reaches 100 ms
    assertThat(rows()).isEqualTo(2);
    assertThat(w.buffered()).isZero();

    // the next row starts a new interval
    time.setCurrentTime(1_150);
    w.write(3L, null);
    time.setCurrentTime(1_249);
    assertThat(rows()).isEqualTo(2);
    time.setCurrentTime(1_250);
    assertThat(rows()).isEqualTo(3);
  }

  @Test
  void aFlushBySizeRestartsTheIntervalForTheNextRows() throws Exception {
    time.setCurrentTime(0);
    LakebaseSinkWriter<Long> w = writer(2, 100);
    w.write(1L, null);
    w.write(2L, null); // flushed by size; the timer of row 1 is still registered
    time.setCurrentTime(90);
    w.write(3L, null);
    time.setCurrentTime(100); // the stale timer fires: row 3 is only 10 ms old
    assertThat(rows()).isEqualTo(2);
    time.setCurrentTime(190);
    assertThat(rows()).isEqualTo(3);
  }

  @Test
  void aCheckpointFlushesEverythingBuffered() throws Exception {
    time.setCurrentTime(0);
    LakebaseSinkWriter<Long> w = writer(1000, 60_000);
    for (long i = 0; i < 7; i++) {
      w.write(i, null);
    }
    assertThat(rows()).isZero();
    w.flush(false);
    assertThat(rows()).isEqualTo(7);
    w.flush(true); // nothing left: no-op
    assertThat(rows()).isEqualTo(7);
  }

  @Test
  void anIntervalOfZeroWritesEveryRowAtOnce() throws Exception {
    LakebaseSinkWriter<Long> w = writer(1000, 0);
    w.write(1L, null);
    assertThat(rows()).isEqualTo(1);
    w.write(2L, null);
    assertThat(rows()).isEqualTo(2);
  }

  private static long rows() throws SQLException {
    try (Connection c = POSTGRES.connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT count(*) FROM kv")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private static String value(long id) throws SQLException {
    try (Connection c = POSTGRES.connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT v FROM kv WHERE id = " + id)) {
      return rs.next() ? rs.getString(1) : null;
    }
  }

  private static void execute(String sql) throws SQLException {
    try (Connection c = POSTGRES.connect();
        Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }
}
