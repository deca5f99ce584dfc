package io.lakestream.testkit.flink;

import io.lakestream.testkit.OrphanReaper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A JobManager or TaskManager JVM of a {@link FlinkCluster}: standard output and error in {@code
 * log/<name>.out}, log4j output in {@code log/<name>.log}, watched by an {@link OrphanReaper} that
 * kills it (and deletes its scratch directory) should the test JVM die.
 */
final class FlinkProcess {

  private static final int LOG_TAIL_LINES = 40;
  private static final Duration GRACEFUL_STOP = Duration.ofSeconds(15);

  private final String name;
  private final Process process;
  private final OrphanReaper reaper;
  private final Path logFile;
  private final Path outFile;

  private FlinkProcess(
      String name, Process process, OrphanReaper reaper, Path logFile, Path outFile) {
    this.name = name;
    this.process = process;
    this.reaper = reaper;
    this.logFile = logFile;
    this.outFile = outFile;
  }

  /**
   * Starts {@code command} in {@code home} with the Flink environment variables set.
   *
   * @param scratch the process's own directory, deleted by the reaper if the test JVM dies
   */
  static FlinkProcess start(
      String name, List<String> command, FlinkHome home, Path scratch, Path logFile)
      throws IOException {
    Files.createDirectories(scratch);
    Path outFile = home.log().resolve(name + ".out");
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(home.root().toFile())
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(outFile.toFile()));
    environment(builder.environment(), home);
    Process process = builder.start();
    return new FlinkProcess(
        name, process, OrphanReaper.watch(process.pid(), scratch), logFile, outFile);
  }

  /** The variables Flink's scripts set, replacing any the test JVM inherited. */
  static void environment(Map<String, String> env, FlinkHome home) {
    env.keySet().removeIf(k -> k.startsWith("FLINK_") || k.startsWith("HADOOP_"));
    env.put("FLINK_HOME", home.root().toString());
    env.put("FLINK_CONF_DIR", home.conf().toString());
    env.put("FLINK_LIB_DIR", home.lib().toString());
    env.put("FLINK_PLUGINS_DIR", home.plugins().toString());
    env.put("FLINK_LOG_DIR", home.log().toString());
    home.hadoopConf().ifPresent(dir -> env.put("HADOOP_CONF_DIR", dir.toString()));
  }

  String name() {
    return name;
  }

  long pid() {
    return process.pid();
  }

  ProcessHandle handle() {
    return process.toHandle();
  }

  boolean isAlive() {
    return process.isAlive();
  }

  Path logFile() {
    return logFile;
  }

  /** SIGKILL, as a crashed machine; waits until the JVM is gone. */
  void kill() {
    process.destroyForcibly();
    awaitExit(Duration.ofSeconds(30));
    reaper.close();
  }

  /** SIGTERM (Flink's shutdown hooks run), then SIGKILL if it lingers. Idempotent. */
  void stop() {
    if (process.isAlive()) {
      process.destroy();
      if (!awaitExit(GRACEFUL_STOP)) {
        process.destroyForcibly();
        awaitExit(Duration.ofSeconds(30));
      }
    }
    reaper.close();
  }

  private boolean awaitExit(Duration timeout) {
    try {
      return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** The last lines of the process's log and standard output, for error messages. */
  String logTail() {
    StringBuilder tail = new StringBuilder();
    for (Path file : List.of(outFile, logFile)) {
      tail.append("\n--- last lines of ").append(file).append(" ---\n");
      try {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        lines
            .subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size())
            .forEach(l -> tail.append(l).append('\n'));
      } catch (IOException e) {
        tail.append("(unreadable: ").append(e.getMessage()).append(")\n");
      }
    }
    return tail.toString();
  }

  @Override
  public String toString() {
    return name + " (pid " + process.pid() + ")";
  }
}
