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
}
