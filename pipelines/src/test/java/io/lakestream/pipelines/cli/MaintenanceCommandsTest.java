package io.lakestream.pipelines.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.delta.DeltaAppendCommit;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.DeltaTableWriter;
import io.lakestream.connectors.schema.ColumnType;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code lakestream optimize} and {@code lakestream vacuum} on a table of small epochs: OPTIMIZE
 * with a partition predicate replaces that partition's files and says so; a bad predicate or a
 * retention below the table's is a usage error (exit 2) naming the fix; VACUUM's dry run lists
 * nothing young, and the table still reads.
 */
class MaintenanceCommandsTest {
  private static final DeltaTableSchema EVENTS =
      DeltaTableSchema.builder()
          .column("id", ColumnType.LONG, false)
          .column("region", ColumnType.STRING)
          .partitionedBy("region")
          .build();

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private PrintStream oldOut;
  private PrintStream oldErr;

  @TempDir Path dir;

  @BeforeEach
  void capture() {
    oldOut = System.out;
    oldErr = System.err;
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  @AfterEach
  void restore() {
    System.setOut(oldOut);
    System.setErr(oldErr);
  }

  private String table() throws Exception {
    DeltaTable table = DeltaTable.forPath(dir.resolve("events").toUri().toString());
    for (long epoch = 1; epoch <= 5; epoch++) {
      List<Object[]> rows = new ArrayList<>();
      for (long id = epoch * 10; id < epoch * 10 + 4; id++) {
        rows.add(new Object[] {id, id % 2 == 0 ? "eu" : "us"});
      }
      DeltaAppendCommit commit = new DeltaAppendCommit(table, EVENTS, "writer");
      commit.open();
      commit.commit(epoch, new DeltaTableWriter(table, EVENTS).write(rows));
    }
    return dir.resolve("events").toString();
  }

  @Test
  void optimizeCompactsThePartitionsOfThePredicate() throws Exception {
    String table = table();
    int code =
        LakestreamCli.execute(
            "optimize", "--table", table, "--where", "region = 'eu'", "--target-file-size", "64m");
    assertThat(code).as(err.toString()).isZero();
    assertThat(out.toString())
        .contains("OPTIMIZE committed version 6: 5 files")
        .contains("in 1 partition(s) replaced by 1 files");
    assertThat(new DeltaTableReader(DeltaTable.forPath(table)).readLatest()).hasSize(20);

    out.reset();
    assertThat(LakestreamCli.execute("optimize", "--table", table, "--where", "region = 'eu'"))
        .isZero();
    assertThat(out.toString()).contains("nothing to do");

    assertThat(LakestreamCli.execute("optimize", "--table", table, "--where", "id > 3"))
        .isEqualTo(2);
    assertThat(err.toString())
        .contains("DELTA_INVALID_MAINTENANCE")
        .contains("'id', which is not a partition column");
  }

  @Test
  void vacuumRefusesAShortRetentionAndItsDryRunKeepsYoungFiles() throws Exception {
    String table = table();
    assertThat(LakestreamCli.execute("vacuum", "--table", table, "--retain", "1h")).isEqualTo(2);
    assertThat(err.toString())
        .contains("DELTA_INVALID_MAINTENANCE")
        .contains("delta.deletedFileRetentionDuration (168h)");

    assertThat(LakestreamCli.execute("vacuum", "--table", table, "--dry-run")).isZero();
    assertThat(out.toString()).contains("VACUUM (dry run): 0 files (0 bytes) to delete");
    assertThat(Files.list(dir.resolve("events/_delta_log")).count()).isPositive();
    assertThat(new DeltaTableReader(DeltaTable.forPath(table)).readLatest()).hasSize(20);
  }
}
