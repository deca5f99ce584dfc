package io.lakestream.bench.lakebase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.bench.BenchMain;
import io.lakestream.bench.Measurement;
import io.lakestream.testkit.postgres.PostgresDatabase;
import io.lakestream.testkit.postgres.PostgresExtension;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lakebase-upsert bench end to end on 20,000 upserts through the {@code ./bin/bench} entry
 * point (the build never runs the real size), the server-only ceiling's upserts (the table it
 * leaves passes the same check as the sinks'), and the table check itself: a table missing an
 * update, holding a stale one or an extra key fails the bench.
 */
class LakebaseUpsertBenchSmokeTest {
  @RegisterExtension static final PostgresExtension POSTGRES = new PostgresExtension();

  @TempDir Path dir;

  /**
   * Runs what {@code ./bin/bench lakebase-upsert --rows 20000 ...} runs: {@link BenchMain} in a
   * child JVM on bin/bench's classpath ({@code target/bench.classpath}, the runtime scope, written
   * before the tests), not on the tests' classpath, which resolves other versions: a runtime
   * classpath that breaks the embedded PostgreSQL (commons-lang3 3.12.0 and an old commons-io
   * beside commons-compress 1.28.0 did) fails here.
   */
  @Test
  void theBenchCommandUpsertsEveryRowOnEverySideAndPassesTheTableCheck() throws Exception {
    Path target = Path.of("target").toAbsolutePath();
    String classpath =
        target.resolve("classes")
            + ":"
            + Files.readString(target.resolve("bench.classpath")).trim();
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx1g");
    // unpack the embedded PostgreSQL afresh, as on a fresh clone (commons-compress at work), not
    // from the machine's cache under java.io.tmpdir/embedded-pg
    command.add("-Dot.epg.working-dir=" + dir.resolve("embedded-pg"));
    ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
        .filter(a -> a.startsWith("--add-opens") || a.startsWith("--add-exports"))
        .forEach(command::add);
    command.addAll(
        List.of(
            "-cp",
            classpath,
            BenchMain.class.getName(),
            "lakebase-upsert",
            "--rows",
            "20000",
            "--warmup-rows",
            "0",
            "--parallelism",
            "2",
            "--checkpoint-interval",
            "300ms",
            "--dir",
            dir.resolve("work").toString()));
    Path log = dir.resolve("bench.log");
    Process bench =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    boolean ended = bench.waitFor(3, TimeUnit.MINUTES);
    if (!ended) {
      bench.destroyForcibly();
    }
    String output = Files.readString(log);
    assertThat(ended).as("bench ended:%n%s", output).isTrue();
    assertThat(bench.exitValue()).as("exit status:%n%s", output).isZero(); // 1 if a table is wrong
    assertThat(output)
        .contains(
            "| lakestream: Lakebase sink, exactly-once | 20,000 |",
            "| lakestream: Lakebase sink, realTime path | 20,000 |",
            "| ceiling: PostgreSQL alone (2 backends) | 20,000 |",
            "| peer: Flink JDBC sink, plain URL | 20,000 |",
            "| peer: Flink JDBC sink, reWriteBatchedInserts=true | 20,000 |",
            "LakebaseSink in a realTime query: at-least-once (its default there)",
            "lakestream realTime path / ceiling: ",
            "- machine:");
  }

  /**
   * The ceiling's batches leave exactly the workload's table, on more backends than keys per chunk
   * allow, with a key count that splits unevenly; its rate covers every row.
   */
  @Test
  void theCeilingUpsertsEveryRowOnDisjointKeysConcurrently() throws Exception {
    UpsertWorkload workload = new UpsertWorkload(9_000, 1_500); // chunk = keys: 1,500 < 3 * 1,000
    try (PostgresDatabase db = POSTGRES.server().createDatabase("ceiling")) {
      Measurement m = UpsertCeiling.run(db, workload, 3, Optional.empty());
      assertThat(m.rows()).isEqualTo(9_000);
      assertThat(m.side()).isEqualTo("ceiling: PostgreSQL alone (3 backends)");
      try (Connection c = db.connect()) {
        workload.verify(c, UpsertCeiling.TABLE);
      }
    }
  }

  /**
   * The server's CPU meter never goes backwards while backends that burned CPU exit: sampled in a
   * tight loop as connections close, a backend reaped between reading the postmaster's children's
   * time and its own must still be counted once.
   */
  @Test
  void theServerCpuCountsBackendsThatExitWhileItIsRead() throws Exception {
    PostgresCpu cpu = PostgresCpu.of(POSTGRES.server().process()).orElseThrow();
    long before = cpu.nanos();
    long last = before;
    for (int round = 0; round < 8; round++) {
      try (Connection c = POSTGRES.connect();
          Statement s = c.createStatement()) {
        s.executeQuery("SELECT count(*) FROM generate_series(1, 400000)").close();
      }
      long until = System.nanoTime() + 150_000_000L; // the backend exits and is reaped meanwhile
      while (System.nanoTime() < until) {
        long now = cpu.nanos();
        assertThat(now).as("round %d", round).isGreaterThanOrEqualTo(last);
        last = now;
      }
    }
    assertThat(last).isGreaterThan(before);
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
