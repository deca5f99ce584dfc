package io.lakestream.connectors.delta.cdf.source;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.connectors.delta.source.DeltaSourceOptions;
import io.lakestream.connectors.delta.source.DeltaStreamOptions;
import io.lakestream.connectors.options.Option;
import io.lakestream.connectors.options.OptionRule;
import io.lakestream.connectors.options.OptionsCatalog;
import java.time.Duration;
import java.util.List;

/**
 * The Delta change data feed source's options, named as in Spark's {@code
 * spark.readStream.format("delta").option("readChangeFeed", "true").option(...)}. {@link #CATALOG}
 * checks them (keys ignore case); see {@code docs/options/delta-cdf-source.md}.
 */
@PublicEvolving
public final class DeltaCdfSourceOptions {
  private DeltaCdfSourceOptions() {}

  public static final Option<Boolean> READ_CHANGE_FEED =
      Option.key("readChangeFeed")
          .booleanType()
          .defaultValue(true)
          .withDescription(
              "Accepted for Spark compatibility; this source always reads the change data feed,"
                  + " so it must be true (use the Delta source for a plain read).");

  public static final Option<String> STARTING_VERSION =
      DeltaStreamOptions.startingVersion(
          "Version whose changes are read first (inclusive), or 'latest' for only versions"
              + " committed after the query starts. Without it, as in Spark, the table's"
              + " latest snapshot is read first (every row as an 'insert' of that version),"
              + " then the changes of every later version. Applies to a new query only: a"
              + " restored query continues from its checkpoint.");

  public static final Option<String> STARTING_TIMESTAMP =
      DeltaStreamOptions.startingTimestamp("the changes of each version");

  public static final Option<Integer> MAX_FILES_PER_TRIGGER =
      DeltaStreamOptions.maxFilesPerTrigger("change files");

  public static final Option<Long> MAX_BYTES_PER_TRIGGER =
      DeltaStreamOptions.maxBytesPerTrigger("change file");

  public static final Option<Duration> POLL_INTERVAL = DeltaStreamOptions.pollInterval();

  /** As the Delta source's: a renamed column is followed from the version that renamed it. */
  public static final Option<Boolean> ALLOW_SOURCE_COLUMN_RENAME =
      DeltaSourceOptions.ALLOW_SOURCE_COLUMN_RENAME;

  /** As the Delta source's: a dropped column is followed from the version that dropped it. */
  public static final Option<Boolean> ALLOW_SOURCE_COLUMN_DROP =
      DeltaSourceOptions.ALLOW_SOURCE_COLUMN_DROP;

  /** Every option of the Delta CDF source. */
  public static final OptionsCatalog CATALOG =
      OptionsCatalog.builder("delta-cdf-source", "Delta CDF source")
          .summary(
              "Options of `DeltaCdfSourceBuilder.option(key, value)`, named as in Spark's change"
                  + " data feed read (`spark.readStream.format(\"delta\")"
                  + ".option(\"readChangeFeed\", \"true\")`).")
          .options(all())
          .rule(OptionRule.atMostOneOf(STARTING_VERSION, STARTING_TIMESTAMP))
          .build();

  /** Every option, in the reference's order. */
  public static List<Option<?>> all() {
    return List.of(
        READ_CHANGE_FEED,
        STARTING_VERSION,
        STARTING_TIMESTAMP,
        MAX_FILES_PER_TRIGGER,
        MAX_BYTES_PER_TRIGGER,
        POLL_INTERVAL,
        ALLOW_SOURCE_COLUMN_RENAME,
        ALLOW_SOURCE_COLUMN_DROP);
  }
}
