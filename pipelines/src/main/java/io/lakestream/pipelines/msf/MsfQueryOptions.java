package io.lakestream.pipelines.msf;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.options.Option;
import io.lakestream.connectors.options.OptionValues;
import io.lakestream.connectors.options.OptionsCatalog;
import io.lakestream.pipelines.PipelineErrorClass;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The keys of the {@value MsfApplication#QUERY_GROUP} property group: what {@code lakestream run}
 * takes as arguments, one key per option (named as the option without its dashes). Validated by the
 * options catalog (keys ignore case; an unknown key fails with {@code UNKNOWN_OPTION} naming the
 * closest valid key and listing all), then turned into the arguments of {@code lakestream run}
 * ({@link #runArguments}), which checks them once more as on the command line.
 *
 * <p>The settings the service owns are no keys: {@code restore-from}, {@code state-backend} and
 * {@code changelog} fail with {@code MSF_INVALID_PROPERTIES} naming the service setting to use.
 */
@PublicEvolving
public final class MsfQueryOptions {

  public static final Option<String> PIPELINE =
      Option.key("pipeline")
          .stringType()
          .required()
          .withDescription("The pipeline to run (demo, bronze, silver, gold, ...).");

  public static final Option<String> OUTPUT =
      Option.key("output")
          .stringType()
          .required()
          .withDescription("Where the pipeline writes its tables, e.g. s3a://lake/lakehouse.");

  public static final Option<String> CHECKPOINT =
      Option.key("checkpoint")
          .stringType()
          .noDefaultValue()
          .withDefaultText("<output>/_checkpoints/<query>")
          .withAliases("checkpointLocation")
          .withDescription(
              "The query's checkpoint location (metadata, lock, offsets/, commits/, progress/);"
                  + " Flink's checkpoints stay where the service keeps them.");

  public static final Option<String> QUERY_NAME =
      Option.key("query-name")
          .stringType()
          .noDefaultValue()
          .withDefaultText("the pipeline name")
          .withAliases("queryName")
          .withDescription("The query name.");

  public static final Option<String> OUTPUT_MODE =
      Option.key("output-mode")
          .choiceType("append", "update", "complete")
          .defaultValue("append")
          .withAliases("outputMode")
          .withDescription("The output mode.");

  public static final Option<String> TRIGGER =
      Option.key("trigger")
          .stringType()
          .noDefaultValue()
          .withDefaultText("processingTime=<the service's CheckpointInterval>")
          .withDescription(
              "processingTime=<interval>, which must equal the application's CheckpointInterval:"
                  + " the service decides when checkpoints, and so epochs, happen.");

  public static final Option<Integer> PARALLELISM =
      Option.key("parallelism")
          .intType()
          .noDefaultValue()
          .withDefaultText("the service's parallelism (parallelism.default)")
          .atLeast(1)
          .withDescription("Job parallelism.");

  public static final Option<Long> ROWS =
      Option.key("rows")
          .longType()
          .defaultValue(0L)
          .atLeast(0)
          .withDescription("Generated sources: rows available in total (0 = pipeline default).");

  public static final Option<Long> ROWS_PER_SECOND =
      Option.key("rows-per-second")
          .longType()
          .defaultValue(2000L)
          .atLeast(0)
          .withDescription("Generated sources: rows per second (0 = unlimited).");

  public static final Option<Long> MAX_ROWS_PER_TRIGGER =
      Option.key("max-rows-per-trigger")
          .longType()
          .defaultValue(0L)
          .atLeast(0)
          .withDescription("Generated sources: at most this many rows per epoch (0 = no limit).");

  /** Every key of the group. */
  public static final List<Option<?>> ALL =
      List.of(
          PIPELINE,
          OUTPUT,
          CHECKPOINT,
          QUERY_NAME,
          OUTPUT_MODE,
          TRIGGER,
          PARALLELISM,
          ROWS,
          ROWS_PER_SECOND,
          MAX_ROWS_PER_TRIGGER);

  /** The catalog of the group's keys. */
  public static final OptionsCatalog CATALOG =
      OptionsCatalog.builder("msf-query", "MSF property group 'lakestream'")
          .summary(
              "Keys of the `lakestream` runtime property group of a Managed Service for Apache"
                  + " Flink application: the arguments of `lakestream run`.")
          .options(ALL)
          .build();

  /** Keys of `lakestream run` that the service owns, and what to use instead. */
  private static final Map<String, String> SERVICE_OWNED =
      Map.of(
          "restore-from",
          "the service restores its snapshots: use ApplicationRestoreConfiguration"
              + " (RESTORE_FROM_CUSTOM_SNAPSHOT) when starting or updating the application",
          "state-backend",
          "the service runs RocksDB",
          "changelog",
          "the service owns the state storage");

  private MsfQueryOptions() {}

  /**
   * Checks the group's keys and values.
   *
   * @throws LakestreamException for an unknown key (listing the valid ones), a bad value, a missing
   *     pipeline or output, or a setting the service owns
   */
  public static OptionValues validate(Map<String, String> group) {
    for (String key : group.keySet()) {
      String owned = SERVICE_OWNED.get(key.trim().toLowerCase(Locale.ROOT));
      if (owned != null) {
        throw new LakestreamException(
            PipelineErrorClass.MSF_INVALID_PROPERTIES,
            "MSF property group '"
                + MsfApplication.QUERY_GROUP
                + "' cannot set "
                + key
                + ": "
                + owned);
      }
    }
    return CATALOG.validate(group, "in property group '" + MsfApplication.QUERY_GROUP + "'");
  }

  /**
   * The arguments of {@code lakestream run} for {@code values} and the source options, e.g. {@code
   * run demo --output s3a://lake --trigger processingTime=60s -o k=v}.
   *
   * @param defaultTrigger the trigger when the group names none (the service's interval)
   * @param defaultParallelism the parallelism when the group names none; null for the CLI's
   */
  static List<String> runArguments(
      OptionValues values,
      Map<String, String> sourceOptions,
      String defaultTrigger,
      Integer defaultParallelism) {
    List<String> args = new ArrayList<>(List.of("run", values.get(PIPELINE)));
    add(args, "--output", values.get(OUTPUT));
    add(args, "--checkpoint", values.get(CHECKPOINT));
    add(args, "--query-name", values.get(QUERY_NAME));
    add(args, "--output-mode", values.get(OUTPUT_MODE));
    add(args, "--trigger", values.getOptional(TRIGGER).orElse(defaultTrigger));
    add(args, "--parallelism", values.getOptional(PARALLELISM).orElse(defaultParallelism));
    add(args, "--rows", values.get(ROWS));
    add(args, "--rows-per-second", values.get(ROWS_PER_SECOND));
    add(args, "--max-rows-per-trigger", values.get(MAX_ROWS_PER_TRIGGER));
    sourceOptions.forEach((key, value) -> add(args, "-o", key + "=" + value));
    return args;
  }

  private static void add(List<String> args, String option, Object value) {
    if (value != null) {
      args.add(option);
      args.add(value.toString());
    }
  }
}
