package io.lakestream.pipelines.cli;

import io.lakestream.pipelines.EmbeddedStages;
import io.lakestream.pipelines.Pipeline;
import io.lakestream.pipelines.PipelineOptions;
import io.lakestream.pipelines.Pipelines;
import io.lakestream.runtime.StreamingQuery;
import io.lakestream.runtime.StreamingQueryBuilder;
import io.lakestream.runtime.Trigger;
import io.lakestream.runtime.TriggerSettings;
import io.lakestream.state.query.IncompatibleRestartException;
import io.lakestream.state.query.OutputMode;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.flink.configuration.ConfigConstants;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.GlobalConfiguration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
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
      names = {"-o", "--option"},
      paramLabel = "<key=value>",
      description =
          "An option of the pipeline's source, as in Spark's .option(key, value), e.g. -o"
              + " kafka.bootstrap.servers=broker:9092 -o maxOffsetsPerTrigger=100000."
              + " Repeatable.")
  java.util.Map<String, String> sourceOptions = new java.util.LinkedHashMap<>();

  @Mixin QueryRunOptions runOptions = new QueryRunOptions();

  @Override
  public Integer call() throws Exception {
    Pipeline pipeline = Pipelines.byName(pipelineName);
    StreamingQuery query;
    try {
      query = program().start();
    } catch (IncompatibleRestartException refused) {
      throw pipeline.explain(refused, options());
    }
    boolean bounded = TriggerSettings.bounded(chosenTrigger());
    int code = QueryConsole.await(query, checkpointLocation(), bounded);
    if (code != 0 || query.isDetached() || pipeline.followedBy().isEmpty()) {
      return code;
    }
    if (!LakestreamCli.embedded() || !bounded) {
      System.out.printf(
          "Pipeline %s ran its own query only: its stages %s run after it in an embedded run"
              + " with an availableNow trigger.%n",
          pipeline.name(), pipeline.followedBy().stream().map(Pipeline::name).toList());
      return code;
    }
    try (EmbeddedStages stages = pipeline.embeddedStages(options(), checkpointLocation())) {
      return runStages(stages);
    }
  }

  /** Runs the stages one after the other, then prints the summary; stops at the first failure. */
  private int runStages(EmbeddedStages stages) throws Exception {
    for (Pipeline stage : stages.stages()) {
      int code = SignalStop.pendingExitCode();
      if (code != 0) { // the signal came after the last query ended
        System.out.printf(
            "Signalled: stage '%s' not started. Run the same command again to continue.%n",
            stage.name());
        return code;
      }
      code = runStage(stage);
      if (code != 0) {
        return code;
      }
    }
    try {
      stages.summary().forEach(System.out::println);
    } catch (RuntimeException e) { // every query succeeded; the summary is a convenience
      System.out.println("No summary of the tables (" + e + "); the queries ended successfully.");
    }
    return 0;
  }

  /**
   * Runs {@code stage} of the pipeline as its own query with its default trigger, on {@code
   * <output>/_checkpoints/<stage>}, and waits for it.
   */
  private int runStage(Pipeline stage) throws Exception {
    String location =
        StreamingQueryBuilder.toUri(output).toString().replaceAll("/+$", "")
            + "/_checkpoints/"
            + stage.name();
    System.out.printf("Starting stage '%s': %s.%n", stage.name(), stage.description());
    StreamingQueryBuilder builder =
        StreamingQueryBuilder.of(stage.dataflow(options()))
            .queryName(stage.name())
            .checkpointLocation(location)
            .trigger(stage.defaultTrigger())
            .outputMode(OutputMode.APPEND);
    StreamingQuery query = runOptions.applyToStage(builder, runArguments()).start();
    return QueryConsole.await(query, location, TriggerSettings.bounded(stage.defaultTrigger()));
  }

  private PipelineOptions options() {
    return new PipelineOptions(
        StreamingQueryBuilder.toUri(output), rows, rowsPerSecond, maxRowsPerTrigger, sourceOptions);
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
    StreamingQueryBuilder builder =
        StreamingQueryBuilder.of(pipeline.dataflow(options()))
            .queryName(name)
            .checkpointLocation(checkpointLocation())
            .trigger(chosenTrigger())
            .outputMode(OutputMode.parse(outputMode));
    return runOptions.applyTo(builder, runArguments(), TriggerSettings.bounded(chosenTrigger()));
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
    return QueryRunOptions.oneOff(option.longestName());
  }

  void printDetached(StreamingQuery query) {
    QueryConsole.printDetached(
        query, checkpointLocation(), TriggerSettings.bounded(chosenTrigger()));
  }
}
