package io.lakestream.pipelines.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class LakestreamCliTest {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private PrintStream oldOut;
  private PrintStream oldErr;

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

  @Test
  void helpListsCommandsAndRunHelpListsPipelinesAndTriggers() {
    assertThat(LakestreamCli.execute("--help")).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8)).contains("run").contains("Usage: lakestream");

    out.reset();
    assertThat(LakestreamCli.execute("run", "--help")).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8))
        .contains("demo")
        .contains("--trigger")
        .contains("processingTime=<duration>");
  }

  @Test
  void unknownPipelineIsAUsageErrorListingTheKnownOnes() {
    assertThat(LakestreamCli.execute("run", "nope")).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8))
        .contains("lakestream: [PIPELINE_UNKNOWN] unknown pipeline 'nope'; known pipelines: demo");
  }

  @Test
  void continuousTriggerIsRefusedWithAPointerToRealTime() {
    assertThat(LakestreamCli.execute("run", "demo", "--trigger", "continuous=1s")).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("Use realTime");
  }

  @Test
  void unknownOptionIsRefused() {
    assertThat(LakestreamCli.execute("run", "demo", "--tigger", "once")).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("Unknown options: '--tigger'");
  }

  /** The command the JobManager runs again after a schema change under flink run -d. */
  private static java.util.List<String> runArgumentsOf(String... args) {
    picocli.CommandLine line = new picocli.CommandLine(new LakestreamCli());
    picocli.CommandLine.ParseResult parsed = line.parseArgs(args);
    return ((RunCommand) parsed.subcommand().commandSpec().userObject()).runArguments();
  }

  @Test
  void aRestartRunsTheSameQueryWithoutOneOffFlags() {
    assertThat(
            runArgumentsOf(
                "run",
                "bronze",
                "-o",
                "kafka.bootstrap.servers=b:9092",
                "--restore-from",
                "s3://b/chk/savepoints/sp-1",
                "--output=s3://b/lake"))
        .containsExactly(
            "run", "bronze", "-o", "kafka.bootstrap.servers=b:9092", "--output=s3://b/lake");
    assertThat(
            runArgumentsOf(
                "upgrade",
                "bronze",
                "--job",
                "0123abcd",
                "--dry-run",
                "--restore-from=s3://b/other",
                "--rest=http://jm:8081",
                "--max-rows-per-trigger",
                "300",
                "--check"))
        .as("an upgraded query restarts as a run of the new program")
        .containsExactly("run", "bronze", "--max-rows-per-trigger", "300");
  }
}
