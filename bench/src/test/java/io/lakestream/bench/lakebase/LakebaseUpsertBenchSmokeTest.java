package io.lakestream.bench.lakebase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.bench.Bench;
import io.lakestream.bench.BenchMain;
import io.lakestream.bench.BenchOptions;
import io.lakestream.bench.BenchRegistry;
import io.lakestream.testkit.postgres.PostgresExtension;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lakebase-upsert bench end to end on 20,000 upserts through the {@code ./bin/bench} entry
 * point (the build never runs the real size), and its table check: a table missing an update,
 * holding a stale one or an extra key fails the bench.
 */
class LakebaseUpsertBenchSmokeTest {
  @RegisterExtension static final PostgresExtension POSTGRES = new PostgresExtension();

  @TempDir Path dir;

  /**
   * Goes through what {@code ./bin/bench lakebase-upsert --rows 20000 ...} runs: the registry
   * lookup, the command line's option parsing and {@link BenchMain#run} (a classpath that breaks
   * the embedded PostgreSQL, as commons-lang3 3.12.0 beside commons-compress 1.28.0 did, fails
   * here).
   */
  @Test
  void theBenchCommandUpsertsEveryRowOnEverySideAndPassesTheTableCheck() throws Exception {
    Bench bench = BenchRegistry.standard().find("lakebase-upsert").orElseThrow();
    BenchOptions options =
        BenchOptions.parse(
            List.of(
                "--rows",
                "20000",
                "--warmup-rows",
                "0",
                "--parallelism",
                "2",
                "--checkpoint-interval",
                "300ms"),
            dir);

    String report = BenchMain.run(bench, options); // throws if a table is wrong

    assertThat(report)
        .contains(
            "| lakestream: Lakebase sink | 20,000 |",
            "| peer: Flink JDBC sink, reWriteBatchedInserts=true | 20,000 |",
            "- machine:");
  }

  @Test
  void theTableCheckFailsOnAStaleMissingOrExtraRow() throws Exception {
    UpsertWorkload workload = new UpsertWorkload(1_000, 100);
    try (Connection c = POSTGRES.connect();
        Statement s = c.createStatement()) {
      UpsertWorkload.createTable(c, "checked");
      for (long seq = 0; seq < workload.rows(); seq++) {
        s.execute(
            String.format(
                "INSERT INTO checked VALUES (%d, %d, 'v%d') ON CONFLICT (id) DO UPDATE SET"
                    + " seq = EXCLUDED.seq, label = EXCLUDED.label",
                workload.keyOf(seq), seq, seq));
      }
      workload.verify(c, "checked"); // correct: passes
      c.setAutoCommit(true);

      long key = workload.keyOf(workload.rows() - 1);
      s.execute("UPDATE checked SET seq = seq - 100, label = 'v' || (seq - 100) WHERE id = " + key);
      assertThatThrownBy(() -> workload.verify(c, "checked")).hasMessageContaining("row (" + key);
      c.setAutoCommit(true);

      s.execute("UPDATE checked SET seq = seq + 100, label = 'v' || (seq + 100) WHERE id = " + key);
      s.execute("DELETE FROM checked WHERE id = 50");
      assertThatThrownBy(() -> workload.verify(c, "checked")).hasMessageContaining("row (51");
      c.setAutoCommit(true);

      s.execute("INSERT INTO checked VALUES (50, 950, 'v950'), (100, 1, 'v1')");
      assertThatThrownBy(() -> workload.verify(c, "checked"))
          .hasMessageContaining("more than 100 keys");
    }
  }
}
