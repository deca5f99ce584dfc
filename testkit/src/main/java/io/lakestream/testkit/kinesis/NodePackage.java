package io.lakestream.testkit.kinesis;

import io.lakestream.testkit.FreePort;
import io.lakestream.testkit.debian.DebianPackages;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * An npm package a test peer runs on node (kinesalite, kinesis-mock): installed once per version
 * into {@code ~/.cache/lakestream/<name>-<version>} (or the directory an environment variable
 * names), through a staging directory moved into place, so JVMs installing at the same time leave
 * one complete copy. Node and npm come from Debian's packages when missing.
 *
 * @param name the npm package
 * @param version its version
 * @param entry the script to run, relative to the package's directory
 * @param directoryVariable the environment variable that may name the install directory
 * @param purpose what the package is for, in error messages
 */
record NodePackage(
    String name, String version, String entry, String directoryVariable, String purpose) {

  /** Ensures node and npm are on the PATH. */
  void ensureNode() throws IOException, InterruptedException {
    DebianPackages.ensure(
        "node and npm (" + purpose + " runs on them)",
        () -> DebianPackages.onPath("node") && DebianPackages.onPath("npm"),
        "nodejs",
        "npm");
  }

  /**
   * The package's entry script, installing the package first if needed.
   *
   * @throws IOException when npm fails, naming its log
   */
  synchronized Path install() throws IOException, InterruptedException {
    String configured = System.getenv(directoryVariable);
    Path dir =
        configured != null
            ? Path.of(configured)
            : Path.of(
                System.getProperty("user.home"), ".cache", "lakestream", name + "-" + version);
    Path script = dir.resolve("node_modules").resolve(name).resolve(entry);
    if (Files.exists(script)) {
      return script;
    }
    Files.createDirectories(dir.getParent());
    Path staging = Files.createTempDirectory(dir.getParent(), name + "-install-");
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
                    name + "@" + version))
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    Process npm = start(install, "npm");
    if (!npm.waitFor(5, TimeUnit.MINUTES) || npm.exitValue() != 0) {
      npm.destroyForcibly();
      throw new IOException(
          "npm install " + name + "@" + version + " failed; see " + log + " (needs a registry)");
    }
    try {
      Files.move(staging, dir, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      if (!Files.exists(script)) { // not installed meanwhile by another JVM
        throw e;
      }
    }
    return script;
  }

  /** Starts {@code builder}'s command, saying what is missing when {@code program} is absent. */
  Process start(ProcessBuilder builder, String program) throws IOException {
    try {
      return builder.start();
    } catch (IOException e) {
      throw new IOException(
          "Cannot run "
              + program
              + " ("
              + purpose
              + " needs node and npm on the PATH): "
              + e.getMessage(),
          e);
    }
  }

  /**
   * Waits until {@code process} (this package's, started with {@link #start}) accepts connections
   * on 127.0.0.1:{@code port}.
   *
   * @throws IOException when the process exits or {@code timeout} passes first, naming {@code log}
   */
  void awaitListening(Process process, int port, Duration timeout, Path log)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!FreePort.accepts(port, Duration.ofMillis(200))) {
      if (!process.isAlive() || System.nanoTime() > deadline) {
        throw new IOException(
            name + " (" + purpose + ") did not start on port " + port + "; see " + log);
      }
      Thread.sleep(50);
    }
  }
}
