package io.lakestream.pipelines.cli;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.autoloader.AutoLoaderOptions;
import io.lakestream.connectors.autoloader.notification.NotificationResources;
import io.lakestream.connectors.autoloader.notification.NotificationSettings;
import io.lakestream.pipelines.PipelineErrorClass;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code lakestream cloud-files resources --list|--cleanup [--query-id ID] -o cloudFiles.region=R
 * ...}: the AWS resources Auto Loader's file notification mode set up for queries started without
 * {@code cloudFiles.queueUrl} ({@link NotificationResources}): lists them (queue URL, query id,
 * input path, topic), or removes the queue, the topic with its subscriptions and the bucket
 * notification of one query ({@code --query-id}) or of all. Takes the same {@code cloudFiles.*}
 * options as the query for region, endpoints and credentials; other keys are refused, naming the
 * valid ones.
 */
@Command(
    name = "cloud-files",
    mixinStandardHelpOptions = true,
    description = "Auto Loader (cloudFiles) administration.",
    subcommands = {CloudFilesCommand.Resources.class})
final class CloudFilesCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getOut());
    return 2;
  }

  /** {@code cloud-files resources}. */
  @Command(
      name = "resources",
      mixinStandardHelpOptions = true,
      description =
          "List or remove the SQS queues, SNS topics and bucket notifications file notification"
              + " mode set up.")
  static final class Resources implements Callable<Integer> {
    private static final List<String> KEYS =
        List.of(
            AutoLoaderOptions.REGION.key(),
            AutoLoaderOptions.SQS_ENDPOINT.key(),
            AutoLoaderOptions.S3_ENDPOINT.key(),
            AutoLoaderOptions.SNS_ENDPOINT.key(),
            AutoLoaderOptions.AWS_ACCESS_KEY.key(),
            AutoLoaderOptions.AWS_SECRET_KEY.key());

    static final class Action {
      @Option(names = "--list", required = true, description = "List them.")
      boolean list;

      @Option(names = "--cleanup", required = true, description = "Remove them.")
      boolean cleanup;
    }

    @ArgGroup(exclusive = true, multiplicity = "1")
    Action action;

    @Option(
        names = "--query-id",
        paramLabel = "<id>",
        description =
            "Only the resources of this query (its id: `lakestream describe-checkpoint`).")
    String queryId;

    @Option(
        names = {"-o", "--option"},
        paramLabel = "<key=value>",
        description =
            "cloudFiles.region (required), cloudFiles.sqsEndpoint, cloudFiles.s3Endpoint,"
                + " cloudFiles.snsEndpoint, cloudFiles.awsAccessKey, cloudFiles.awsSecretKey, as given to the query.")
    Map<String, String> options = new LinkedHashMap<>();

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
      Map<String, String> given = validated();
      PrintWriter out = spec.commandLine().getOut();
      try (NotificationResources resources = new NotificationResources(settings(given))) {
        int count = 0;
        for (NotificationResources.Created created : resources.list()) {
          if (queryId != null && !queryId.equals(created.queryId())) {
            continue;
          }
          if (action.cleanup) {
            resources.cleanUp(created);
          }
          out.printf(
              "%s%s  query %s  input %s%s%n",
              action.cleanup ? "removed " : "",
              created.queueUrl(),
              created.queryId(),
              created.inputPath(),
              created.topicArn() == null ? "" : "  topic " + created.topicArn());
          count++;
        }
        out.printf(
            "%d set-up%s %s%n", count, count == 1 ? "" : "s", action.cleanup ? "removed" : "found");
      }
      out.flush();
      return 0;
    }

    /** The options by their declared keys (any case); refuses others and a missing region. */
    private Map<String, String> validated() {
      Map<String, String> byKey = new TreeMap<>();
      for (Map.Entry<String, String> option : options.entrySet()) {
        String key =
            KEYS.stream()
                .filter(
                    k ->
                        k.toLowerCase(Locale.ROOT).equals(option.getKey().toLowerCase(Locale.ROOT)))
                .findFirst()
                .orElseThrow(
                    () ->
                        new LakestreamException(
                            PipelineErrorClass.CLI_INVALID_ARGUMENT,
                            "-o "
                                + option.getKey()
                                + " is not an option of cloud-files resources; valid: "
                                + String.join(", ", KEYS)));
        byKey.put(key, option.getValue());
      }
      if (!byKey.containsKey(AutoLoaderOptions.REGION.key())) {
        throw new LakestreamException(
            PipelineErrorClass.CLI_INVALID_ARGUMENT,
            "cloud-files resources needs -o cloudFiles.region=<region>: the region the queries"
                + " set up their queues in");
      }
      return byKey;
    }

    private static NotificationSettings settings(Map<String, String> given) {
      return new NotificationSettings(
          null,
          given.get(AutoLoaderOptions.REGION.key()),
          given.get(AutoLoaderOptions.SQS_ENDPOINT.key()),
          given.get(AutoLoaderOptions.AWS_ACCESS_KEY.key()),
          given.get(AutoLoaderOptions.AWS_SECRET_KEY.key()),
          0,
          given.get(AutoLoaderOptions.S3_ENDPOINT.key()),
          false, // clean-up finds a query's topic in its queue's tags
          given.get(AutoLoaderOptions.SNS_ENDPOINT.key()),
          Map.of());
    }
  }
}
