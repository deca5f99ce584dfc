package io.lakestream.bench.lakebase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.bench.BenchOptions;
import io.lakestream.bench.BenchResult;
import io.lakestream.testkit.postgres.PostgresExtension;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lakebase-upsert bench end to end on 20,000 upserts (the build never runs the real size), and
 * its table check: a table missing an update, holding a stale one or an extra key fails the bench.
 */
class LakebaseUpsertBenchSmokeTest {
  @RegisterExtension static final PostgresExtension POSTGRES = new PostgresExtension();

  @TempDir Path dir;

  @Test
  void allSidesUpsertEveryRowAndPassTheTableCheck() throws Exception {
    BenchOptions options = new BenchOptions(20_000, 0, 2, Duration.ofMillis(300), dir, false);

    BenchResult result = new LakebaseUpsertBench().run(options); // throws if a table is wrong

    assertThat(result.ours().rows()).isEqualTo(20_000);
    assertThat(result.peer().rows()).isEqualTo(20_000);
    assertThat(result.diagnostics()).hasSize(1);
    assertThat(result.toMarkdown()).contains("| lakestream: Lakebase sink", "| peer: Flink JDBC");
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
