package io.lakestream.pipelines.cli;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@code lakestream <args>} in its own JVM, as {@code bin/lakestream} starts it (embedded Flink,
 * the build's classpath), its output in a log file; for tests that signal or kill the process. The
 * process dies with the test JVM ({@link OrphanReaper}).
 */
public final class LakestreamProcess implements AutoCloseable {
  private static final String MAIN = "io.lakestream.pipelines.cli.LakestreamCli";

  private final Process process;
  private final Path log;
  private final OrphanReaper reaper;

  private LakestreamProcess(Process process, Path log, OrphanReaper reaper) {
    this.process = process;
    this.log = log;
    this.reaper = reaper;
  }

  /**
   * Starts {@code lakestream} with {@code args}; its output goes to {@code <dir>/<name>.out}.
   *
   * @param dir a directory of the test's own
   */
  static LakestreamProcess start(Path dir, String name, List<String> args) throws IOException {
    return start(dir, name, Map.of(), args);
  }

  /** Starts {@code lakestream} with {@code args} and {@code environment} added to its own. */
  static LakestreamProcess start(
      Path dir, String name, Map<String, String> environment, List<String> args)
      throws IOException {
    return start(dir, name, MAIN, List.of(), environment, args);
  }

  /**
   * Starts {@code mainClass} of the pipelines' main or test classes the same way, with {@code
   * jvmOptions} added; its output goes to {@code <dir>/<name>.out}.
   */
  public static LakestreamProcess start(
      Path dir, String name, String mainClass, List<String> jvmOptions, List<String> args)
      throws IOException {
    return start(dir, name, mainClass, jvmOptions, Map.of(), args);
  }

  private static LakestreamProcess start(
      Path dir,
      String name,
      String mainClass,
      List<String> jvmOptions,
      Map<String, String> environment,
      List<String> args)
      throws IOException {
    String classpath =
        Path.of("target/classes").toAbsolutePath()
            + (MAIN.equals(mainClass)
                ? ""
                : File.pathSeparator + Path.of("target/test-classes").toAbsolutePath())
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
    command.add("-Xmx768m");
    command.addAll(jvmOptions);
    command.addAll(List.of("-cp", classpath, mainClass));
    command.addAll(args);
    Path log = dir.resolve(name + ".out");
    ProcessBuilder builder =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
    builder.environment().putAll(environment);
    Process process = builder.start();
    return new LakestreamProcess(
        process, log, OrphanReaper.watch(process.pid(), dir.resolve(name)));
  }

  /** The process id (of the JVM: the launcher execs it). */
  public long pid() {
    return process.pid();
  }

  public String output() throws IOException {
    return Files.readString(log, StandardCharsets.UTF_8);
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  public int exitCode() {
    return process.exitValue();
  }

  /** How often {@code text} occurs in the output so far. */
  public int count(String text) throws IOException {
    return output().split(java.util.regex.Pattern.quote(text), -1).length - 1;
  }

  /**
   * Waits until {@code text} occurs {@code times} times in the output.
   *
   * @return false if the process exited first
   */
  public boolean awaitText(String text, int times, Duration timeout) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (count(text) < times) {
      if (!process.isAlive()) {
        return count(text) >= times;
      }
      assertThat(System.nanoTime())
          .as("'%s' %d times within %s: %s", text, times, timeout, output())
          .isLessThan(deadline);
      Thread.sleep(20);
    }
    return true;
  }

  /** Sends signal {@code name} ({@code TERM}, {@code INT}, {@code KILL}) to the process. */
  public LakestreamProcess signal(String name) throws Exception {
    send(name);
    Thread.sleep(200);
    return this;
  }

  /** {@link #signal} without the pause after it. */
  public LakestreamProcess send(String name) throws Exception {
    Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).start();
    assertThat(kill.waitFor()).isZero();
    return this;
  }

  /** Waits for the process to exit (at most 3 minutes, else it is killed and the test fails). */
  public LakestreamProcess await() throws Exception {
    try (reaper) {
      if (!process.waitFor(3, TimeUnit.MINUTES)) {
        process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        throw new AssertionError("did not exit within 3 minutes:\n" + output());
      }
    }
    return this;
  }

  @Override
  public void close() throws Exception {
    if (process.isAlive()) {
      process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    }
    reaper.close();
  }
}
