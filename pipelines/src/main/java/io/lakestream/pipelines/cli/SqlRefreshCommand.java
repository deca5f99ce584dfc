package io.lakestream.pipelines.cli;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.pipelines.PipelineErrorClass;
import io.lakestream.runtime.StreamingQuery;
import io.lakestream.sql.streamingtable.StreamingTableRefresh;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.flink.core.fs.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code lakestream sql refresh <table> -f <file>}: one refresh of a streaming table of a SQL
 * script ({@link StreamingTableRefresh}), Databricks SQL's {@code REFRESH STREAMING TABLE}: an
 * availableNow query whose checkpoint lives under the table, embedded or under {@code flink run}.
 * Run it from a scheduler at the statement's cadence; {@code StreamingTableRefresh#startSchedule}
 * runs the statement's own schedule from a program.
 */
@Command(
    name = "refresh",
    mixinStandardHelpOptions = true,
    description = {
      "Refresh one streaming table of a SQL script (CREATE OR REFRESH STREAMING TABLE): create the"
          + " Delta table in the script's Delta catalog if missing, append what its input gained"
          + " since the last refresh, and stop. Its checkpoint is <table>/_checkpoints/"
          + "streaming_table, so the table and its progress move and drop together; the script's"
          + " other streaming tables are not refreshed.",
      ""
    },
    footerHeading = "%nExample:%n",
    footer = {"  lakestream sql refresh orders_5m -f pipelines/sql/e7_orders_5m.sql"},
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:the refresh ended",
      "1:the refresh failed",
      "2:a usage, SQL or configuration error, found before anything ran",
      "130:stopped with a savepoint on SIGINT (Ctrl-C); run again to resume",
      "143:stopped with a savepoint on SIGTERM; run again to resume"
    })
final class SqlRefreshCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Parameters(
      index = "0",
      paramLabel = "<table>",
      description = "The streaming table: its name, or database.name when two share a name.")
  String table;

  @Option(
      names = {"-f", "--file"},
      paramLabel = "<file>",
      description = "The SQL script: a local path or a URI such as s3://bucket/pipelines/gold.sql.")
  String file;

  /** The script's text, as a schema-change restart on the JobManager passes it. */
  @Option(names = "--script", hidden = true)
  String script;

  /** The script's file name for messages, with {@code --script}. */
  @Option(names = "--script-name", hidden = true)
  String scriptName;

  @Mixin QueryRunOptions runOptions = new QueryRunOptions();

  /** The script's source and the one-off flags, which a restart does not repeat. */
  private static final List<String> NOT_REPEATED =
      List.of("-f", "--file", "--script", "--script-name", "--restore-from");

  @Override
  public Integer call() throws Exception {
    String text = scriptText();
    StreamingTableRefresh refresh =
        StreamingTableRefresh.fromFile(scriptName(), text, table)
            .withQuerySettings(query -> runOptions.applyTo(query, restartArguments(text), true));
    StreamingQuery started = refresh.queryBuilder().start();
    return QueryConsole.await(started, refresh.checkpointLocation(), true);
  }

  private String scriptText() {
    if ((script == null) == (file == null)) {
      throw new LakestreamException(
          PipelineErrorClass.CLI_INVALID_ARGUMENT,
          "lakestream sql refresh needs the script: -f <file> (e.g. -f orders_5m.sql)");
    }
    return script != null ? script : SqlCommand.read(file);
  }

  private String scriptName() {
    if (scriptName != null) {
      return scriptName;
    }
    return file == null ? "<script>" : new Path(file).getName();
  }

  /**
   * The arguments that run this refresh again after a schema change (on the JobManager under {@code
   * flink run -d}): the script's text instead of its path, the run options as given, without {@code
   * --restore-from}.
   */
  List<String> restartArguments(String text) {
    List<String> given = spec.root().commandLine().getParseResult().originalArgs();
    List<String> args =
        new ArrayList<>(
            List.of("sql", "refresh", table, "--script", text, "--script-name", scriptName()));
    boolean tableSeen = false;
    for (int i = given.indexOf("refresh") + 1; i > 0 && i < given.size(); i++) {
      String arg = given.get(i);
      String name = arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg;
      if (NOT_REPEATED.contains(name)) {
        i += arg.contains("=") ? 0 : 1; // and its value
      } else if (arg.startsWith("-f")) {
        continue; // -f<file>
      } else if (!arg.startsWith("-") && !tableSeen && arg.equals(table)) {
        tableSeen = true;
      } else {
        args.add(arg);
      }
    }
    return args;
  }
}
