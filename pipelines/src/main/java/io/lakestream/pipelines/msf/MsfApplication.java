package io.lakestream.pipelines.msf;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.options.OptionValues;
import io.lakestream.pipelines.PipelineErrorClass;
import io.lakestream.pipelines.cli.LakestreamCli;
import io.lakestream.runtime.ManagedService;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The application main for Amazon Managed Service for Apache Flink (MSF), which runs lakestream.jar
 * in application mode with no arguments: every option comes from the runtime property groups
 * ({@link MsfProperties}).
 *
 * <ul>
 *   <li>{@value #QUERY_GROUP}: the arguments of {@code lakestream run} ({@link MsfQueryOptions});
 *   <li>{@value #SOURCE_GROUP}: the pipeline's source options (what {@code -o key=value} gives).
 * </ul>
 *
 * The groups are translated into the arguments of {@code lakestream run}, which checks them as on
 * the command line and starts the query with MSF mode on ({@link ManagedService}): Flink's
 * checkpoint storage, interval and restores stay the service's, the query's metadata, lease,
 * offsets, commits and progress stay in its checkpoint location. Without a trigger the query
 * commits at the service's checkpoint interval; without a parallelism it takes the service's.
 *
 * <p>{@code main} returns once the job is submitted (the job runs on its own) and throws when the
 * query cannot start: an unknown group or key (the valid ones are listed, {@code
 * MSF_INVALID_PROPERTIES} or {@code UNKNOWN_OPTION}), or any refusal of {@code lakestream run}.
 * Arguments: none (the properties file is detected), or {@code --properties <file>} to force MSF
 * mode with that file.
 */
@PublicEvolving
public final class MsfApplication {
  /** The property group of the query: pipeline, output, checkpoint, trigger, ... */
  public static final String QUERY_GROUP = "lakestream";

  /** The property group of the pipeline's source options. */
  public static final String SOURCE_GROUP = "source";

  /** Groups the service itself may add (e.g. for Python applications); not lakestream's. */
  static final String SERVICE_GROUP_PREFIX = "kinesis.analytics.";

  /** The interval of MSF's DEFAULT checkpoint configuration, when Flink's names none. */
  static final Duration SERVICE_DEFAULT_INTERVAL = Duration.ofSeconds(60);

  private static final Logger LOG = LoggerFactory.getLogger(MsfApplication.class);

  private MsfApplication() {}

  /**
   * Runs the query of the runtime properties.
   *
   * @throws LakestreamException if the properties are unusable
   * @throws IllegalStateException if {@code lakestream run} refused or failed (its message was
   *     printed to standard error)
   */
  public static void main(String[] args) {
    int code = run(propertiesFile(args));
    if (code != 0) {
      throw new IllegalStateException(
          "lakestream on Managed Service for Apache Flink: lakestream run failed with exit code "
              + code
              + "; its message is on standard error, before this");
    }
  }

  /**
   * Turns MSF mode on in this process, reads {@code propertiesFile} and runs its query.
   *
   * @return the exit code of {@code lakestream run}
   * @throws LakestreamException if the properties are unusable
   */
  public static int run(Path propertiesFile) {
    System.setProperty(ManagedService.SWITCH_PROPERTY, "true");
    ReadableConfig flink = StreamExecutionEnvironment.getExecutionEnvironment().getConfiguration();
    List<String> args = arguments(MsfProperties.read(propertiesFile), flink);
    LOG.info(
        "Managed Service for Apache Flink: runtime properties {} -> lakestream {}",
        propertiesFile,
        withoutValues(args));
    return LakestreamCli.execute(args.toArray(String[]::new));
  }

  /**
   * The arguments of {@code lakestream run} for {@code properties}.
   *
   * @param flink the configuration the service gave Flink (checkpoint interval, parallelism)
   * @throws LakestreamException for an unknown group, a missing {@value #QUERY_GROUP} group, or a
   *     key of it that is unknown, invalid or owned by the service
   */
  public static List<String> arguments(MsfProperties properties, ReadableConfig flink) {
    requireKnownGroups(properties);
    Map<String, String> query =
        properties
            .group(QUERY_GROUP)
            .orElseThrow(
                () ->
                    MsfProperties.invalid(
                        properties.file(),
                        "has no property group '"
                            + QUERY_GROUP
                            + "' (pipeline, output, ...): lakestream takes its options only from"
                            + " property groups; see docs/deploy/msf.md"));
    OptionValues values = MsfQueryOptions.validate(query);
    Duration interval =
        flink
            .getOptional(CheckpointingOptions.CHECKPOINTING_INTERVAL)
            .orElse(SERVICE_DEFAULT_INTERVAL);
    return MsfQueryOptions.runArguments(
        values,
        properties.group(SOURCE_GROUP).orElse(Map.of()),
        "processingTime=" + interval.toMillis() + "ms",
        flink.getOptional(CoreOptions.DEFAULT_PARALLELISM).orElse(null));
  }

  private static void requireKnownGroups(MsfProperties properties) {
    Set<String> unknown = new TreeSet<>();
    for (String id : properties.groupIds()) {
      if (id.startsWith(SERVICE_GROUP_PREFIX)) {
        LOG.info("Property group '{}' belongs to the service; lakestream ignores it", id);
      } else if (!id.equals(QUERY_GROUP) && !id.equals(SOURCE_GROUP)) {
        unknown.add(id);
      }
    }
    if (!unknown.isEmpty()) {
      throw new LakestreamException(
          PipelineErrorClass.MSF_INVALID_PROPERTIES,
          "Unknown property groups "
              + unknown
              + " in "
              + properties.file()
              + ". Valid groups: "
              + QUERY_GROUP
              + " (the arguments of lakestream run: "
              + MsfQueryOptions.CATALOG.validKeys()
              + ") and "
              + SOURCE_GROUP
              + " (the pipeline's source options, as -o key=value). Group ids are case-sensitive.");
    }
  }

  /** Where {@code args} name the properties file ({@code --properties <file>}), else detected. */
  static Path propertiesFile(String[] args) {
    if (args.length == 0) {
      return ManagedService.propertiesFile();
    }
    if (args.length == 2 && args[0].equals("--properties")) {
      return Path.of(args[1]);
    }
    throw new LakestreamException(
        PipelineErrorClass.CLI_INVALID_ARGUMENT,
        "MsfApplication takes no arguments (its options are the runtime property groups), or"
            + " --properties <file>; was "
            + List.of(args));
  }

  /** {@code args} with the values of source options left out: they may hold credentials. */
  private static List<String> withoutValues(List<String> args) {
    List<String> shown = new ArrayList<>();
    for (int i = 0; i < args.size(); i++) {
      boolean sourceValue = i > 0 && args.get(i - 1).equals("-o");
      shown.add(sourceValue ? args.get(i).replaceAll("=.*", "=...") : args.get(i));
    }
    return shown;
  }
}
