package io.lakestream.bench.lakebase;

import io.lakestream.testkit.FreePort;
import io.lakestream.testkit.OrphanReaper;
import io.lakestream.testkit.TempDirectory;
import io.lakestream.testkit.debian.DebianPackages;
import io.lakestream.testkit.postgres.PostgresServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Debian's PostgreSQL for {@code --postgres debian}: package {@code postgresql} installed with
 * apt-get when {@code /usr/lib/postgresql/<major>/bin/initdb} is missing, a fresh cluster made by
 * its {@code initdb} in a temporary directory and started by its {@code pg_ctl} on 127.0.0.1 with a
 * free port and the embedded server's settings (initdb {@code -A trust -E UTF-8}; {@code fsync},
 * {@code full_page_writes} and {@code synchronous_commit} off, {@code max_connections} 300, {@code
 * timezone} UTC), so the two servers differ by their build only. As root (initdb refuses root) the
 * cluster belongs to the package's {@code postgres} user and the programs run through {@code
 * runuser}. {@link #close()} stops it ({@code pg_ctl stop -m fast}) and deletes it; if this JVM is
 * killed, an {@link OrphanReaper} does.
 *
 * <p>Failures: {@link IllegalStateException} naming the step (install, initdb, start) and its
 * output.
 */
final class DebianPostgres implements AutoCloseable {
  private static final Path VERSIONS = Path.of("/usr/lib/postgresql");

  private final Path bin;
  private final TempDirectory directory;
  private final Path data;
  private final OrphanReaper reaper;
  private final ProcessHandle postmaster;
  private final PostgresServer server;
  private final String version;

  private DebianPostgres(
      Path bin,
      TempDirectory directory,
      OrphanReaper reaper,
      ProcessHandle postmaster,
      PostgresServer server) {
    this.bin = bin;
    this.directory = directory;
    this.data = directory.path().resolve("data");
    this.reaper = reaper;
    this.postmaster = postmaster;
    this.server = server;
    this.version = bin.getParent().getFileName().toString();
  }

  /**
   * Installs (if needed), creates and starts the server.
   *
   * @throws IllegalStateException if a step fails
   */
  static DebianPostgres start() throws IOException, InterruptedException {
    DebianPackages.ensure(
        "Debian's PostgreSQL (/usr/lib/postgresql/*/bin/initdb)",
        () -> newestBin().isPresent(),
        "postgresql");
    Path bin = newestBin().orElseThrow();
    TempDirectory directory = TempDirectory.create("lakestream-debian-postgres-");
    try {
      Path data = directory.path().resolve("data");
      boolean root = "root".equals(System.getProperty("user.name"));
      if (root) { // initdb refuses root: the cluster is the postgres user's
        UserPrincipal postgres =
            directory
                .path()
                .getFileSystem()
                .getUserPrincipalLookupService()
                .lookupPrincipalByName("postgres");
        Files.setOwner(directory.path(), postgres);
      }
      run(
          root,
          "initdb",
          bin.resolve("initdb").toString(),
          "-D",
          data.toString(),
          "-U",
          "postgres",
          "-A",
          "trust",
          "-E",
          "UTF-8",
          "--no-sync");
      int port = FreePort.pick();
      String settings =
          String.join(
              " ",
              "-c listen_addresses=" + FreePort.LOOPBACK,
              "-p " + port,
              "-c unix_socket_directories=" + directory.path(),
              "-c fsync=off",
              "-c full_page_writes=off",
              "-c synchronous_commit=off",
              "-c max_connections=300",
              "-c timezone=UTC");
      run(
          root,
          "pg_ctl start",
          bin.resolve("pg_ctl").toString(),
          "-D",
          data.toString(),
          "-l",
          directory.path().resolve("postgres.log").toString(),
          "-o",
          settings,
          "-w",
          "-t",
          "60",
          "start");
      long pid = Long.parseLong(Files.readAllLines(data.resolve("postmaster.pid")).get(0).trim());
      OrphanReaper reaper = OrphanReaper.watch(pid, directory.path());
      PostgresServer server =
          PostgresServer.external(
              "jdbc:postgresql://" + FreePort.LOOPBACK + ":" + port + "/postgres", "postgres", "");
      return new DebianPostgres(bin, directory, reaper, ProcessHandle.of(pid).orElse(null), server);
    } catch (IOException | InterruptedException | RuntimeException e) {
      directory.close();
      throw e;
    }
  }

  /** The server, to connect and create databases on (its {@code close()} does not stop it). */
  PostgresServer server() {
    return server;
  }

  /** The postmaster, for {@link PostgresCpu}. */
  Optional<ProcessHandle> process() {
    return Optional.ofNullable(postmaster);
  }

  @Override
  public void close() {
    try {
      run(
          "root".equals(System.getProperty("user.name")),
          "pg_ctl stop",
          bin.resolve("pg_ctl").toString(),
          "-D",
          data.toString(),
          "-m",
          "fast",
          "-w",
          "stop");
    } catch (IOException | InterruptedException | RuntimeException e) {
      if (postmaster != null) {
        postmaster.destroyForcibly();
      }
    } finally {
      reaper.close();
      directory.close();
    }
  }

  @Override
  public String toString() {
    return "Debian PostgreSQL " + version + " at " + server.jdbcUrl();
  }

  /** {@code /usr/lib/postgresql/<major>/bin} of the newest installed major version. */
  private static Optional<Path> newestBin() {
    if (!Files.isDirectory(VERSIONS)) {
      return Optional.empty();
    }
    try (Stream<Path> versions = Files.list(VERSIONS)) {
      return versions
          .map(v -> v.resolve("bin"))
          .filter(b -> Files.isExecutable(b.resolve("initdb")))
          .max(Comparator.comparingInt(DebianPostgres::major));
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  private static int major(Path bin) {
    try {
      return Integer.parseInt(bin.getParent().getFileName().toString());
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  private static void run(boolean asPostgres, String step, String... command)
      throws IOException, InterruptedException {
    List<String> line = new ArrayList<>();
    if (asPostgres) {
      line.addAll(List.of("runuser", "-u", "postgres", "--"));
    }
    line.addAll(List.of(command));
    Path log = Files.createTempFile("debian-postgres", ".log");
    try {
      Process p =
          new ProcessBuilder(line).redirectErrorStream(true).redirectOutput(log.toFile()).start();
      boolean ended = p.waitFor(2, TimeUnit.MINUTES);
      if (!ended) {
        p.destroyForcibly();
      }
      if (!ended || p.exitValue() != 0) {
        throw new IllegalStateException(
            "Debian PostgreSQL: "
                + step
                + " failed ("
                + String.join(" ", line)
                + "):\n"
                + Files.readString(log));
      }
    } finally {
      Files.deleteIfExists(log);
    }
  }
}
