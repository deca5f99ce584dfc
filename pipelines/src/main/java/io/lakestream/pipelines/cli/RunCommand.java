package io.lakestream.pipelines.cli;

import io.lakestream.pipelines.Pipeline;
import io.lakestream.pipelines.PipelineOptions;
import io.lakestream.pipelines.Pipelines;
import io.lakestream.runtime.QueryListener;
import io.lakestream.runtime.QueryProgress;
import io.lakestream.runtime.SchemaChangeRestarts;
import io.lakestream.runtime.StreamingQuery;
import io.lakestream.runtime.StreamingQueryBuilder;
import io.lakestream.runtime.Trigger;
import io.lakestream.runtime.TriggerSettings;
import io.lakestream.state.StateBackendSettings;
import io.lakestream.state.query.OutputMode;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.flink.configuration.ConfigConstants;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.GlobalConfiguration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code lakestream run <pipeline>}: runs a pipeline as a query until it ends or fails. */
@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    description =
        "Run a pipeline as a streaming query. Embedded (MiniCluster) under java, on the cluster"
            + " under flink run. The checkpoint location is the query: running again resumes it.",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:the query ended by itself (availableNow) or was stopped",
      "1:the query failed",
      "2:a usage or configuration error, found before anything ran",
      "130:stopped with a savepoint on SIGINT (Ctrl-C); run again to resume",
      "143:stopped with a savepoint on SIGTERM; run again to resume"
    })
class RunCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Parameters(
      index = "0",
      paramLabel = "<pipeline>",
      description = "One of: ${COMPLETION-CANDIDATES}",
      completionCandidates = Pipelines.Names.class)
  String pipelineName;

  @Option(
      names = "--trigger",
      paramLabel = "<trigger>",
      description = "When to commit: " + Trigger.FORMS + ". Default: the pipeline's own.")
  String trigger;

  @Option(
      names = "--checkpoint",
      paramLabel = "<dir>",
      description =
          "Checkpoint location (local path or s3://). Default: <output>/_checkpoints/<query>.")
  String checkpoint;

  @Option(
      names = "--output",
      paramLabel = "<dir>",
      defaultValue = "lakestream-demo",
      description = "Where the pipeline writes its tables. Default: ${DEFAULT-VALUE}.")
  String output;

  @Option(names = "--query-name", description = "Query name. Default: the pipeline name.")
  String queryName;

  @Option(
      names = "--output-mode",
      defaultValue = "append",
      description = "append, update or complete. Default: ${DEFAULT-VALUE}.")
  String outputMode;

  @Option(
      names = "--rows",
      defaultValue = "0",
      description = "Generated sources: rows available in total (0 = pipeline default).")
  long rows;

  @Option(
      names = "--rows-per-second",
      defaultValue = "2000",
      description =
          "Generated sources: rows per second (0 = unlimited). Default: ${DEFAULT-VALUE}.")
  long rowsPerSecond;

  @Option(
      names = "--max-rows-per-trigger",
      defaultValue = "0",
      description = "Generated sources: at most this many rows per epoch (0 = no limit).")
  long maxRowsPerTrigger;

  @Option(
      names = "--parallelism",
      defaultValue = "2",
      description = "Job parallelism. Default: ${DEFAULT-VALUE}.")
  int parallelism;

  @Option(
      names = "--state-backend",
      defaultValue = "rocksdb",
      description = "rocksdb or hashmap. Default: ${DEFAULT-VALUE}.")
  String stateBackend;

  @Option(names = "--changelog", description = "Enable the changelog state backend.")
  boolean changelog;

  @Option(
      names = {"-o", "--option"},
      paramLabel = "<key=value>",
      description =
          "An option of the pipeline's source, as in Spark's .option(key, value), e.g. -o"
              + " kafka.bootstrap.servers=broker:9092 -o maxOffsetsPerTrigger=100000."
              + " Repeatable.")
  java.util.Map<String, String> sourceOptions = new java.util.LinkedHashMap<>();

  @Option(
      names = "--restart-on-schema-change",
      arity = "0..1",
      defaultValue = "true",
      fallbackValue = "true",
      description =
          "Rebuild and restart the query by itself when it stops because its input schema changed"
              + " and the new schema is recorded (Auto Loader's UnknownFieldException in"
              + " addNewColumns mode). Default: ${DEFAULT-VALUE}. Under flink run -d the"
              + " JobManager runs this command again (a session cluster taking jar submissions);"
              + " where it cannot, the job fails and the next submission continues with the new"
              + " schema.")
  boolean restartOnSchemaChange;

  @Option(
      names = "--max-schema-restarts-per-hour",
      defaultValue = "5",
      description =
          "At most this many schema-change restarts within any hour; then the query fails with"
              + " QUERY_SCHEMA_CHANGE_RESTART_REFUSED. Default: ${DEFAULT-VALUE}.")
  int maxSchemaRestartsPerHour;

  @Option(
      names = "--restore-from",
      paramLabel = "<snapshot>",
      description =
          "Restore this savepoint or retained checkpoint instead of the newest one. Epochs a"
              + " later run already committed are replayed exactly as committed; newer snapshots"
              + " are retired.")
  String restoreFrom;

  /** Prints each epoch's one-line summary, on the console of whoever runs the command. */
  private static final QueryListener PROGRESS_PRINTER =
      new QueryListener() {
        @Override
        public void onQueryProgress(StreamingQuery query, QueryProgress progress) {
          System.out.println(progress.summary());
        }
      };

  @Override
  public Integer call() throws Exception {
    StreamingQuery query = program().start();
    if (query.isDetached()) {
      printDetached(query);
      return 0;
    }
    SignalStop signals = LakestreamCli.embedded() ? SignalStop.install(query, System.out) : null;
    query.awaitTermination();
    if (signals != null && signals.signal().isPresent()) {
      System.out.printf(
          "Query '%s' stopped on %s. Run the same command again to resume it from %s.%n",
          query.name(), signals.signal().get(), checkpointLocation());
      return signals.exitCode();
    }
    return 0;
  }

  /** The trigger the query runs with: {@code --trigger}, else the pipeline's own. */
  Trigger chosenTrigger() {
    return trigger == null
        ? Pipelines.byName(pipelineName).defaultTrigger()
        : Trigger.parse(trigger);
  }

  /** The checkpoint location: {@code --checkpoint}, else {@code <output>/_checkpoints/<query>}. */
  String checkpointLocation() {
    String name = queryName == null ? Pipelines.byName(pipelineName).name() : queryName;
    return checkpoint == null
        ? StreamingQueryBuilder.toUri(output).toString().replaceAll("/+$", "")
            + "/_checkpoints/"
            + name
        : checkpoint;
  }

  /** The query these options describe, ready to start. */
  StreamingQueryBuilder program() {
    Pipeline pipeline = Pipelines.byName(pipelineName);
    String name = queryName == null ? pipeline.name() : queryName;
    URI outputUri = StreamingQueryBuilder.toUri(output);
    StateBackendSettings state =
        StateBackendSettings.defaults()
            .withBackend(StateBackendSettings.Backend.parse(stateBackend))
            .withChangelog(changelog);
    return StreamingQueryBuilder.of(
            pipeline.dataflow(
                new PipelineOptions(
                    outputUri, rows, rowsPerSecond, maxRowsPerTrigger, sourceOptions)))
        .queryName(name)
        .checkpointLocation(checkpointLocation())
        .trigger(chosenTrigger())
        .outputMode(OutputMode.parse(outputMode))
        .stateBackend(state)
        .parallelism(parallelism)
        .restoreFrom(restoreFrom)
        .restartOnSchemaChange(
            restartOnSchemaChange
                ? new SchemaChangeRestarts(true, maxSchemaRestartsPerHour)
                : SchemaChangeRestarts.off())
        .programArguments(LakestreamCli.class.getName(), runArguments())
        .flinkConfiguration(flinkConfDir())
        .listener(PROGRESS_PRINTER);
  }

  /**
   * Embedded, the settings of {@code $FLINK_CONF_DIR/config.yaml} when that variable is set, read
   * as the {@code flink} CLI reads them: S3 endpoint and credentials ({@code s3.*}) for checkpoint
   * locations on S3, a restart strategy, state backend options. Under a Flink client or on a
   * JobManager Flink has read them already, so there they add nothing.
   */
  static Configuration flinkConfDir() {
    String dir = System.getenv(ConfigConstants.ENV_FLINK_CONF_DIR);
    return dir != null && LakestreamCli.embedded()
        ? forEmbeddedRun(GlobalConfiguration.loadConfiguration(dir))
        : new Configuration();
  }

  /**
   * A cluster's configuration without its REST endpoint: the embedded run serves its own on a free
   * loopback port, and a cluster's {@code rest.port} (8081) would collide with that cluster's.
   */
  static Configuration forEmbeddedRun(Configuration cluster) {
    Configuration conf = new Configuration(cluster);
    for (String key : List.of("rest.port", "rest.bind-port", "rest.address", "rest.bind-address")) {
      conf.removeKey(key);
    }
    return conf;
  }

  /**
   * The arguments that start this query again with {@code run}, as the JobManager does after a
   * schema change under {@code flink run -d}: the given ones without one-off flags ({@link
   * #oneOff}).
   */
  List<String> runArguments() {
    List<String> given = spec.root().commandLine().getParseResult().originalArgs();
    List<String> args = new ArrayList<>(List.of("run"));
    for (int i = given.indexOf(spec.name()) + 1; i > 0 && i < given.size(); i++) {
      String arg = given.get(i);
      int equals = arg.indexOf('=');
      OptionSpec option =
          arg.startsWith("-") ? spec.findOption(equals < 0 ? arg : arg.substring(0, equals)) : null;
      if (option != null && oneOff(option)) {
        i += equals < 0 && option.arity().max() > 0 ? 1 : 0;
        continue;
      }
      args.add(arg);
    }
    return args;
  }

  /** Whether {@code option} applies to this start only, not to a restart of the query. */
  boolean oneOff(OptionSpec option) {
    return option.longestName().equals("--restore-from");
  }

  void printDetached(StreamingQuery query) {
    System.out.printf(
        "Query '%s' (run %s) submitted detached; the job writes its progress to %s/progress"
            + " and %s.%n",
        query.name(),
        query.runId(),
        checkpointLocation(),
        TriggerSettings.bounded(chosenTrigger())
            ? "stops by itself with a savepoint once it has read what is available now"
            : "runs until stopped (flink stop --savepointPath <checkpoint>/savepoints <job id>)");
  }
}
