package io.lakestream.connectors.delta.cdf.source;

import java.time.Duration;
import java.util.List;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.MemorySize;

/**
 * The Delta change data feed source's options, named as in Spark's {@code
 * spark.readStream.format("delta").option("readChangeFeed", "true").option(...)}.
 */
public final class DeltaCdfSourceOptions {
  private DeltaCdfSourceOptions() {}

  public static final ConfigOption<Boolean> READ_CHANGE_FEED =
      ConfigOptions.key("readChangeFeed")
          .booleanType()
          .defaultValue(true)
          .withDescription(
              "Accepted for Spark compatibility; this source always reads the change data feed,"
                  + " so it must be true (use the Delta source for a plain read).");

  public static final ConfigOption<String> STARTING_VERSION =
      ConfigOptions.key("startingVersion")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "Version whose changes are read first (inclusive), or 'latest' for only versions"
                  + " committed after the query starts. Without it, as in Spark, the table's"
                  + " latest snapshot is read first (every row as an 'insert' of that version),"
                  + " then the changes of every later version. Applies to a new query only: a"
                  + " restored query continues from its checkpoint.");

  public static final ConfigOption<Integer> MAX_FILES_PER_TRIGGER =
      ConfigOptions.key("maxFilesPerTrigger")
          .intType()
          .defaultValue(1000)
          .withDescription("At most this many change files are admitted per epoch (>= 1).");

  public static final ConfigOption<MemorySize> MAX_BYTES_PER_TRIGGER =
      ConfigOptions.key("maxBytesPerTrigger")
          .memoryType()
          .noDefaultValue()
          .withDescription(
              "Soft limit of change file bytes admitted per epoch (the file that crosses it is"
                  + " still admitted), e.g. '512m'. With maxFilesPerTrigger, whichever is hit"
                  + " first ends the epoch's admission.");

  public static final ConfigOption<Duration> POLL_INTERVAL =
      ConfigOptions.key("pollInterval")
          .durationType()
          .defaultValue(Duration.ofSeconds(1))
          .withDescription("How often the Delta log is checked for new versions.");

  /** Every option, for validation messages. */
  public static List<ConfigOption<?>> all() {
    return List.of(
        READ_CHANGE_FEED,
        STARTING_VERSION,
        MAX_FILES_PER_TRIGGER,
        MAX_BYTES_PER_TRIGGER,
        POLL_INTERVAL);
  }
}
