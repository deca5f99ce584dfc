package io.lakestream.connectors.delta.source;

import java.time.Duration;
import java.util.List;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.MemorySize;

/**
 * The Delta source's options, named as in Spark's Delta streaming source ({@code
 * spark.readStream.format("delta").option(...)}), plus {@code versionAsOf}/{@code timestampAsOf}
 * for a bounded (batch) read of one version.
 */
public final class DeltaSourceOptions {
  private DeltaSourceOptions() {}

  public static final ConfigOption<String> STARTING_VERSION =
      ConfigOptions.key("startingVersion")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "Version to start reading changes from (inclusive), or 'latest' for only versions"
                  + " committed after the query starts. Without it, the table's current snapshot"
                  + " is read first, then every later version. Applies to a new query only.");

  public static final ConfigOption<Integer> MAX_FILES_PER_TRIGGER =
      ConfigOptions.key("maxFilesPerTrigger")
          .intType()
          .defaultValue(1000)
          .withDescription("At most this many data files are admitted per epoch (>= 1).");

  public static final ConfigOption<MemorySize> MAX_BYTES_PER_TRIGGER =
      ConfigOptions.key("maxBytesPerTrigger")
          .memoryType()
          .noDefaultValue()
          .withDescription(
              "Soft limit of data file bytes admitted per epoch (the file that crosses it is"
                  + " still admitted), e.g. '512m'. With maxFilesPerTrigger, whichever is hit"
                  + " first ends the epoch's admission.");

  public static final ConfigOption<Boolean> SKIP_CHANGE_COMMITS =
      ConfigOptions.key("skipChangeCommits")
          .booleanType()
          .defaultValue(false)
          .withDescription(
              "Skip versions that remove or rewrite existing data (DELETE, UPDATE, MERGE,"
                  + " overwrite) entirely, including the rows they add. Without it such a version"
                  + " fails the query.");

  public static final ConfigOption<Boolean> IGNORE_DELETES =
      ConfigOptions.key("ignoreDeletes")
          .booleanType()
          .defaultValue(false)
          .withDescription(
              "Skip versions that only delete data (no added data files), e.g. dropping old"
                  + " partitions; versions that delete and add still fail.");

  public static final ConfigOption<Duration> POLL_INTERVAL =
      ConfigOptions.key("pollInterval")
          .durationType()
          .defaultValue(Duration.ofSeconds(1))
          .withDescription("How often the Delta log is checked for new versions.");

  public static final ConfigOption<Long> VERSION_AS_OF =
      ConfigOptions.key("versionAsOf")
          .longType()
          .noDefaultValue()
          .withDescription("Bounded read of exactly this table version (time travel).");

  public static final ConfigOption<String> TIMESTAMP_AS_OF =
      ConfigOptions.key("timestampAsOf")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "Bounded read of the latest version committed at or before this instant (ISO-8601,"
                  + " e.g. 2024-05-01T10:00:00Z).");

  /** Every option, for validation messages. */
  public static List<ConfigOption<?>> all() {
    return List.of(
        STARTING_VERSION,
        MAX_FILES_PER_TRIGGER,
        MAX_BYTES_PER_TRIGGER,
        SKIP_CHANGE_COMMITS,
        IGNORE_DELETES,
        POLL_INTERVAL,
        VERSION_AS_OF,
        TIMESTAMP_AS_OF);
  }
}
