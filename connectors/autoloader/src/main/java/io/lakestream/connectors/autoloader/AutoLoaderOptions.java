package io.lakestream.connectors.autoloader;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.connectors.options.Option;
import io.lakestream.connectors.options.OptionRule;
import io.lakestream.connectors.options.OptionsCatalog;
import io.lakestream.connectors.options.PassThrough;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Auto Loader options, named as in Databricks ({@code
 * spark.readStream.format("cloudFiles").option(...)}). {@link #CATALOG} checks them (keys ignore
 * case); see {@code docs/options/autoloader.md}.
 */
@PublicEvolving
public final class AutoLoaderOptions {
  private AutoLoaderOptions() {}

  public static final Option<String> FORMAT =
      Option.key("cloudFiles.format")
          .choiceType("json", "csv", "parquet", "avro", "orc", "text", "binaryFile", "xml")
          .required()
          .withDescription(
              "Format of the input files: json (one object per line), csv (header), parquet, avro"
                  + " or orc (column types from the files' own schema), xml (a row per `rowTag`"
                  + " element; values are text, typed like csv's), text (a `value STRING` row per"
                  + " line) or binaryFile (a row per file: `path STRING, modificationTime TIMESTAMP,"
                  + " length BIGINT, content BINARY`). text and binaryFile have these fixed columns"
                  + " (plus partition columns and _rescued_data), so cloudFiles.schemaHints does not"
                  + " apply to them.");

  public static final Option<Boolean> WHOLE_TEXT =
      Option.key("wholetext")
          .booleanType()
          .defaultValue(false)
          .withDescription(
              "With cloudFiles.format=text: one row per file, its whole text in `value`, instead of"
                  + " one per line.");

  public static final Option<String> ROW_TAG =
      Option.key("rowTag")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "With cloudFiles.format=xml, required: the element that is one row, e.g. `book` for"
                  + " the `<book>` elements of a file (wherever they are in it).");

  public static final Option<String> ATTRIBUTE_PREFIX =
      Option.key("attributePrefix")
          .stringType()
          .defaultValue("_")
          .withDescription(
              "With cloudFiles.format=xml: the prefix of attribute fields, so `<book id=\"1\">`"
                  + " has a field `_id`.");

  public static final Option<String> VALUE_TAG =
      Option.key("valueTag")
          .stringType()
          .defaultValue("_VALUE")
          .withDescription(
              "With cloudFiles.format=xml: the field holding an element's own text when it also has"
                  + " attributes or child elements.");

  public static final Option<Boolean> EXCLUDE_ATTRIBUTE =
      Option.key("excludeAttribute")
          .booleanType()
          .defaultValue(false)
          .withDescription("With cloudFiles.format=xml: leave attributes out of the records.");

  public static final Option<Boolean> IGNORE_NAMESPACE =
      Option.key("ignoreNamespace")
          .booleanType()
          .defaultValue(false)
          .withDescription(
              "With cloudFiles.format=xml: drop namespace prefixes from element and attribute names"
                  + " (`ns:title` is the field `title`).");

  public static final Option<Boolean> IGNORE_SURROUNDING_SPACES =
      Option.key("ignoreSurroundingSpaces")
          .booleanType()
          .defaultValue(true)
          .withDescription("With cloudFiles.format=xml: trim the white space around values.");

  public static final Option<Double> SAMPLING_RATIO =
      Option.key("samplingRatio")
          .doubleType()
          .defaultValue(1.0)
          .check(r -> r > 0 && r <= 1, "be more than 0 and at most 1")
          .withDescription(
              "With cloudFiles.format=xml: the share of each sampled file's records schema inference"
                  + " looks at (the first and then one in every 1/samplingRatio).");

  public static final Option<String> SCHEMA_LOCATION =
      Option.key("cloudFiles.schemaLocation")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "Where the inferred schema and its evolutions are kept (_schemas/0, _schemas/1, ...)."
                  + " Required unless a schema is given. Must not be inside the input path.");

  public static final Option<Boolean> INCLUDE_EXISTING_FILES =
      Option.key("cloudFiles.includeExistingFiles")
          .booleanType()
          .defaultValue(true)
          .withDescription(
              "Whether files already in the input path when the stream first starts are ingested."
                  + " Only read on the first start; a restarted stream keeps its choice.");

  public static final Option<Integer> MAX_FILES_PER_TRIGGER =
      Option.key("cloudFiles.maxFilesPerTrigger")
          .intType()
          .defaultValue(1000)
          .atLeast(1)
          .withDescription("At most this many new files are admitted per epoch (>= 1).");

  public static final Option<Long> MAX_BYTES_PER_TRIGGER =
      Option.key("cloudFiles.maxBytesPerTrigger")
          .byteSizeType()
          .noDefaultValue()
          .check(bytes -> bytes >= 1, "be at least 1 byte")
          .withDescription(
              "Soft limit of file bytes admitted per epoch, e.g. '10g': the file that crosses it is"
                  + " still admitted whole (a file is never split).");

  /** Databricks' documented minimum of {@link #MAX_FILE_AGE}. */
  public static final Duration MIN_MAX_FILE_AGE = Duration.ofDays(14);

  /**
   * System property lowering {@link #MIN_MAX_FILE_AGE} to a number of milliseconds, for tests and
   * benchmarks that age files out in seconds; never set it in production.
   */
  public static final String MIN_MAX_FILE_AGE_PROPERTY =
      "lakestream.autoloader.minMaxFileAgeMillis";

  public static final Option<Duration> MAX_FILE_AGE =
      Option.key("cloudFiles.maxFileAge")
          .durationType()
          .noDefaultValue()
          .check(
              age -> age.compareTo(minimumMaxFileAge()) >= 0,
              "be at least 14 days (Databricks' minimum; 90 days is the recommendation)")
          .withDescription(
              "Files whose modification time is older than this are not ingested, e.g. '90 d';"
                  + " the file ledger forgets them then (without it the ledger keeps every file"
                  + " ever read). A file older than this that reappears is not read again.");

  public static final Option<String> USE_INCREMENTAL_LISTING =
      Option.key("cloudFiles.useIncrementalListing")
          .choiceType("auto", "true", "false")
          .defaultValue("auto")
          .withDescription(
              "auto: list after the last seen key, with a full listing after every 7 incremental"
                  + " ones; true: only incremental listings (plus cloudFiles.backfillInterval);"
                  + " false: every listing is a full listing. With auto and false an availableNow run"
                  + " lists the whole input path once; with true only after the last seen key.");

  public static final Option<Duration> BACKFILL_INTERVAL =
      Option.key("cloudFiles.backfillInterval")
          .durationType()
          .noDefaultValue()
          .withDescription(
              "Run a full listing this often to catch files an incremental listing missed"
                  + " (written out of lexical key order), e.g. '1 d'.");

  public static final Option<Boolean> INFER_COLUMN_TYPES =
      Option.key("cloudFiles.inferColumnTypes")
          .booleanType()
          .defaultValue(false)
          .withDescription(
              "Infer BIGINT/DOUBLE/BOOLEAN columns; without it every inferred column is STRING.");

  public static final Option<Boolean> IGNORE_CORRUPT_FILES =
      Option.key("ignoreCorruptFiles")
          .booleanType()
          .defaultValue(false)
          .withDescription(
              "Skip files that are not of their format or are truncated or corrupt (FAILED_READ_FILE)"
                  + " instead of failing the query: the rows read before the damage are kept, and"
                  + " each skipped file is logged and counted in numSkippedCorruptFiles.");

  public static final Option<String> SCHEMA_HINTS =
      Option.key("cloudFiles.schemaHints")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "Types for some columns, overriding inference, e.g. 'id BIGINT, amount"
                  + " DECIMAL(12,2)'.");

  public static final Option<String> SCHEMA_EVOLUTION_MODE =
      Option.key("cloudFiles.schemaEvolutionMode")
          .choiceType("addNewColumns", "rescue", "failOnNewColumns", "none")
          .noDefaultValue()
          .withDefaultText("addNewColumns; none with a given schema")
          .withDescription(
              "addNewColumns (default for an inferred schema), rescue, failOnNewColumns or none"
                  + " (default for a given schema).");

  public static final Option<String> PARTITION_COLUMNS =
      Option.key("cloudFiles.partitionColumns")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "Comma-separated partition columns taken from name=value directories; without it"
                  + " they are inferred from the sampled files.");

  public static final Option<Integer> SAMPLE_NUM_FILES =
      Option.key("spark.databricks.cloudFiles.schemaInference.sampleSize.numFiles")
          .intType()
          .defaultValue(1000)
          .withDescription("Schema inference samples at most this many of the newest files.");

  public static final Option<Long> SAMPLE_NUM_BYTES =
      Option.key("spark.databricks.cloudFiles.schemaInference.sampleSize.numBytes")
          .byteSizeType()
          .defaultValue(50L << 30)
          .withDescription("Schema inference samples at most this many bytes of the newest files.");

  /** Options under this prefix tag the resources file notification mode sets up. */
  public static final String RESOURCE_TAG_PREFIX = "cloudFiles.resourceTag.";

  public static final Option<Boolean> USE_NOTIFICATIONS =
      Option.key("cloudFiles.useNotifications")
          .booleanType()
          .defaultValue(false)
          .withDescription(
              "File notification mode: discover new files from the S3 event notifications in the"
                  + " SQS queue cloudFiles.queueUrl instead of listing the input path (s3a:// only);"
                  + " full listings still run every cloudFiles.backfillInterval. Without"
                  + " cloudFiles.queueUrl, the query creates its queue and the bucket's event"
                  + " notification (`lakestream cloud-files resources` lists and removes them).");

  public static final Option<String> QUEUE_URL =
      Option.key("cloudFiles.queueUrl")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "URL of the SQS queue receiving the input bucket's s3:ObjectCreated:* events"
                  + " (directly or through SNS). Without it, cloudFiles.useNotifications sets up a"
                  + " queue named lakestream-auto-ingest-<query id> and the bucket notification"
                  + " (needs cloudFiles.region and permission for sqs:CreateQueue,"
                  + " sqs:SetQueueAttributes, sqs:TagQueue, s3:GetBucketNotification and"
                  + " s3:PutBucketNotification).");

  public static final Option<String> REGION =
      Option.key("cloudFiles.region")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "AWS region of the queue; by default the one in an AWS queue URL"
                  + " (sqs.<region>.amazonaws.com). Required when Auto Loader sets up the queue.");

  public static final Option<String> S3_ENDPOINT =
      Option.key("cloudFiles.s3Endpoint")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "S3 endpoint override for setting up the bucket's event notification, e.g. a local"
                  + " S3-API server; AWS by default.");

  public static final Option<Boolean> USE_SNS =
      Option.key("cloudFiles.useSns")
          .booleanType()
          .defaultValue(false)
          .withDescription(
              "Without cloudFiles.queueUrl, set up what Databricks' classic file notification mode"
                  + " sets up: an SNS topic lakestream-auto-ingest-<query id> the bucket notifies,"
                  + " with the query's queue subscribed to it, so other consumers can subscribe"
                  + " to the same events (needs sns:CreateTopic, sns:TagResource,"
                  + " sns:SetTopicAttributes, sns:Subscribe, sns:ListSubscriptionsByTopic, and"
                  + " sns:Unsubscribe and sns:DeleteTopic to clean up). False: the bucket notifies"
                  + " the queue directly.");

  public static final Option<String> SNS_ENDPOINT =
      Option.key("cloudFiles.snsEndpoint")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "SNS endpoint override for setting up the topic (cloudFiles.useSns), e.g. a VPC"
                  + " endpoint or a local SNS-API server; AWS by default.");

  public static final Option<String> SQS_ENDPOINT =
      Option.key("cloudFiles.sqsEndpoint")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "SQS endpoint override, e.g. a VPC endpoint or a local SQS-API server for tests.");

  public static final Option<String> AWS_ACCESS_KEY =
      Option.key("cloudFiles.awsAccessKey")
          .stringType()
          .noDefaultValue()
          .secret()
          .withDescription(
              "Access key for the queue (with cloudFiles.awsSecretKey); without it the AWS default"
                  + " credentials chain is used. Never logged.");

  public static final Option<String> AWS_SECRET_KEY =
      Option.key("cloudFiles.awsSecretKey")
          .stringType()
          .noDefaultValue()
          .secret()
          .withDescription("Secret of cloudFiles.awsAccessKey. Never logged.");

  public static final Option<String> CLEAN_SOURCE =
      Option.key("cloudFiles.cleanSource")
          .choiceType("OFF", "DELETE", "MOVE")
          .defaultValue("OFF")
          .withDescription(
              "OFF, DELETE or MOVE: what to do with an input file once the epoch that read it is"
                  + " committed and cloudFiles.cleanSource.retentionDuration passed.");

  public static final Option<String> CLEAN_SOURCE_MOVE_DESTINATION =
      Option.key("cloudFiles.cleanSource.moveDestination")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "Where MOVE puts processed files (keeping their path relative to the input path)."
                  + " Required for MOVE; same file system (bucket) as the input, outside the input"
                  + " path.");

  public static final Option<Duration> CLEAN_SOURCE_RETENTION =
      Option.key("cloudFiles.cleanSource.retentionDuration")
          .durationType()
          .defaultValue(Duration.ofDays(30))
          .notNegative()
          .withDescription(
              "How long after its commit a processed file is deleted or moved, e.g. '30 d'.");

  /** Every option of Auto Loader, and the rules between them. */
  public static final OptionsCatalog CATALOG =
      OptionsCatalog.builder("autoloader", "Auto Loader")
          .summary(
              "Options of `AutoLoaderBuilder.option(key, value)`, named as in Databricks Auto"
                  + " Loader (`spark.readStream.format(\"cloudFiles\").option(...)`). The schema"
                  + " itself is given with `AutoLoaderBuilder.schema(ddl)`.")
          .options(all())
          .rule(
              OptionRule.onlyWhen(
                  USE_NOTIFICATIONS,
                  true,
                  "in file notification mode",
                  QUEUE_URL,
                  REGION,
                  SQS_ENDPOINT,
                  S3_ENDPOINT,
                  USE_SNS,
                  SNS_ENDPOINT,
                  AWS_ACCESS_KEY,
                  AWS_SECRET_KEY))
          .rule(OptionRule.onlyWhen(USE_SNS, true, "with an SNS topic", SNS_ENDPOINT))
          .passThrough(
              PassThrough.prefix(
                  RESOURCE_TAG_PREFIX,
                  "tags of the queue (and topic) file notification mode sets up, e.g."
                      + " cloudFiles.resourceTag.team=data"))
          .rule(
              OptionRule.together(
                  "to use the AWS default credentials chain", AWS_ACCESS_KEY, AWS_SECRET_KEY))
          .rule(
              OptionRule.onlyWhen(
                  CLEAN_SOURCE,
                  "MOVE",
                  "with cloudFiles.cleanSource=MOVE",
                  CLEAN_SOURCE_MOVE_DESTINATION))
          .rule(OptionRule.requiredWhen(CLEAN_SOURCE, "MOVE", CLEAN_SOURCE_MOVE_DESTINATION))
          .rule(OptionRule.onlyWhen(FORMAT, "text", "with cloudFiles.format=text", WHOLE_TEXT))
          .rule(
              OptionRule.onlyWhen(
                  FORMAT,
                  "xml",
                  "with cloudFiles.format=xml",
                  ROW_TAG,
                  ATTRIBUTE_PREFIX,
                  VALUE_TAG,
                  EXCLUDE_ATTRIBUTE,
                  IGNORE_NAMESPACE,
                  IGNORE_SURROUNDING_SPACES,
                  SAMPLING_RATIO))
          .rule(OptionRule.requiredWhen(FORMAT, "xml", ROW_TAG))
          .build();

  /** {@link #MIN_MAX_FILE_AGE}, or the test override {@link #MIN_MAX_FILE_AGE_PROPERTY}. */
  static Duration minimumMaxFileAge() {
    Long override = Long.getLong(MIN_MAX_FILE_AGE_PROPERTY);
    return override == null ? MIN_MAX_FILE_AGE : Duration.ofMillis(override);
  }

  /** The columns of a {@link #PARTITION_COLUMNS} value, e.g. {@code "region, day"}, in order. */
  public static List<String> partitionColumns(String value) {
    return Arrays.stream(value.split(","))
        .map(String::trim)
        .filter(s -> !s.isEmpty())
        .collect(Collectors.toList());
  }

  /** Every option, in the reference's order. */
  public static List<Option<?>> all() {
    return List.of(
        FORMAT,
        WHOLE_TEXT,
        ROW_TAG,
        ATTRIBUTE_PREFIX,
        VALUE_TAG,
        EXCLUDE_ATTRIBUTE,
        IGNORE_NAMESPACE,
        IGNORE_SURROUNDING_SPACES,
        SAMPLING_RATIO,
        SCHEMA_LOCATION,
        INCLUDE_EXISTING_FILES,
        MAX_FILES_PER_TRIGGER,
        MAX_BYTES_PER_TRIGGER,
        MAX_FILE_AGE,
        USE_INCREMENTAL_LISTING,
        BACKFILL_INTERVAL,
        INFER_COLUMN_TYPES,
        IGNORE_CORRUPT_FILES,
        SCHEMA_HINTS,
        SCHEMA_EVOLUTION_MODE,
        PARTITION_COLUMNS,
        SAMPLE_NUM_FILES,
        SAMPLE_NUM_BYTES,
        USE_NOTIFICATIONS,
        QUEUE_URL,
        REGION,
        SQS_ENDPOINT,
        S3_ENDPOINT,
        USE_SNS,
        SNS_ENDPOINT,
        AWS_ACCESS_KEY,
        AWS_SECRET_KEY,
        CLEAN_SOURCE,
        CLEAN_SOURCE_MOVE_DESTINATION,
        CLEAN_SOURCE_RETENTION);
  }
}
