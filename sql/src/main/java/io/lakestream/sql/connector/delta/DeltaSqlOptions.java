package io.lakestream.sql.connector.delta;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.connectors.delta.cdf.source.DeltaCdfSourceOptions;
import io.lakestream.connectors.delta.sink.DeltaSinkOptions;
import io.lakestream.connectors.delta.source.DeltaSourceOptions;
import io.lakestream.connectors.options.Option;
import io.lakestream.connectors.options.OptionErrorClass;
import io.lakestream.connectors.options.OptionRule;
import io.lakestream.connectors.options.OptionValues;
import io.lakestream.connectors.options.OptionsCatalog;
import io.lakestream.connectors.options.PassThrough;
import java.util.ArrayList;
import java.util.List;

/**
 * The options of a {@code 'connector' = 'delta'} table in Flink SQL: the table's {@code path}, the
 * Delta source's and sink's options under their Spark names (a source reads the first, a sink the
 * second; keys ignore case), Hadoop settings for the table's file system ({@code hadoop.*}) and the
 * table properties a sink sets when it creates the table ({@code delta.*}). {@link #CATALOG} checks
 * them when the planner creates the table, so an unknown or mistyped option fails the statement,
 * listing the valid ones; see {@code docs/options/sql-delta.md}.
 */
@PublicEvolving
public final class DeltaSqlOptions {
  /** The table's location. */
  public static final Option<String> PATH =
      Option.key("path")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "The Delta table's location: a local path or a URI such as s3a://bucket/lake/orders."
                  + " Required (a table of a Delta catalog has it from the catalog).");

  /** The last version of a bounded change data feed read. */
  public static final Option<Long> ENDING_VERSION =
      Option.key("endingVersion")
          .longType()
          .noDefaultValue()
          .atLeast(0)
          .withDescription(
              "With 'readChangeFeed' = 'true' and 'startingVersion': a bounded (batch) read of"
                  + " the change rows of versions startingVersion..endingVersion (inclusive), as"
                  + " Spark's batch readChangeFeed read and table_changes(table, start, end) return"
                  + " them: insert-only rows with _change_type, _commit_version and"
                  + " _commit_timestamp, then the read ends. Must not be below startingVersion nor"
                  + " above the table's latest version, and the change data feed must be enabled"
                  + " at every version of the range.");

  /** The Hadoop settings' prefix. */
  public static final String HADOOP_PREFIX = "hadoop.";

  /** The table properties' prefix. */
  public static final String DELTA_PROPERTY_PREFIX = "delta.";

  /** Every option of a Delta table in Flink SQL. */
  public static final OptionsCatalog CATALOG =
      OptionsCatalog.builder("sql-delta", "Delta table in Flink SQL")
          .label("Delta table")
          .summary(
              "Options of `CREATE TABLE ... WITH ('connector' = 'delta', ...)`: the Delta"
                  + " source's options when the table is read, the Delta sink's when it is"
                  + " written, under Spark's names (keys ignore case). A read takes only the"
                  + " columns the query uses and skips the data files the query's filters cannot"
                  + " match (comparisons of a column with a literal, IN, IS [NOT] NULL, AND, OR),"
                  + " by partition values and file statistics.")
          .options(all())
          .rule(
              OptionRule.of(
                  "`endingVersion` needs `readChangeFeed` = true and a numeric `startingVersion`"
                      + " not above it; no streaming options (`startingTimestamp`,"
                      + " `maxFilesPerTrigger`, `maxBytesPerTrigger`, `pollInterval`) with it.",
                  DeltaSqlOptions::checkEndingVersion))
          .passThrough(
              PassThrough.prefix(
                  HADOOP_PREFIX,
                  "Hadoop settings of the table's file system, without the prefix, e.g."
                      + " hadoop.fs.s3a.endpoint"))
          .passThrough(
              PassThrough.prefix(
                  DELTA_PROPERTY_PREFIX,
                  "table properties set when the sink creates the table, e.g."
                      + " delta.enableChangeDataFeed = true"))
          .build();

  private DeltaSqlOptions() {}

  /** The rule of {@link #ENDING_VERSION}: a bounded change data feed read of a version range. */
  private static void checkEndingVersion(OptionValues values) {
    if (!values.contains(ENDING_VERSION)) {
      return;
    }
    long end = values.get(ENDING_VERSION);
    if (!values.contains(DeltaCdfSourceOptions.READ_CHANGE_FEED)
        || !values.get(DeltaCdfSourceOptions.READ_CHANGE_FEED)) {
      throw values
          .catalog()
          .failure(
              OptionErrorClass.CONFLICTING_OPTIONS,
              ENDING_VERSION.key(),
              "option endingVersion bounds a change data feed read: set 'readChangeFeed' = 'true'"
                  + " (or use versionAsOf for a bounded read of one version of the table)");
    }
    for (Option<?> streaming :
        List.of(
            DeltaSourceOptions.STARTING_TIMESTAMP,
            DeltaSourceOptions.MAX_FILES_PER_TRIGGER,
            DeltaSourceOptions.MAX_BYTES_PER_TRIGGER,
            DeltaSourceOptions.POLL_INTERVAL)) {
      if (values.contains(streaming)) {
        throw values
            .catalog()
            .conflict(
                "option "
                    + streaming.key()
                    + " is for a streaming read; endingVersion makes a bounded read of versions"
                    + " startingVersion..endingVersion: remove one of them");
      }
    }
    String start = values.getOptional(DeltaSourceOptions.STARTING_VERSION).orElse(null);
    if (start == null || start.trim().equalsIgnoreCase("latest")) {
      throw values
          .catalog()
          .failure(
              OptionErrorClass.MISSING_OPTION,
              DeltaSourceOptions.STARTING_VERSION.key(),
              "option endingVersion ("
                  + end
                  + ") needs startingVersion, the first version of the range (a version number,"
                  + " as table_changes(table, start, end) does)");
    }
    if (Long.parseLong(start.trim()) > end) {
      throw values
          .catalog()
          .failure(
              OptionErrorClass.CONFLICTING_OPTIONS,
              ENDING_VERSION.key(),
              "option endingVersion ("
                  + end
                  + ") is below startingVersion ("
                  + start.trim()
                  + "): the range startingVersion..endingVersion is inclusive and must not be"
                  + " empty");
    }
  }

  /** Every option, in the reference's order. */
  public static List<Option<?>> all() {
    List<Option<?>> all = new ArrayList<>();
    all.add(PATH);
    all.addAll(DeltaSourceOptions.all());
    all.add(DeltaCdfSourceOptions.READ_CHANGE_FEED);
    all.add(ENDING_VERSION);
    all.addAll(DeltaSinkOptions.ALL);
    return List.copyOf(all);
  }
}
