package io.lakestream.pipelines.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.pipelines.demo.DemoOrdersModel;
import io.lakestream.state.checkpoint.CheckpointLocation;
import io.lakestream.state.checkpoint.QueryLease;
import io.lakestream.testkit.OrphanReaper;
import io.lakestream.testkit.flink.FlinkLib;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code lakestream run} (embedded, its own JVM as {@code bin/lakestream} starts it) stopped by a
 * signal, then run again at once: SIGTERM and SIGINT each stop the query with a savepoint, release
 * the lease (the next run is not refused), say how to resume and exit 143 / 130; two SIGTERMs exit
 * at once. A last availableNow run drains the rest, and the orders table holds every parsed order
 * of the generator exactly once.
 */
class SignalStopIT {
  private static final long ROWS = 3_000;
  private static final long RATE = 200;
  private static final String MAIN = "io.lakestream.pipelines.cli.LakestreamCli";

  @TempDir Path dir;

  @Test
  void termAndIntStopTheQueryWithASavepointAndTheNextRunStartsAtOnce() throws Exception {
    Path lake = dir.resolve("lake");
    CheckpointLocation location = new CheckpointLocation(lake.resolve("_checkpoints/demo").toUri());

    Run term = start("term", lake, "processingTime=1s").awaitEpochs(2).signal("TERM").await();
    assertThat(term.exitCode()).as(term.output()).isEqualTo(143);
    assertThat(term.output())
        .contains("SIGTERM: stopping query 'demo' with a savepoint")
        .contains("Query 'demo' stopped on SIGTERM. Run the same command again to resume it");
    assertThat(QueryLease.isHeld(location)).as("the lease is released").isFalse();

    Run interrupt = start("int", lake, "processingTime=1s").awaitEpochs(2).signal("INT").await();
    assertThat(interrupt.exitCode()).as(interrupt.output()).isEqualTo(130);
    assertThat(interrupt.output())
        .doesNotContain("QUERY_LOCATION_LOCKED")
        .contains("Query 'demo' stopped on SIGINT");
    assertThat(QueryLease.isHeld(location)).isFalse();

    Run twice = start("twice", lake, "processingTime=1s").awaitEpochs(1);
    Run forced = twice.signal("TERM").signal("TERM").await();
    assertThat(forced.exitCode()).as(forced.output()).isEqualTo(143);
    assertThat(forced.output()).contains("SIGTERM again: exiting now");
    assertThat(QueryLease.isHeld(location))
        .as("a run that exits at once leaves its lease, still fresh")
        .isTrue();
    // the holder's process on this machine has exited: the next run takes the lease over at once

    Run drain = start("drain", lake, "availableNow").await();
    assertThat(drain.exitCode()).as(drain.output()).isZero();
    assertThat(
            new DeltaTableReader(DeltaTable.forPath(lake.resolve("orders").toUri().toString()))
                .count())
        .as("every parsed order once, across four runs and three signals")
        .isEqualTo(DemoOrdersModel.of(ROWS, RATE).orders());
  }

  private Run start(String name, Path lake, String trigger) throws IOException {
    String classpath =
        Path.of("target/classes").toAbsolutePath()
            + File.pathSeparator
            + Files.readString(Path.of("target/embedded-runtime.classpath")).trim()
            + File.pathSeparator
            + Files.readString(Path.of("target/embedded-provided.classpath")).trim();
    List<String> command = new ArrayList<>();
    // A background job of a non-interactive shell (a CI runner) starts with SIGINT ignored, and
    // an ignored signal stays ignored across exec, so the JVM could not handle it. A terminal's
    // foreground job has it at its default; perl (Debian's essential perl-base) restores that.
    command.addAll(List.of("perl", "-e", "$SIG{INT} = 'DEFAULT'; exec @ARGV or die $!"));
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(FlinkLib.defaultJvmOptions());
    command.add("-Dlog4j.configurationFile=" + Path.of("../flink-conf/log4j-cli.properties"));
    command.addAll(List.of("-Xmx768m", "-cp", classpath, MAIN));
    command.addAll(
        List.of(
            "run",
            "demo",
            "--output",
            lake.toString(),
            "--trigger",
            trigger,
            "--rows",
            Long.toString(ROWS),
            "--rows-per-second",
            Long.toString(RATE)));
    Path log = dir.resolve(name + ".out");
    Process process =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    return new Run(process, log, OrphanReaper.watch(process.pid(), dir.resolve(name)));
  }

  private record Run(Process process, Path log, OrphanReaper reaper) {
    String output() throws IOException {
      return Files.readString(log, StandardCharsets.UTF_8);
    }

    int exitCode() {
      return process.exitValue();
    }

    Run awaitEpochs(int epochs) throws Exception {
      long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
      while (output().split("demo epoch ", -1).length <= epochs) {
        assertThat(process.isAlive()).as("still running: %s", output()).isTrue();
        assertThat(System.nanoTime()).as("%d epochs: %s", epochs, output()).isLessThan(deadline);
        Thread.sleep(100);
      }
      return this;
    }

    Run signal(String name) throws Exception {
      Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).start();
      assertThat(kill.waitFor()).isZero();
      Thread.sleep(200);
      return this;
    }

    Run await() throws Exception {
      try (reaper) {
        if (!process.waitFor(3, TimeUnit.MINUTES)) {
          process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
          throw new AssertionError("did not exit within 3 minutes:\n" + output());
        }
      }
      return this;
    }
  }
}
