package io.lakestream.pipelines.cli;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.pipelines.msf.MsfApplication;
import io.lakestream.runtime.ManagedService;
import org.apache.flink.streaming.api.environment.LocalStreamEnvironment;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code lakestream} command line. Exit codes: 0 success, 1 the query failed, 2 bad usage. */
@PublicEvolving
@Command(
    name = "lakestream",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = "Databricks-style lakehouse streaming on Apache Flink.",
    subcommands = {
      RunCommand.class,
      SqlCommand.class,
      UpgradeCommand.class,
      MsfCommand.class,
      DescribeCheckpointCommand.class,
      UiCommand.class,
      TableChangesCommand.class,
      OptimizeCommand.class,
      VacuumCommand.class,
      CloudFilesCommand.class,
      CommandLine.HelpCommand.class
    })
public final class LakestreamCli implements Runnable {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  /**
   * Entry point for {@code java} and {@code flink run}. Embedded, it exits the JVM with the exit
   * code; inside a Flink client or an application-mode JobManager it must not exit the JVM, so a
   * failure is thrown instead. Without arguments on Managed Service for Apache Flink (which passes
   * none) it runs the query of the runtime properties ({@link MsfApplication}).
   */
  public static void main(String[] args) {
    if (!flinkOnClasspath()) {
      System.err.println(
          "lakestream: Flink is not on the classpath. lakestream.jar is a Flink application jar"
              + " (Flink itself is provided by the cluster): run it with 'flink run lakestream.jar"
              + " <command>', or embedded with 'java -cp \"lakestream.jar:$FLINK_HOME/lib/*\""
              + " io.lakestream.pipelines.cli.LakestreamCli <command>' (or bin/lakestream from the"
              + " source tree).");
      System.exit(FailureReporter.USAGE);
    }
    if (args.length == 0 && ManagedService.active()) {
      MsfApplication.main(args);
      return;
    }
    FailureReporter reporter = new FailureReporter();
    exit(execute(reporter, args), args, reporter.failure());
  }

  private static boolean flinkOnClasspath() {
    try {
      Class.forName(
          "org.apache.flink.streaming.api.environment.StreamExecutionEnvironment",
          false,
          LakestreamCli.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException e) {
      return false;
    }
  }

  /** Whether the CLI runs embedded (a MiniCluster in this JVM), not under a Flink client. */
  static boolean embedded() {
    return StreamExecutionEnvironment.getExecutionEnvironment() instanceof LocalStreamEnvironment;
  }

  /**
   * Exits an embedded JVM; under a Flink client or on a JobManager throws on failure, with the
   * failure (whose message names the fix) as the cause: where the program's error output is not
   * shown (a JobManager running it for a jar submission), that is what is reported.
   */
  private static void exit(int code, String[] args, Exception failure) {
    if (embedded()) {
      System.exit(code);
    } else if (code != 0) {
      // the command only: its options may hold secrets
      throw new IllegalStateException(
          "lakestream "
              + (args.length == 0 ? "" : args[0])
              + " failed with exit code "
              + code
              + (failure == null ? "" : ": " + failure.getMessage()),
          failure);
    }
  }

  /** Runs the CLI and returns the exit code (for tests and embedding). */
  public static int execute(String... args) {
    return execute(new FailureReporter(), args);
  }

  private static int execute(FailureReporter reporter, String... args) {
    return new CommandLine(new LakestreamCli())
        .setExecutionExceptionHandler(reporter)
        .execute(args);
  }

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }
}
