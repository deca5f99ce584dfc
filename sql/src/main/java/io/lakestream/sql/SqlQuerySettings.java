package io.lakestream.sql;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.connectors.options.Option;
import io.lakestream.connectors.options.OptionValues;
import io.lakestream.connectors.options.OptionsCatalog;
import io.lakestream.runtime.StreamingQueryBuilder;
import io.lakestream.runtime.Trigger;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The settings of the query a SQL script runs as, written in the script as {@code SET
 * 'lakestream.trigger' = 'availableNow'}: the trigger, the checkpoint location and the query name
 * that Java code gives {@link StreamingQueryBuilder}. They are not table settings and never reach
 * Flink's table configuration. Keys ignore case; an unknown {@code lakestream.*} key fails with
 * {@code UNKNOWN_OPTION} naming the closest one, and a trigger is parsed as {@code --trigger} is
 * ({@link Trigger#parse}: {@code continuous} is refused, pointing to {@code realTime}). On the
 * command line of {@code lakestream sql}, {@code --trigger}, {@code --checkpoint-location}, {@code
 * --name} and {@code -D lakestream.<key>=<value>} win over the script. See {@code
 * docs/options/sql-query.md}.
 */
@PublicEvolving
public final class SqlQuerySettings {
  /** The prefix of every query setting. */
  public static final String PREFIX = "lakestream.";

  /** When the query commits. */
  public static final Option<String> TRIGGER =
      Option.key("lakestream.trigger")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "When the query commits, as lakestream's --trigger: "
                  + Trigger.FORMS
                  + ". continuous is refused: use realTime. Default: no trigger (commits as often"
                  + " as possible, a prototyping setting that warns).");

  /** The query's checkpoint location. */
  public static final Option<String> CHECKPOINT_LOCATION =
      Option.key("lakestream.checkpointLocation")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "The query's checkpoint location: a local path or a URI such as"
                  + " s3://bucket/_checkpoints/orders_silver, one per query. Required (here or on"
                  + " the command line). It holds the query's state, epochs and plan: a restart"
                  + " resumes from it, and a change the restart matrix forbids is refused before"
                  + " anything runs.");

  /** The query's name. */
  public static final Option<String> QUERY_NAME =
      Option.key("lakestream.queryName")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "The query's name (letters, digits, '_', '.', '-'), the Flink job's name. Default"
                  + " for lakestream sql: the script's file name without its extension.");

  /** Every query setting. */
  public static final OptionsCatalog CATALOG =
      OptionsCatalog.builder("sql-query", "SQL query")
          .summary(
              "The query a SQL script runs as (`lakestream sql -f <file>`, or"
                  + " `SqlDataflow.queryBuilder()`), set in the script with `SET 'key' = 'value'`."
                  + " They never reach Flink's table configuration; the command line's"
                  + " `--trigger`, `--checkpoint-location`, `--name` and `-D key=value` win over"
                  + " the script.")
          .options(TRIGGER, CHECKPOINT_LOCATION, QUERY_NAME)
          .build();

  private SqlQuerySettings() {}

  /** Whether {@code key} names a query setting rather than a table setting. */
  public static boolean isQuerySetting(String key) {
    return key.strip().toLowerCase(Locale.ROOT).startsWith(PREFIX);
  }

  /**
   * The declared spelling of a query setting, its value checked (a trigger must parse).
   *
   * @throws io.lakestream.api.error.LakestreamException for an unknown key ({@code UNKNOWN_OPTION})
   *     or a trigger that does not parse ({@code QUERY_INVALID_TRIGGER}, {@code
   *     QUERY_UNSUPPORTED_TRIGGER})
   */
  static String canonicalKey(String key, String value) {
    OptionValues values = CATALOG.validate(Map.of(key.strip(), value));
    values.getOptional(TRIGGER).ifPresent(Trigger::parse);
    return CATALOG.find(key.strip()).orElseThrow().key();
  }

  /** Applies {@code settings} (canonical keys) to {@code builder}. */
  static StreamingQueryBuilder applyTo(
      Map<String, String> settings, StreamingQueryBuilder builder) {
    value(settings, QUERY_NAME).ifPresent(builder::queryName);
    value(settings, CHECKPOINT_LOCATION).ifPresent(builder::checkpointLocation);
    value(settings, TRIGGER).ifPresent(t -> builder.trigger(Trigger.parse(t)));
    return builder;
  }

  static Optional<String> value(Map<String, String> settings, Option<String> option) {
    return Optional.ofNullable(settings.get(option.key()));
  }
}
