package io.lakestream.pipelines.cli;

import org.apache.flink.streaming.api.environment.LocalStreamEnvironment;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code lakestream} command line. Exit codes: 0 success, 1 the query failed, 2 bad usage. */
@Command(
    name = "lakestream",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = "Databricks-style lakehouse streaming on Apache Flink.",
    subcommands = {
      RunCommand.class,
      DescribeCheckpointCommand.class,
      CommandLine.HelpCommand.class
    })
public final class LakestreamCli implements Runnable {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  /**
   * Entry point for {@code java} and {@code flink run}. Embedded, it exits the JVM with the exit
   * code; inside a Flink client or an application-mode JobManager it must not exit the JVM, so a
   * failure is thrown instead.
   */
  public static void main(String[] args) {
    int code = execute(args);
    if (StreamExecutionEnvironment.getExecutionEnvironment() instanceof LocalStreamEnvironment) {
      System.exit(code);
    } else if (code != 0) {
      throw new IllegalStateException(
          "lakestream " + String.join(" ", args) + " failed with exit code " + code);
    }
  }

  /** Runs the CLI and returns the exit code (for tests and embedding). */
  public static int execute(String... args) {
    return new CommandLine(new LakestreamCli())
        .setExecutionExceptionHandler(new FailureReporter())
        .execute(args);
  }

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }
}
