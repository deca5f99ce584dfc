package io.lakestream.connectors.delta.source;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.connectors.options.Option;
import io.lakestream.connectors.options.OptionRule;
import io.lakestream.connectors.options.OptionsCatalog;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;

/**
 * The Delta source's options, named as in Spark's Delta streaming source ({@code
 * spark.readStream.format("delta").option(...)}), plus {@code versionAsOf}/{@code timestampAsOf}
 * for a bounded (batch) read of one version. {@link #CATALOG} checks them (keys ignore case); see
 * {@code docs/options/delta-source.md}.
 */
@PublicEvolving
public final class DeltaSourceOptions {
  private DeltaSourceOptions() {}

  public static final Option<String> STARTING_VERSION =
      DeltaStreamOptions.startingVersion(
          "Version to start reading changes from (inclusive), or 'latest' for only versions"
              + " committed after the query starts. Without it, the table's current snapshot"
              + " is read first, then every later version. Applies to a new query only.");

  public static final Option<String> STARTING_TIMESTAMP =
      DeltaStreamOptions.startingTimestamp("the files each version adds");

  public static final Option<Integer> MAX_FILES_PER_TRIGGER =
      DeltaStreamOptions.maxFilesPerTrigger("data files");

  public static final Option<Long> MAX_BYTES_PER_TRIGGER =
      DeltaStreamOptions.maxBytesPerTrigger("data file");

  public static final Option<Boolean> SKIP_CHANGE_COMMITS =
      Option.key("skipChangeCommits")
          .booleanType()
          .defaultValue(false)
          .withDescription(
              "Skip versions that remove or rewrite existing data (DELETE, UPDATE, MERGE,"
                  + " overwrite) entirely, including the rows they add. Without it such a version"
                  + " fails the query.");

  public static final Option<Boolean> IGNORE_DELETES =
      Option.key("ignoreDeletes")
          .booleanType()
          .defaultValue(false)
          .withDescription(
              "Skip versions that only delete data (no added data files), e.g. dropping old"
                  + " partitions; versions that delete and add still fail.");

  public static final Option<Duration> POLL_INTERVAL = DeltaStreamOptions.pollInterval();

  public static final Option<Boolean> ALLOW_SOURCE_COLUMN_RENAME =
      Option.key("allowSourceColumnRename")
          .booleanType()
          .defaultValue(false)
          .withDescription(
              "Follow a column renamed on the table (a table with column mapping, e.g. ALTER"
                  + " TABLE ... RENAME COLUMN): the query stops at the version that renamed it and"
                  + " restarts by itself from its checkpoint with the new name, reading every file"
                  + " by the column's physical name (Databricks' allowSourceColumnRename). Without"
                  + " it such a version stops the query with DELTA_SCHEMA_CHANGED.");

  public static final Option<Boolean> ALLOW_SOURCE_COLUMN_DROP =
      Option.key("allowSourceColumnDrop")
          .booleanType()
          .defaultValue(false)
          .withDescription(
              "Follow a column dropped from the table (a table with column mapping, e.g. ALTER"
                  + " TABLE ... DROP COLUMN): the query stops at the version that dropped it and"
                  + " restarts by itself from its checkpoint without the column (Databricks'"
                  + " allowSourceColumnDrop). Without it such a version stops the query with"
                  + " DELTA_SCHEMA_CHANGED.");

  public static final Option<Long> VERSION_AS_OF =
      Option.key("versionAsOf")
          .longType()
          .noDefaultValue()
          .atLeast(0)
          .withDescription("Bounded read of exactly this table version (time travel).");

  public static final Option<String> TIMESTAMP_AS_OF =
      Option.key("timestampAsOf")
          .stringType()
          .noDefaultValue()
          .check(
              DeltaSourceOptions::isInstant, "be an ISO-8601 instant such as 2024-05-01T10:00:00Z")
          .withDescription(
              "Bounded read of the latest version committed at or before this instant (ISO-8601,"
                  + " e.g. 2024-05-01T10:00:00Z).");

  /** Every option of the Delta source, and its rules. */
  public static final OptionsCatalog CATALOG =
      OptionsCatalog.builder("delta-source", "Delta source")
          .summary(
              "Options of `DeltaSourceBuilder.option(key, value)`, named as in Spark's Delta"
                  + " streaming source (`spark.readStream.format(\"delta\").option(...)`)."
                  + " Besides options, `columns(...)` reads only the chosen columns and"
                  + " `filter(DeltaFilter)` skips the data files none of whose rows can match, by"
                  + " partition values and file statistics (the source's progress metrics"
                  + " numFilesAdmitted and numFilesSkipped count them).")
          .options(all())
          .rule(OptionRule.atMostOneOf(VERSION_AS_OF, TIMESTAMP_AS_OF))
          .rule(OptionRule.atMostOneOf(STARTING_VERSION, STARTING_TIMESTAMP))
          .rule(
              OptionRule.of(
                  "`startingVersion` and `startingTimestamp` are for streaming reads: not with"
                      + " `versionAsOf` or `timestampAsOf`.",
                  values -> {
                    if ((values.contains(STARTING_VERSION) || values.contains(STARTING_TIMESTAMP))
                        && (values.contains(VERSION_AS_OF) || values.contains(TIMESTAMP_AS_OF))) {
                      throw values
                          .catalog()
                          .conflict(
                              "options startingVersion and startingTimestamp are for streaming"
                                  + " reads; versionAsOf/timestampAsOf make a bounded read of one"
                                  + " version. Set only one of them.");
                    }
                  }))
          .build();

  /** Every option, in the reference's order. */
  public static List<Option<?>> all() {
    return List.of(
        STARTING_VERSION,
        STARTING_TIMESTAMP,
        MAX_FILES_PER_TRIGGER,
        MAX_BYTES_PER_TRIGGER,
        SKIP_CHANGE_COMMITS,
        IGNORE_DELETES,
        ALLOW_SOURCE_COLUMN_RENAME,
        ALLOW_SOURCE_COLUMN_DROP,
        POLL_INTERVAL,
        VERSION_AS_OF,
        TIMESTAMP_AS_OF);
  }

  private static boolean isInstant(String text) {
    try {
      Instant.parse(text);
      return true;
    } catch (DateTimeParseException e) {
      return false;
    }
  }
}
