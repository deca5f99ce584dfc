package io.lakestream.pipelines.cli;

import io.lakestream.pipelines.listener.KafkaProgressListener;
import io.lakestream.pipelines.listener.ObservedMetricThreshold;
import io.lakestream.runtime.QueryListener;
import io.lakestream.runtime.SchemaChangeRestarts;
import io.lakestream.runtime.StreamingQueryBuilder;
import io.lakestream.state.StateBackendSettings;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * The options of a query's run that {@code run} and {@code sql} share: parallelism, state backend,
 * the snapshot to restore, schema-change restarts.
 */
final class QueryRunOptions {
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

  @Option(
      names = "--progress-topic",
      paramLabel = "<topic>",
      description =
          "Also write each progress event (the JSON of progress/N) to this Kafka topic, keyed by"
              + " the query's id; needs --progress-kafka bootstrap.servers=<host:port>.")
  String progressTopic;

  @Option(
      names = "--progress-kafka",
      paramLabel = "<key=value>",
      description =
          "A Kafka producer property of the --progress-topic producer, e.g."
              + " bootstrap.servers=broker:9092 or security.protocol=SSL (repeatable).")
  Map<String, String> progressKafka = new LinkedHashMap<>();

  @Option(
      names = "--fail-when",
      paramLabel = "<observation.metric>threshold>",
      description =
          "Stop the query as failed (with a savepoint) when an epoch's observed metric passes"
              + " the threshold, e.g. --fail-when 'silver_quality.malformedRatio>0.05'"
              + " (repeatable).")
  List<String> failWhen = new java.util.ArrayList<>();

  /** Whether {@code option} (its longest name) applies to this start only, not to a restart. */
  static boolean oneOff(String option) {
    return option.equals("--restore-from");
  }

  /**
   * Applies these options to {@code builder}, with the arguments that start the query again after a
   * schema change ({@code restart}, after the main class), the settings of {@code $FLINK_CONF_DIR}
   * when embedded, and the console's progress lines ({@code bounded}: a run that stops by itself,
   * whose backlog a terminal shows as a bar).
   */
  StreamingQueryBuilder applyTo(
      StreamingQueryBuilder builder, List<String> restart, boolean bounded) {
    return applyTo(builder, restart, bounded, restoreFrom);
  }

  /**
   * As {@link #applyTo(StreamingQueryBuilder, List, boolean)} for a further query of the run (an
   * availableNow stage of the demo), which has its own checkpoint location: {@code --restore-from}
   * names a snapshot of the first query, so it does not apply.
   */
  StreamingQueryBuilder applyToStage(StreamingQueryBuilder builder, List<String> restart) {
    return applyTo(builder, restart, true, null);
  }

  private StreamingQueryBuilder applyTo(
      StreamingQueryBuilder builder, List<String> restart, boolean bounded, String restoreFrom) {
    StateBackendSettings state =
        StateBackendSettings.defaults()
            .withBackend(StateBackendSettings.Backend.parse(stateBackend))
            .withChangelog(changelog);
    progressListeners().forEach(builder::listener);
    failWhen.stream().map(ObservedMetricThreshold::parse).forEach(builder::listener);
    return builder
        .stateBackend(state)
        .parallelism(parallelism)
        .restoreFrom(restoreFrom)
        .restartOnSchemaChange(
            restartOnSchemaChange
                ? new SchemaChangeRestarts(true, maxSchemaRestartsPerHour)
                : SchemaChangeRestarts.off())
        .programArguments(LakestreamCli.class.getName(), restart)
        .flinkConfiguration(RunCommand.flinkConfDir())
        .listener(QueryConsole.progressPrinter(bounded));
  }

  /**
   * The Kafka progress listener, if {@code --progress-topic} asks for one.
   *
   * @throws IllegalArgumentException for --progress-kafka without --progress-topic, or the reverse
   */
  private List<QueryListener> progressListeners() {
    if (progressTopic == null) {
      if (!progressKafka.isEmpty()) {
        throw new IllegalArgumentException(
            "--progress-kafka is given without --progress-topic: name the topic the progress"
                + " events go to");
      }
      return List.of();
    }
    return List.of(KafkaProgressListener.to(progressTopic, progressKafka));
  }
}
