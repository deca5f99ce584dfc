package io.lakestream.connectors.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.jdbc.source.JdbcSource;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.testkit.postgres.PostgresExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The source against the testkit's real PostgreSQL, in a bounded job of two readers: every row of
 * the table (NULL and out-of-bounds partition keys included) comes exactly once, in its partition,
 * before that partition's end, whose count matches; the columns' types and values convert; the
 * password comes from a secret file; a missing one fails naming its source.
 */
class JdbcSourceITCase {
  @RegisterExtension static final PostgresExtension POSTGRES = new PostgresExtension();

  @TempDir static Path dir;

  @BeforeAll
  static void table() throws Exception {
    try (Connection c = POSTGRES.connect();
        Statement s = c.createStatement()) {
      s.execute(
          "CREATE TABLE items (id BIGINT, name TEXT, price NUMERIC(10,2), day DATE,"
              + " at TIMESTAMPTZ, ok BOOLEAN)");
      s.execute(
          "INSERT INTO items SELECT CASE WHEN g % 50 = 0 THEN NULL ELSE g END, 'n-' || g,"
              + " g * 1.25, DATE '2026-01-01' + (g % 30), TIMESTAMPTZ '2026-01-01 00:00:00+00'"
              + " + g * INTERVAL '1 minute', g % 2 = 0 FROM generate_series(-20, 1200) g");
    }
  }

  private Map<String, String> options() throws Exception {
    Path secret = dir.resolve("pg-password");
    Files.writeString(secret, POSTGRES.password() + "\n");
    Map<String, String> options = new LinkedHashMap<>();
    options.put("url", POSTGRES.jdbcUrl());
    options.put("user", POSTGRES.user());
    options.put("passwordFile", secret.toString());
    options.put("dbtable", "items");
    options.put("partitionColumn", "id");
    options.put("lowerBound", "0");
    options.put("upperBound", "1000");
    options.put("numPartitions", "5");
    options.put("fetchsize", "100");
    return options;
  }

  @Test
  void emitsEveryRowOnceThenEachPartitionsEnd() throws Exception {
    JdbcSource source = JdbcSource.create("items", options(), null);
    assertThat(source.schema().columns().stream().map(c -> c.type()).toList())
        .containsExactly(
            ColumnType.LONG,
            ColumnType.STRING,
            ColumnType.decimal(10, 2),
            ColumnType.DATE,
            ColumnType.TIMESTAMP,
            ColumnType.BOOLEAN);
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(2);
    List<String> out = new ArrayList<>();
    try (CloseableIterator<String> it =
        env.fromSource(source, WatermarkStrategy.noWatermarks(), "items")
            .map(JdbcSourceITCase::line)
            .returns(Types.STRING)
            .executeAndCollect()) {
      it.forEachRemaining(out::add);
    }
    TreeMap<Integer, Long> rowsPerPartition = new TreeMap<>();
    TreeMap<Integer, Long> ends = new TreeMap<>();
    List<String> names = new ArrayList<>();
    for (String line : out) {
      String[] parts = line.split("\\|", 3);
      int partition = Integer.parseInt(parts[0]);
      if (parts[1].equals("end")) {
        assertThat(ends.put(partition, Long.parseLong(parts[2]))).isNull();
      } else {
        assertThat(ends).as("no row after its partition's end").doesNotContainKey(partition);
        rowsPerPartition.merge(partition, 1L, Long::sum);
        names.add(parts[1].split(", ")[1]);
      }
    }
    assertThat(ends).isEqualTo(rowsPerPartition);
    assertThat(names).hasSize(1221).doesNotHaveDuplicates().contains("n-1200", "n--20", "n-50");
    // partition 0: ids -20..199 but the four multiples of 50 there (216), and the 25 NULLs
    assertThat(rowsPerPartition.get(0)).isEqualTo(241);
    // the last partition: ids 800..1200 but the nine multiples of 50 there
    assertThat(rowsPerPartition.get(4)).isEqualTo(392);
    assertThat(out)
        .anyMatch(l -> l.equals("1|[201, n-201, 251.25, 2026-01-22, 2026-01-01T03:21:00Z, false]"));
  }

  private static String line(Row row) {
    JdbcRecord r = JdbcRecord.of(row);
    return r.isPartitionEnd()
        ? r.partition() + "|end|" + r.rows()
        : r.partition() + "|" + Arrays.toString(r.values());
  }

  @Test
  void aMissingPasswordNamesItsSourceBeforeTheJobStarts() throws Exception {
    Map<String, String> options = options();
    options.remove("passwordFile");
    options.put("passwordEnv", "LAKESTREAM_JDBC_IT_UNSET_PASSWORD");
    assertThatThrownBy(() -> JdbcSource.create("items", options, null))
        .isInstanceOfSatisfying(
            LakestreamException.class,
            e ->
                assertThat(e.errorClass())
                    .isEqualTo(JdbcErrorClass.JDBC_SOURCE_CREDENTIAL_MISSING.name()))
        .hasMessageContaining("LAKESTREAM_JDBC_IT_UNSET_PASSWORD");
  }
}
