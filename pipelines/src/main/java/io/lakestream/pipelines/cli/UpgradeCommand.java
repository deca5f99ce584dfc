package io.lakestream.pipelines.cli;

import io.lakestream.runtime.QueryUpgrade;
import io.lakestream.runtime.StreamingQuery;
import java.net.URI;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code lakestream upgrade <pipeline> [run options]}: the savepoint-based upgrade of the running
 * query to this program (this jar, these options), under {@code flink run}. See {@link
 * QueryUpgrade}: an incompatible change is refused before the running job is touched.
 */
@Command(
    name = "upgrade",
    mixinStandardHelpOptions = true,
    description =
        "Upgrade the running query to this program (new jar or new options) under flink run:"
            + " check it against the checkpoint location first (an incompatible change is refused"
            + " while the old job keeps running), then stop the old job with a savepoint, start"
            + " this program from it and wait for its first epoch. Takes the options of run.")
final class UpgradeCommand extends RunCommand {

  @Option(
      names = "--job",
      paramLabel = "<job id>",
      description = "The running job to upgrade. Default: the one running job named as the query.")
  String job;

  @Option(
      names = "--rest",
      paramLabel = "<url>",
      description = "The cluster's REST API, e.g. http://jobmanager:8081. Default: flink run -m.")
  String rest;

  @Option(
      names = "--dry-run",
      description = "Check the program and find the job; print the verdict, change nothing.")
  boolean dryRun;

  @Option(
      names = "--check",
      description =
          "Check the program against the checkpoint location only (no cluster): the pre-flight"
              + " where the service stops and starts the job (EMR application mode, Managed"
              + " Service for Apache Flink).")
  boolean checkOnly;

  @Override
  boolean oneOff(picocli.CommandLine.Model.OptionSpec option) {
    return super.oneOff(option)
        || java.util.Set.of("--job", "--rest", "--dry-run", "--check")
            .contains(option.longestName());
  }

  @Override
  public Integer call() throws Exception {
    QueryUpgrade upgrade =
        QueryUpgrade.to(program()).jobId(job).restApi(rest == null ? null : URI.create(rest));
    if (checkOnly) {
      System.out.println("lakestream upgrade --check: allowed: " + upgrade.check().summary());
      return 0;
    }
    ReadableConfig flink = StreamExecutionEnvironment.getExecutionEnvironment().getConfiguration();
    if (dryRun) {
      System.out.println("lakestream upgrade --dry-run: allowed: " + upgrade.plan(flink).summary());
      return 0;
    }
    StreamingQuery query = upgrade.run(flink);
    System.out.printf(
        "lakestream upgrade: query '%s' runs the new program as run %s (first epoch %d"
            + " committed)%n",
        query.name(), query.runId(), query.lastProgress().map(p -> p.batchId()).orElse(-1L));
    if (query.isDetached()) {
      printDetached(query);
      return 0;
    }
    query.awaitTermination();
    return 0;
  }
}
