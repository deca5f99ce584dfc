package io.lakestream.testkit.flink;

import io.lakestream.testkit.OrphanReaper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.api.common.JobID;

/**
 * One run of Flink's command-line front end ({@code bin/flink}, class {@code
 * org.apache.flink.client.cli.CliFrontend}) in a child JVM, started by {@link
 * FlinkCluster#startFlink}. Its standard output and error go to {@link #outputFile()}, its log4j
 * output to {@link #logFile()}.
 *
 * <p>{@code flink run} of lakestream.jar does not return while the job runs, even with {@code -d}:
 * the query runner in the client waits for the job (and writes progress) until the job ends. Use
 * {@link #awaitJobId} to learn the job it submitted and {@link #awaitExit} after stopping it.
 *
 * <p>The JVM dies with the test JVM (an {@link OrphanReaper} watches it) and is killed by {@link
 * FlinkCluster#close()}.
 */
public final class FlinkCommand {

  private static final Pattern SUBMITTED =
      Pattern.compile("Job has been submitted with JobID ([0-9a-f]{32})");

  /**
   * A finished command.
   *
   * @param args the arguments after {@code flink}
   * @param exitCode the JVM's exit code
   * @param output its standard output and error
   */
  public record Result(List<String> args, int exitCode, String output) {

    /**
     * This result, if the command exited with 0.
     *
     * @throws FlinkClusterException otherwise, with the output
     */
    public Result requireSuccess() {
      if (exitCode != 0) {
        throw new FlinkClusterException(
            "flink " + String.join(" ", args) + " exited with " + exitCode + ":\n" + output);
      }
      return this;
    }
  }

  private final List<String> args;
  private final Process process;
  private final OrphanReaper reaper;
  private final Path outputFile;
  private final Path logFile;

  FlinkCommand(
      List<String> args, Process process, OrphanReaper reaper, Path outputFile, Path logFile) {
    this.args = List.copyOf(args);
    this.process = process;
    this.reaper = reaper;
    this.outputFile = outputFile;
    this.logFile = logFile;
  }

  /** The arguments after {@code flink}, with the {@code -m} the cluster added. */
  public List<String> args() {
    return args;
  }

  /** Standard output and error so far. */
  public String output() {
    try {
      return Files.readString(outputFile, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + outputFile, e);
    }
  }

  /** The file with the JVM's standard output and error. */
  public Path outputFile() {
    return outputFile;
  }

  /** The client's log4j log (lakestream's progress lines land here). */
  public Path logFile() {
    return logFile;
  }

  /** Whether the JVM is still running. */
  public boolean isAlive() {
    return process.isAlive();
  }

  /**
   * Waits until the output names the job the command submitted ({@code Job has been submitted with
   * JobID ...}).
   *
   * @throws FlinkClusterException if the command exits first or {@code timeout} passes, with its
   *     output
   */
  public JobID awaitJobId(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      boolean exited = !process.isAlive();
      Matcher matcher = SUBMITTED.matcher(output());
      if (matcher.find()) {
        return JobID.fromHexString(matcher.group(1));
      }
      if (exited) {
        throw new FlinkClusterException(
            describe() + " exited with " + process.exitValue() + " before submitting a job", null);
      }
      if (System.nanoTime() > deadline) {
        throw new FlinkClusterException(
            describe() + " submitted no job within " + timeout.toSeconds() + " s", null);
      }
      FlinkCluster.sleep(Duration.ofMillis(200));
    }
  }

  /**
   * Waits for the JVM to exit.
   *
   * @return the result
   * @throws FlinkClusterException if it still runs after {@code timeout} (it is killed then)
   */
  public Result awaitExit(Duration timeout) {
    try {
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        destroy();
        throw new FlinkClusterException(
            describe() + " did not exit within " + timeout.toSeconds() + " s; killed it", null);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      destroy();
      throw new FlinkClusterException("interrupted while waiting for " + describe(), e);
    }
    reaper.close();
    return new Result(args, process.exitValue(), output());
  }

  /** Kills the JVM (SIGKILL) and waits for it. Idempotent. */
  public void destroy() {
    process.destroyForcibly();
    try {
      process.waitFor(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    reaper.close();
  }

  private String describe() {
    return "flink " + String.join(" ", args) + " (output:\n" + output() + ")";
  }

  @Override
  public String toString() {
    return "FlinkCommand[flink " + String.join(" ", args) + ", pid " + process.pid() + "]";
  }
}
