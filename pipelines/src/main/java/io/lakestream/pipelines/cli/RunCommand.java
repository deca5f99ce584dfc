package io.lakestream.pipelines.cli;

import io.lakestream.pipelines.Pipeline;
import io.lakestream.pipelines.Pipelines;
import io.lakestream.pipelines.RunSettings;
import io.lakestream.pipelines.query.QueryRunner;
import io.lakestream.pipelines.query.Trigger;
import java.io.File;
import java.net.URI;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code lakestream run <pipeline>}: builds a pipeline and runs it until it ends or fails. */
@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    description =
        "Run a pipeline. Embedded (MiniCluster) under java, on the cluster under flink run.")
final class RunCommand implements Callable<Integer> {

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
      names = "--rows",
      defaultValue = "0",
      description = "Generated sources: rows in total (0 = pipeline default).")
  long rows;

  @Option(
      names = "--rows-per-second",
      defaultValue = "2000",
      description = "Generated sources: rows per second. Default: ${DEFAULT-VALUE}.")
  long rowsPerSecond;

  @Option(
      names = "--parallelism",
      defaultValue = "2",
      description = "Job parallelism. Default: ${DEFAULT-VALUE}.")
  int parallelism;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    Pipeline pipeline = Pipelines.byName(pipelineName);
    Trigger chosen = trigger == null ? pipeline.defaultTrigger() : Trigger.parse(trigger);
    String name = queryName == null ? pipeline.name() : queryName;
    URI outputUri = toUri(output);
    URI checkpointUri =
        checkpoint == null
            ? URI.create(outputUri.toString().replaceAll("/+$", "") + "/_checkpoints/" + name)
            : toUri(checkpoint);
    if (parallelism < 1) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "--parallelism must be >= 1, was " + parallelism);
    }
    RunSettings settings =
        new RunSettings(name, chosen, checkpointUri, outputUri, rows, rowsPerSecond, parallelism);
    new QueryRunner(pipeline, settings).run();
    return 0;
  }

  /** A path without a scheme is a local path, made absolute. */
  static URI toUri(String location) {
    URI uri = URI.create(location.replace(" ", "%20"));
    if (uri.getScheme() == null || uri.getScheme().length() == 1) {
      return new File(location).getAbsoluteFile().toURI();
    }
    return uri;
  }
}
