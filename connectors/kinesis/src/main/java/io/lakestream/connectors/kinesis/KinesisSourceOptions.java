package io.lakestream.connectors.kinesis;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.connectors.options.Option;
import io.lakestream.connectors.options.OptionValues;
import io.lakestream.connectors.options.OptionsCatalog;
import java.net.URI;
import java.text.ParseException;
import java.text.SimpleDateFormat;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Kinesis source's options, named as Databricks' {@code kinesis} source names them, declared in
 * {@link #CATALOG} (keys ignore case; reference {@code docs/options/kinesis-source.md}). {@link
 * #parse} validates them all before anything connects: unknown, missing, malformed and conflicting
 * options fail with the catalog's error classes, naming the option. {@code awsSecretKey} is a
 * secret: never shown in errors, logs or {@link KinesisSourceConfig#toString()}.
 */
@PublicEvolving
public final class KinesisSourceOptions {

  public static final Option<String> STREAM_NAME =
      Option.key("streamName")
          .stringType()
          .required()
          .withDescription("The Kinesis data stream to read.");

  public static final Option<String> REGION =
      Option.key("region")
          .stringType()
          .required()
          .withDescription("The AWS region of the stream, e.g. us-east-1.");

  public static final Option<String> INITIAL_POSITION =
      Option.key("initialPosition")
          .stringType()
          .defaultValue("latest")
          .withDescription(
              "Where a new query starts reading each shard: latest, trim_horizon (or earliest,"
                  + " the same), or as in Databricks a JSON {\"at_timestamp\": \"06/25/2026 10:23:45"
                  + " PDT\", \"format\": \"MM/dd/yyyy HH:mm:ss ZZZ\"} (a java.text.SimpleDateFormat"
                  + " pattern; without format an ISO-8601 instant). Only used for shards without a checkpointed position;"
                  + " shards created by a reshard are always read from their start.");

  public static final Option<Integer> MAX_RECORDS_PER_FETCH =
      Option.key("maxRecordsPerFetch")
          .intType()
          .defaultValue(10000)
          .atLeast(1)
          .check(n -> n <= 10000, "be at most 10000 (Kinesis' GetRecords limit)")
          .withDescription("Records asked for per GetRecords call (at most 10000).");

  public static final Option<Duration> SHARD_FETCH_INTERVAL =
      Option.key("shardFetchInterval")
          .durationType()
          .defaultValue(Duration.ofSeconds(1))
          .withDescription("How often the shards are listed to find new shards after a reshard.");

  public static final Option<Duration> MIN_FETCH_PERIOD =
      Option.key("minFetchPeriod")
          .durationType()
          .defaultValue(Duration.ofMillis(400))
          .withDescription(
              "The least time between two GetRecords calls on a shard that returned no records"
                  + " (Kinesis allows 5 calls per second per shard).");

  public static final Option<Long> MAX_RECORDS_PER_EPOCH =
      Option.key("maxRecordsPerEpoch")
          .longType()
          .noDefaultValue()
          .atLeast(1)
          .withDescription(
              "lakestream: at most this many records per reader between two checkpoints (a"
                  + " per-epoch rate limit); unlimited when not set.");

  public static final Option<String> ENDPOINT =
      Option.key("endpoint")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "The Kinesis endpoint URL, e.g. https://kinesis.us-east-1.amazonaws.com or a local"
                  + " Kinesis implementation; by default the region's.");

  public static final Option<String> AWS_ACCESS_KEY =
      Option.key("awsAccessKey")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "The access key id; with awsSecretKey. Without both, the AWS default credentials"
                  + " chain (environment, profile, instance role) is used.");

  public static final Option<String> AWS_SECRET_KEY =
      Option.key("awsSecretKey")
          .stringType()
          .noDefaultValue()
          .secret()
          .withDescription("The secret access key; with awsAccessKey. Never logged.");

  public static final Option<String> CONSUMER_MODE =
      Option.key("consumerMode")
          .choiceType("polling", "efo")
          .defaultValue("polling")
          .withDescription(
              "polling reads the shards with GetRecords; efo reads them through an enhanced"
                  + " fan-out consumer (SubscribeToShard, a dedicated 2 MB/s per shard over HTTP/2)."
                  + " Positions are the same in both modes: a query may switch across restarts.");

  public static final Option<String> CONSUMER_NAME =
      Option.key("consumerName")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "efo: the name of the consumer the query registers (prefixed lakestream_); by"
                  + " default the query id. Ignored with registeredConsumerId.");

  public static final Option<Boolean> REQUIRE_CONSUMER_DEREGISTRATION =
      Option.key("requireConsumerDeregistration")
          .booleanType()
          .defaultValue(false)
          .withDescription(
              "efo: deregister the consumer the query registered when the query stops (a"
                  + " registeredConsumerId is never deregistered).");

  public static final Option<String> REGISTERED_CONSUMER_ID =
      Option.key("registeredConsumerId")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "efo: use this existing consumer (its name or ARN, see registeredConsumerIdType)"
                  + " instead of registering one.");

  public static final Option<String> REGISTERED_CONSUMER_ID_TYPE =
      Option.key("registeredConsumerIdType")
          .choiceType("name", "arn")
          .defaultValue("name")
          .withDescription("efo: whether registeredConsumerId is a consumer name or an ARN.");

  /** Every option. */
  public static final List<Option<?>> ALL =
      List.of(
          STREAM_NAME,
          REGION,
          INITIAL_POSITION,
          MAX_RECORDS_PER_FETCH,
          SHARD_FETCH_INTERVAL,
          MIN_FETCH_PERIOD,
          MAX_RECORDS_PER_EPOCH,
          ENDPOINT,
          AWS_ACCESS_KEY,
          AWS_SECRET_KEY,
          CONSUMER_MODE,
          CONSUMER_NAME,
          REQUIRE_CONSUMER_DEREGISTRATION,
          REGISTERED_CONSUMER_ID,
          REGISTERED_CONSUMER_ID_TYPE);

  /** The catalog; errors are {@code InvalidOptionException}s of the catalog's classes. */
  public static final OptionsCatalog CATALOG =
      OptionsCatalog.builder("kinesis-source", "Kinesis source")
          .summary(
              "Options of the Kinesis Data Streams source, named as Databricks' `kinesis` source"
                  + " names them. Shards are read with GetRecords; positions are checkpointed per"
                  + " shard; after a reshard a child shard is read once its parents were read to"
                  + " their end.")
          .options(ALL)
          .build();

  private static final Pattern AT_TIMESTAMP =
      Pattern.compile(
          "\\{\\s*\"at_timestamp\"\\s*:\\s*\"([^\"]+)\"\\s*"
              + "(?:,\\s*\"format\"\\s*:\\s*\"([^\"]+)\"\\s*)?}");

  private static final Pattern CONSUMER_NAME_PATTERN = Pattern.compile("[a-zA-Z0-9_.-]{1,128}");

  private KinesisSourceOptions() {}

  /**
   * Validates {@code options} and resolves them.
   *
   * @throws io.lakestream.api.error.LakestreamException of an options error class naming the option
   */
  public static KinesisSourceConfig parse(Map<String, String> options) {
    OptionValues values = CATALOG.validate(options);
    if (values.contains(AWS_ACCESS_KEY) != values.contains(AWS_SECRET_KEY)) {
      throw CATALOG.conflict("needs both options awsAccessKey and awsSecretKey, or neither");
    }
    String endpoint = values.get(ENDPOINT);
    if (endpoint != null) {
      try {
        URI uri = URI.create(endpoint);
        if (uri.getScheme() == null || uri.getHost() == null) {
          throw new IllegalArgumentException("no scheme or host");
        }
      } catch (IllegalArgumentException e) {
        throw CATALOG.invalidValue(ENDPOINT, endpoint, "must be a URL like https://host:port");
      }
    }
    String position = values.get(INITIAL_POSITION).trim();
    Instant timestamp = null;
    String kind = position.toLowerCase(Locale.ROOT);
    if (kind.equals("earliest")) {
      kind = "trim_horizon";
    } else if (kind.startsWith("{")) {
      timestamp = timestamp(position);
      kind = "at_timestamp";
    } else if (!kind.equals("latest") && !kind.equals("trim_horizon")) {
      throw CATALOG.invalidValue(
          INITIAL_POSITION,
          position,
          "must be latest, trim_horizon, earliest or {\"at_timestamp\": \"<ISO-8601 instant>\"}");
    }
    return new KinesisSourceConfig(
        values.get(STREAM_NAME),
        values.get(REGION),
        kind,
        timestamp == null ? 0 : timestamp.toEpochMilli(),
        values.get(MAX_RECORDS_PER_FETCH),
        values.get(SHARD_FETCH_INTERVAL).toMillis(),
        values.get(MIN_FETCH_PERIOD).toMillis(),
        values.contains(MAX_RECORDS_PER_EPOCH) ? values.get(MAX_RECORDS_PER_EPOCH) : Long.MAX_VALUE,
        endpoint,
        values.get(AWS_ACCESS_KEY),
        values.get(AWS_SECRET_KEY),
        fanOut(values));
  }

  private static KinesisSourceConfig.FanOut fanOut(OptionValues values) {
    if (!values.get(CONSUMER_MODE).equals("efo")) {
      for (Option<?> efoOnly : List.of(CONSUMER_NAME, REGISTERED_CONSUMER_ID)) {
        if (values.contains(efoOnly)) {
          throw CATALOG.conflict(
              "option " + efoOnly.key() + " needs consumerMode efo (consumerMode is polling)");
        }
      }
      return null;
    }
    String name = values.get(CONSUMER_NAME);
    if (name != null
        && !CONSUMER_NAME_PATTERN.matcher(KinesisSourceConfig.FanOut.PREFIX + name).matches()) {
      throw CATALOG.invalidValue(
          CONSUMER_NAME,
          name,
          "must be letters, digits, _ . or - (at most "
              + (128 - KinesisSourceConfig.FanOut.PREFIX.length())
              + " characters, a Kinesis consumer name after the prefix lakestream_)");
    }
    return new KinesisSourceConfig.FanOut(
        name,
        values.get(REQUIRE_CONSUMER_DEREGISTRATION),
        values.get(REGISTERED_CONSUMER_ID),
        values.get(REGISTERED_CONSUMER_ID_TYPE).equals("arn"));
  }

  private static Instant timestamp(String position) {
    Matcher m = AT_TIMESTAMP.matcher(position);
    if (!m.matches()) {
      throw CATALOG.invalidValue(
          INITIAL_POSITION,
          position,
          "must be {\"at_timestamp\": \"<ISO-8601 instant>\"} or {\"at_timestamp\": \"<time>\","
              + " \"format\": \"<SimpleDateFormat pattern>\"}");
    }
    String format = m.group(2);
    try {
      return format == null
          ? Instant.parse(m.group(1))
          : new SimpleDateFormat(format, Locale.ROOT).parse(m.group(1)).toInstant();
    } catch (DateTimeParseException | ParseException | IllegalArgumentException e) {
      throw CATALOG.invalidValue(
          INITIAL_POSITION,
          position,
          format == null
              ? "has an at_timestamp that is not an ISO-8601 instant like 2026-01-01T00:00:00Z"
                  + " (or give its \"format\", a java.text.SimpleDateFormat pattern)"
              : "has an at_timestamp that does not match its format");
    }
  }
}
