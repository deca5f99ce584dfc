package io.lakestream.pipelines.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.pipelines.demo.DemoOrdersModel;
import io.lakestream.state.checkpoint.CheckpointLocation;
import io.lakestream.state.checkpoint.QueryLease;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code lakestream run} (embedded, its own JVM as {@code bin/lakestream} starts it) stopped by a
 * signal, then run again at once: SIGTERM and SIGINT each stop the query with a savepoint, release
 * the lease (the next run is not refused), say how to resume and exit 143 / 130; two SIGTERMs exit
 * at once. SIGTERM while an availableNow run starts the demo's silver stage stops that stage. A
 * last availableNow run drains the rest, and the orders and silver tables hold every parsed order
 * of the generator exactly once.
 */
class SignalStopIT {
  private static final long ROWS = 3_000;
  private static final long RATE = 200;

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
        .doesNotContain("QUERY_ALREADY_RUNNING")
        .contains("Query 'demo' stopped on SIGINT");
    assertThat(QueryLease.isHeld(location)).isFalse();

    Run twice = start("twice", lake, "processingTime=1s").awaitEpochs(1);
    Run forced = twice.signalTwiceQuickly("TERM").await();
    assertThat(forced.exitCode()).as(forced.output()).isEqualTo(143);
    assertThat(forced.output()).contains("SIGTERM again: exiting now");
    // the first signal's stop may have released the lease before the second signal halted the
    // process; if it did not, the lease is left fresh, and the next run takes it over at once
    // since its holder's process on this machine has exited (else it would be refused)
    boolean leftHeld = QueryLease.isHeld(location);

    // availableNow runs the demo's silver and gold stages after bronze: SIGTERM while silver
    // starts stops that stage (the handler of the bronze query that just ended, or silver's own)
    Run stage =
        start("stage", lake, "availableNow")
            .awaitText("Starting stage 'demo-silver'")
            .signal("TERM")
            .await();
    assertThat(stage.exitCode()).as(stage.output()).isEqualTo(143);
    assertThat(stage.output())
        .containsPattern(
            "Query 'demo-silver' (stopped|was cancelled) on SIGTERM|stage 'demo-silver' not started")
        .doesNotContain("Starting stage 'demo-gold'");

    Run drain = start("drain", lake, "availableNow").await();
    assertThat(drain.exitCode()).as("lease left held: %s; %s", leftHeld, drain.output()).isZero();
    assertThat(drain.output()).doesNotContain("QUERY_ALREADY_RUNNING");
    assertThat(
            new DeltaTableReader(DeltaTable.forPath(lake.resolve("orders").toUri().toString()))
                .count())
        .as("every parsed order once, across five runs and four signals")
        .isEqualTo(DemoOrdersModel.of(ROWS, RATE).orders());
    assertThat(drain.output()).contains("Demo summary:");
    assertThat(
            new DeltaTableReader(
                    DeltaTable.forPath(lake.resolve("orders_silver").toUri().toString()))
                .count())
        .as("silver resumed after the stop of its stage")
        .isEqualTo(DemoOrdersModel.of(ROWS, RATE).orders());
  }

  private Run start(String name, Path lake, String trigger) throws IOException {
    return new Run(
        LakestreamProcess.start(
            dir,
            name,
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
                Long.toString(RATE))));
  }

  private record Run(LakestreamProcess process) {
    String output() throws IOException {
      return process.output();
    }

    int exitCode() {
      return process.exitCode();
    }

    Run awaitEpochs(int epochs) throws Exception {
      assertThat(process.awaitText("demo epoch ", epochs + 1, Duration.ofMinutes(2)))
          .as("still running: %s", output())
          .isTrue();
      return this;
    }

    Run awaitText(String text) throws Exception {
      assertThat(process.awaitText(text, 1, Duration.ofMinutes(2)))
          .as("printed '%s': %s", text, output())
          .isTrue();
      return this;
    }

    Run signal(String name) throws Exception {
      process.signal(name);
      return this;
    }

    /** Sends {@code name}, waits for the stop to begin, then sends it again at once. */
    Run signalTwiceQuickly(String name) throws Exception {
      process.send(name);
      assertThat(process.awaitText("SIG" + name + ": stopping query", 1, Duration.ofSeconds(30)))
          .as("the first signal starts the stop: %s", output())
          .isTrue();
      process.send(name);
      return this;
    }

    Run await() throws Exception {
      process.await();
      return this;
    }
  }
}
