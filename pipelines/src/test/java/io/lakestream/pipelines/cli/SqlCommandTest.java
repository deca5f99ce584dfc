package io.lakestream.pipelines.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code lakestream sql} before anything runs: its help, and the errors a SQL user can act on, each
 * printed as one line with its error class and where in the file (no stack trace), exit code 2.
 */
class SqlCommandTest {
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

  private String errors() {
    return err.toString(StandardCharsets.UTF_8);
  }

  private Path script(String name, String text) throws Exception {
    return Files.writeString(dir.resolve(name), text);
  }

  private int sql(String... args) {
    String[] all = new String[args.length + 1];
    all[0] = "sql";
    System.arraycopy(args, 0, all, 1, args.length);
    return LakestreamCli.execute(all);
  }

  private String sink() {
    return "CREATE TABLE out_t (x INT) WITH ('connector' = 'blackhole');\n";
  }

  @Test
  void helpShowsTheOptionsTheQuerySettingsAndAnExample() {
    assertThat(LakestreamCli.execute("--help")).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8)).contains("sql");
    out.reset();
    assertThat(sql("--help")).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8))
        .contains("-f, --file=<file>")
        .contains("--checkpoint-location")
        .contains("SET 'lakestream.trigger' = 'availableNow';")
        .contains("-D=<key=value>")
        .contains("lakestream sql -f gold.sql");
  }

  @Test
  void aValidationErrorPrintsTheFileLineAndColumnAndItsErrorClass() throws Exception {
    Path file =
        script("bad.sql", sink() + "\nINSERT INTO out_t\n  SELECT nope FROM (VALUES (1)) AS v(x);");
    assertThat(sql("-f", file.toString(), "--checkpoint-location", dir.resolve("c").toString()))
        .isEqualTo(2);
    assertThat(errors())
        .startsWith("lakestream: [SQL_INVALID_STATEMENT] Statement at bad.sql:3:1 failed:")
        .contains(
            "SQL validation failed. From bad.sql:4:10 to bad.sql:4:13: Column 'nope' not found")
        .doesNotContain("failed. SQL validation failed")
        .doesNotContain("\tat ");
  }

  @Test
  void anUnknownConnectorOptionNamesTheValidOnes() throws Exception {
    Path file =
        script(
            "options.sql",
            "CREATE TABLE events (id BIGINT) WITH ('connector' = 'delta', 'path' = '"
                + dir.resolve("events").toUri()
                + "', 'maxFilesPerTriger' = '1');\n"
                + sink()
                + "INSERT INTO out_t SELECT CAST(id AS INT) FROM events;");
    assertThat(sql("-f", file.toString(), "--checkpoint-location", dir.resolve("c").toString()))
        .isEqualTo(2);
    assertThat(errors())
        .contains("[UNKNOWN_OPTION]")
        .contains("'maxFilesPerTriger' (did you mean 'maxFilesPerTrigger'?)")
        .contains("options.sql:3:1")
        .doesNotContain("\tat ");
  }

  @Test
  void aQueryWithoutACheckpointLocationIsRefusedNamingBothWaysToGiveIt() throws Exception {
    Path file = script("gold.sql", sink() + "INSERT INTO out_t SELECT 1;");
    assertThat(sql("-f", file.toString())).isEqualTo(2);
    assertThat(errors())
        .contains("[QUERY_CHECKPOINT_LOCATION_REQUIRED] The query of gold.sql")
        .contains("--checkpoint-location s3://bucket/_checkpoints/gold")
        .contains("SET 'lakestream.checkpointLocation'");
  }

  @Test
  void anUnknownQuerySettingAndAContinuousTriggerAreRefused() throws Exception {
    Path file = script("q.sql", "SET 'lakestream.checkpointLocaton' = '/tmp/x';\n" + sink());
    assertThat(sql("-f", file.toString())).isEqualTo(2);
    assertThat(errors())
        .contains("[UNKNOWN_OPTION]")
        .contains("did you mean 'lakestream.checkpointLocation'?")
        .contains("q.sql:1:1");

    err.reset();
    Path good = script("good.sql", sink() + "INSERT INTO out_t SELECT 1;");
    assertThat(sql("-f", good.toString(), "--trigger", "continuous=1s")).isEqualTo(2);
    assertThat(errors()).contains("[QUERY_UNSUPPORTED_TRIGGER]").contains("Use realTime");
  }

  @Test
  void aMissingFileIsAUsageError() {
    assertThat(sql("-f", dir.resolve("none.sql").toString())).isEqualTo(2);
    assertThat(errors()).contains("[CLI_INVALID_ARGUMENT] Cannot read the SQL script");
  }

  @Test
  void aRestartRunsTheScriptsTextWithoutOneOffFlags() throws Exception {
    Path file = script("gold.sql", "INSERT INTO t SELECT 1;");
    CommandLine line = new CommandLine(new LakestreamCli());
    CommandLine.ParseResult parsed =
        line.parseArgs(
            "sql",
            "-f",
            file.toString(),
            "--checkpoint-location=s3://b/chk",
            "--restore-from",
            "s3://b/chk/savepoints/sp-1",
            "-D",
            "table.exec.state.ttl=1h",
            "--parallelism",
            "4");
    List<String> restart =
        ((SqlCommand) parsed.subcommand().commandSpec().userObject()).restartArguments();
    assertThat(restart)
        .containsExactly(
            "sql",
            "--script",
            "INSERT INTO t SELECT 1;",
            "--script-name",
            "gold.sql",
            "--checkpoint-location=s3://b/chk",
            "-D",
            "table.exec.state.ttl=1h",
            "--parallelism",
            "4");
  }
}
