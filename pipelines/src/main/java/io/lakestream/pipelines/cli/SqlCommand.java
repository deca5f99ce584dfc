package io.lakestream.pipelines.cli;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.pipelines.PipelineErrorClass;
import io.lakestream.runtime.QueryErrorClass;
import io.lakestream.runtime.StreamingQuery;
import io.lakestream.runtime.StreamingQueryBuilder;
import io.lakestream.runtime.Trigger;
import io.lakestream.runtime.TriggerSettings;
import io.lakestream.sql.SqlDataflow;
import io.lakestream.sql.SqlQuerySettings;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code lakestream sql -f <file>}: runs a SQL script as one query ({@link SqlDataflow}) until it
 * ends or fails, embedded or under {@code flink run}. The script is read where the command runs
 * (the client under {@code flink run}, the JobManager in application mode): a local path or a URI
 * Flink's file systems read. A schema-change restart of a detached query runs the command again on
 * the JobManager with the script's text instead of its path ({@code --script}), so the file need
 * not be there.
 */
@Command(
    name = "sql",
    mixinStandardHelpOptions = true,
    subcommands = SqlRefreshCommand.class,
    description = {
      "Run a SQL script as one streaming query: its CREATE CATALOG / CREATE TABLE / CREATE"
          + " TEMPORARY VIEW and SET statements run in order, and all its INSERT INTO statements"
          + " form one query (one Flink job, one checkpoint location, one sink app id). Embedded"
          + " (MiniCluster) under java, on the cluster under flink run. The checkpoint location is"
          + " the query: running again resumes it, and a change the restart matrix forbids (another"
          + " GROUP BY or deduplication key, a join or aggregation added or removed) is refused"
          + " before anything runs.",
      "",
      "The query's own settings go in the script, the command line winning:",
      "  SET 'lakestream.trigger' = 'availableNow';",
      "  SET 'lakestream.checkpointLocation' = 's3://lake/_checkpoints/orders_gold';",
      "  SET 'lakestream.queryName' = 'orders_gold';",
      ""
    },
    footerHeading = "%nExample (gold.sql):%n",
    footer = {
      "  SET 'lakestream.trigger' = 'availableNow';",
      "  CREATE TABLE orders (customer STRING, amount DECIMAL(12, 2))",
      "    WITH ('connector' = 'delta', 'path' = 's3a://lake/silver/orders');",
      "  CREATE TABLE totals (customer STRING NOT NULL, total DECIMAL(38, 2),",
      "    PRIMARY KEY (customer) NOT ENFORCED)",
      "    WITH ('connector' = 'delta', 'path' = 's3a://lake/gold/totals');",
      "  INSERT INTO totals SELECT customer, SUM(amount) FROM orders GROUP BY customer;",
      "",
      "  lakestream sql -f gold.sql --checkpoint-location s3://lake/_checkpoints/gold"
    },
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:the query ended by itself (availableNow, once) or was stopped",
      "1:the query failed",
      "2:a usage, SQL or configuration error, found before anything ran (file:line:column and"
          + " the error class are printed)",
      "130:stopped with a savepoint on SIGINT (Ctrl-C); run again to resume",
      "143:stopped with a savepoint on SIGTERM; run again to resume"
    })
final class SqlCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(
      names = {"-f", "--file"},
      paramLabel = "<file>",
      description =
          "The SQL script: statements separated by semicolons. A local path or a URI such as"
              + " s3://bucket/pipelines/gold.sql.")
  String file;

  /** The script's text, as a schema-change restart on the JobManager passes it. */
  @Option(names = "--script", hidden = true)
  String script;

  /** The script's file name for messages, with {@code --script}. */
  @Option(names = "--script-name", hidden = true)
  String scriptName;

  @Option(
      names = {"--checkpoint-location", "--checkpoint"},
      paramLabel = "<dir>",
      description =
          "Checkpoint location (local path or s3://), one per query. Wins over SET"
              + " 'lakestream.checkpointLocation'; one of the two is required.")
  String checkpointLocation;

  @Option(
      names = "--trigger",
      paramLabel = "<trigger>",
      description =
          "When to commit: "
              + Trigger.FORMS
              + ". Wins over SET 'lakestream.trigger'. Default: the script's, else default.")
  String trigger;

  @Option(
      names = {"--name", "--query-name"},
      paramLabel = "<name>",
      description =
          "Query name. Wins over SET 'lakestream.queryName'. Default: the script's, else the"
              + " file's name without its extension.")
  String name;

  @Option(
      names = "-D",
      paramLabel = "<key=value>",
      description =
          "A setting as SET 'key' = 'value' makes it, winning over the script's: a table setting"
              + " (-D table.exec.state.ttl=1h) or a query setting (-D lakestream.trigger=once)."
              + " Repeatable.")
  Map<String, String> settings = new LinkedHashMap<>();

  @Mixin QueryRunOptions runOptions = new QueryRunOptions();

  private String text;

  @Override
  public Integer call() throws Exception {
    SqlDataflow dataflow = dataflow();
    Map<String, String> query = dataflow.querySettings();
    StreamingQuery started = program(dataflow, query).start();
    return QueryConsole.await(
        started,
        query.get(SqlQuerySettings.CHECKPOINT_LOCATION.key()),
        TriggerSettings.bounded(Trigger.parse(query.get(SqlQuerySettings.TRIGGER.key()))));
  }

  /** The script with the command line's settings winning over its own. */
  SqlDataflow dataflow() {
    Map<String, String> given = new LinkedHashMap<>(settings);
    putIfGiven(given, SqlQuerySettings.CHECKPOINT_LOCATION.key(), checkpointLocation);
    putIfGiven(given, SqlQuerySettings.TRIGGER.key(), trigger);
    putIfGiven(given, SqlQuerySettings.QUERY_NAME.key(), name);
    SqlDataflow dataflow = SqlDataflow.fromFile(scriptName(), scriptText());
    for (Map.Entry<String, String> setting : given.entrySet()) {
      dataflow = dataflow.withOverride(setting.getKey(), setting.getValue());
    }
    return dataflow.querySettings().containsKey(SqlQuerySettings.QUERY_NAME.key())
        ? dataflow
        : dataflow.withOverride(SqlQuerySettings.QUERY_NAME.key(), defaultName());
  }

  private static void putIfGiven(Map<String, String> settings, String key, String value) {
    if (value != null) {
      settings.put(key, value);
    }
  }

  /** The query, ready to start. */
  private StreamingQueryBuilder program(SqlDataflow dataflow, Map<String, String> query) {
    if (!query.containsKey(SqlQuerySettings.CHECKPOINT_LOCATION.key())) {
      throw new LakestreamException(
          QueryErrorClass.QUERY_CHECKPOINT_LOCATION_REQUIRED,
          "The query of "
              + scriptName()
              + " has no checkpoint location: give every query its own directory on durable"
              + " storage, with --checkpoint-location s3://bucket/_checkpoints/"
              + query.get(SqlQuerySettings.QUERY_NAME.key())
              + " or SET 'lakestream.checkpointLocation' = '...' in the script.");
    }
    return runOptions.applyTo(
        dataflow.queryBuilder(),
        restartArguments(),
        TriggerSettings.bounded(Trigger.parse(query.get(SqlQuerySettings.TRIGGER.key()))));
  }

  private String scriptName() {
    if (scriptName != null) {
      return scriptName;
    }
    return file == null ? "<script>" : new Path(file).getName();
  }

  /** The query name when neither the script nor the command line gives one. */
  private String defaultName() {
    String base = scriptName();
    int dot = base.lastIndexOf('.');
    String stem = dot > 0 ? base.substring(0, dot) : base;
    String cleaned = stem.replaceAll("[^A-Za-z0-9_.-]", "_");
    return cleaned.isEmpty() ? "sql" : cleaned;
  }

  /** The script's text: {@code --script}, else the file's, read once. */
  private String scriptText() {
    if (text == null) {
      if ((script == null) == (file == null)) {
        throw new LakestreamException(
            PipelineErrorClass.CLI_INVALID_ARGUMENT,
            "lakestream sql needs the script: -f <file> (e.g. -f pipeline.sql)");
      }
      text = script != null ? script : read(file);
    }
    return text;
  }

  /** The file's text, read through Flink's file systems (a local path, s3://, ...). */
  static String read(String file) {
    URI uri = StreamingQueryBuilder.toUri(file);
    try (InputStream in = FileSystem.get(uri).open(new Path(uri))) {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      in.transferTo(bytes);
      return bytes.toString(StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new LakestreamException(
          PipelineErrorClass.CLI_INVALID_ARGUMENT,
          "Cannot read the SQL script " + file + " (" + e + "): give a readable file with -f.");
    }
  }

  /**
   * The arguments that start this query again with {@code sql}, as the JobManager does after a
   * schema change under {@code flink run -d}: the given ones without one-off flags, the script's
   * path replaced by its text (the file is where the command first ran, not on the JobManager).
   */
  List<String> restartArguments() {
    List<String> given = spec.root().commandLine().getParseResult().originalArgs();
    List<String> args =
        new ArrayList<>(List.of("sql", "--script", scriptText(), "--script-name", scriptName()));
    for (int i = given.indexOf(spec.name()) + 1; i > 0 && i < given.size(); i++) {
      String arg = given.get(i);
      int equals = arg.indexOf('=');
      OptionSpec option =
          arg.startsWith("-") ? spec.findOption(equals < 0 ? arg : arg.substring(0, equals)) : null;
      if (option == null && arg.startsWith("-f") && !arg.startsWith("--")) {
        continue; // -f<file>
      }
      if (option != null && notRepeated(option)) {
        i += equals < 0 && option.arity().max() > 0 ? 1 : 0;
        continue;
      }
      args.add(arg);
    }
    return args;
  }

  /** The script's source and the one-off flags, which a restart does not repeat. */
  private static boolean notRepeated(OptionSpec option) {
    String name = option.longestName();
    return List.of("--file", "--script", "--script-name").contains(name)
        || QueryRunOptions.oneOff(name);
  }
}
