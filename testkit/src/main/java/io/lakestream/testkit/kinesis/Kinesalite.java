package io.lakestream.testkit.kinesis;

import io.lakestream.testkit.FreePort;
import io.lakestream.testkit.OrphanReaper;
import io.lakestream.testkit.debian.DebianPackages;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A running kinesalite (a Kinesis Data Streams implementation on npm) on 127.0.0.1, serving HTTP
 * with streams in memory and no delays for creating or resharding streams. {@link #start} installs
 * it on first use with {@code npm install} into {@code ~/.cache/lakestream/kinesalite-3.3.3}
 * (override with the environment variable {@code LAKESTREAM_KINESALITE_DIR}), then runs {@code node
 * cli.js}; {@link #close()} stops it. Installs Debian's {@code nodejs} and {@code npm} when {@code
 * node} or {@code npm} is not on the PATH; the SDK needs CBOR off ({@code aws.cborEnabled=false}),
 * which {@link #start} sets.
 */
public final class Kinesalite implements AutoCloseable {
  /** The kinesalite version installed. */
  public static final String VERSION = "3.3.3";

  private final Process process;
  private final OrphanReaper reaper;
  private final int port;

  private Kinesalite(Process process, OrphanReaper reaper, int port) {
    this.process = process;
    this.reaper = reaper;
    this.port = port;
  }

  /**
   * Installs kinesalite if needed and starts it on a free port.
   *
   * @throws IOException when npm or node fail, naming the log to read
   */
  public static Kinesalite start() throws IOException, InterruptedException {
    DebianPackages.ensure(
        "node and npm (kinesalite, the tests' Kinesis, runs on them)",
        () -> DebianPackages.onPath("node") && DebianPackages.onPath("npm"),
        "nodejs",
        "npm");
    System.setProperty("aws.cborEnabled", "false");
    Path cli = install();
    int port = FreePort.pick();
    Path log = Files.createTempFile("kinesalite-", ".log");
    ProcessBuilder builder =
        new ProcessBuilder(
                List.of(
                    "node",
                    cli.toString(),
                    "--port",
                    Integer.toString(port),
                    "--createStreamMs",
                    "0",
                    "--deleteStreamMs",
                    "0",
                    "--updateStreamMs",
                    "0",
                    "--shardLimit",
                    "100"))
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    Process process = run(builder, "node");
    Kinesalite kinesalite = new Kinesalite(process, OrphanReaper.watch(process.pid(), log), port);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!listening(port)) {
      if (!process.isAlive() || System.nanoTime() > deadline) {
        kinesalite.close();
        throw new IOException("kinesalite did not start on port " + port + "; see " + log);
      }
      Thread.sleep(50);
    }
    return kinesalite;
  }

  private static boolean listening(int port) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(FreePort.LOOPBACK, port), 200);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private static synchronized Path install() throws IOException, InterruptedException {
    String configured = System.getenv("LAKESTREAM_KINESALITE_DIR");
    Path dir =
        configured != null
            ? Path.of(configured)
            : Path.of(
                System.getProperty("user.home"), ".cache", "lakestream", "kinesalite-" + VERSION);
    Path cli = dir.resolve("node_modules/kinesalite/cli.js");
    if (Files.exists(cli)) {
      return cli;
    }
    Files.createDirectories(dir.getParent());
    Path staging = Files.createTempDirectory(dir.getParent(), "kinesalite-install-");
    Path log = staging.resolve("npm.log");
    ProcessBuilder install =
        new ProcessBuilder(
                List.of(
                    "npm",
                    "install",
                    "--no-audit",
                    "--no-fund",
                    "--prefix",
                    staging.toString(),
                    "kinesalite@" + VERSION))
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    Process npm = run(install, "npm");
    if (!npm.waitFor(5, TimeUnit.MINUTES) || npm.exitValue() != 0) {
      npm.destroyForcibly();
      throw new IOException(
          "npm install kinesalite@"
              + VERSION
              + " failed; see "
              + log
              + " (needs npm and a registry)");
    }
    try {
      Files.move(staging, dir, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      if (!Files.exists(cli)) { // not installed meanwhile by another JVM
        throw e;
      }
    }
    return cli;
  }

  private static Process run(ProcessBuilder builder, String program) throws IOException {
    try {
      return builder.start();
    } catch (IOException e) {
      throw new IOException(
          "Cannot run "
              + program
              + " (kinesalite, the Kinesis implementation of the tests, needs node and npm on the"
              + " PATH): "
              + e.getMessage(),
          e);
    }
  }

  /** The endpoint for the SDK's endpointOverride, e.g. {@code http://127.0.0.1:4567}. */
  public URI endpoint() {
    return URI.create("http://" + FreePort.LOOPBACK + ":" + port);
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(5, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
    }
    reaper.close();
  }
}
