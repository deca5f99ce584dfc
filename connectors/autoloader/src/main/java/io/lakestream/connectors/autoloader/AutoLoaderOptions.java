package io.lakestream.connectors.autoloader;

import java.time.Duration;
import java.util.List;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.MemorySize;

/**
 * Auto Loader options, named as in Databricks ({@code
 * spark.readStream.format("cloudFiles").option(...)}).
 */
public final class AutoLoaderOptions {
  private AutoLoaderOptions() {}

  public static final ConfigOption<String> FORMAT =
      ConfigOptions.key("cloudFiles.format")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "Format of the input files: json (one object per line), csv (header) or parquet (column"
                  + " types from the files).");

  public static final ConfigOption<String> SCHEMA_LOCATION =
      ConfigOptions.key("cloudFiles.schemaLocation")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "Where the inferred schema and its evolutions are kept (_schemas/0, _schemas/1, ...)."
                  + " Required unless a schema is given. Must not be inside the input path.");

  public static final ConfigOption<Boolean> INCLUDE_EXISTING_FILES =
      ConfigOptions.key("cloudFiles.includeExistingFiles")
          .booleanType()
          .defaultValue(true)
          .withDescription(
              "Whether files already in the input path when the stream first starts are ingested."
                  + " Only read on the first start; a restarted stream keeps its choice.");

  public static final ConfigOption<Integer> MAX_FILES_PER_TRIGGER =
      ConfigOptions.key("cloudFiles.maxFilesPerTrigger")
          .intType()
          .defaultValue(1000)
          .withDescription("At most this many new files are admitted per epoch (>= 1).");

  public static final ConfigOption<MemorySize> MAX_BYTES_PER_TRIGGER =
      ConfigOptions.key("cloudFiles.maxBytesPerTrigger")
          .memoryType()
          .noDefaultValue()
          .withDescription(
              "Soft limit of file bytes admitted per epoch, e.g. '10g': the file that crosses it is"
                  + " still admitted whole (a file is never split).");

  public static final ConfigOption<Duration> MAX_FILE_AGE =
      ConfigOptions.key("cloudFiles.maxFileAge")
          .durationType()
          .noDefaultValue()
          .withDescription(
              "Files whose modification time is older than this when they are listed are not"
                  + " ingested, e.g. '90 d'.");

  public static final ConfigOption<String> USE_INCREMENTAL_LISTING =
      ConfigOptions.key("cloudFiles.useIncrementalListing")
          .stringType()
          .defaultValue("auto")
          .withDescription(
              "auto: list after the last seen key, with a full listing after every 7 incremental"
                  + " ones; true: only incremental listings (plus cloudFiles.backfillInterval);"
                  + " false: every listing is a full listing.");

  public static final ConfigOption<Duration> BACKFILL_INTERVAL =
      ConfigOptions.key("cloudFiles.backfillInterval")
          .durationType()
          .noDefaultValue()
          .withDescription(
              "Run a full listing this often to catch files an incremental listing missed"
                  + " (written out of lexical key order), e.g. '1 d'.");

  public static final ConfigOption<Boolean> INFER_COLUMN_TYPES =
      ConfigOptions.key("cloudFiles.inferColumnTypes")
          .booleanType()
          .defaultValue(false)
          .withDescription(
              "Infer BIGINT/DOUBLE/BOOLEAN columns; without it every inferred column is STRING.");

  public static final ConfigOption<String> SCHEMA_HINTS =
      ConfigOptions.key("cloudFiles.schemaHints")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "Types for some columns, overriding inference, e.g. 'id BIGINT, amount"
                  + " DECIMAL(12,2)'.");

  public static final ConfigOption<String> SCHEMA_EVOLUTION_MODE =
      ConfigOptions.key("cloudFiles.schemaEvolutionMode")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "addNewColumns (default for an inferred schema), rescue, failOnNewColumns or none"
                  + " (default for a given schema).");

  public static final ConfigOption<String> PARTITION_COLUMNS =
      ConfigOptions.key("cloudFiles.partitionColumns")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "Comma-separated partition columns taken from name=value directories; without it"
                  + " they are inferred from the sampled files.");

  public static final ConfigOption<Integer> SAMPLE_NUM_FILES =
      ConfigOptions.key("spark.databricks.cloudFiles.schemaInference.sampleSize.numFiles")
          .intType()
          .defaultValue(1000)
          .withDescription("Schema inference samples at most this many of the newest files.");

  public static final ConfigOption<MemorySize> SAMPLE_NUM_BYTES =
      ConfigOptions.key("spark.databricks.cloudFiles.schemaInference.sampleSize.numBytes")
          .memoryType()
          .defaultValue(MemorySize.parse("50g"))
          .withDescription("Schema inference samples at most this many bytes of the newest files.");

  public static final ConfigOption<Boolean> USE_NOTIFICATIONS =
      ConfigOptions.key("cloudFiles.useNotifications")
          .booleanType()
          .defaultValue(false)
          .withDescription(
              "File notification mode: discover new files from the S3 event notifications in the"
                  + " SQS queue cloudFiles.queueUrl instead of listing the input path (s3a:// only);"
                  + " full listings still run every cloudFiles.backfillInterval.");

  public static final ConfigOption<String> QUEUE_URL =
      ConfigOptions.key("cloudFiles.queueUrl")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "URL of the SQS queue receiving the input bucket's s3:ObjectCreated:* events"
                  + " (directly or through SNS). Required with cloudFiles.useNotifications.");

  public static final ConfigOption<String> REGION =
      ConfigOptions.key("cloudFiles.region")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "AWS region of the queue; by default the one in an AWS queue URL"
                  + " (sqs.<region>.amazonaws.com).");

  public static final ConfigOption<String> SQS_ENDPOINT =
      ConfigOptions.key("cloudFiles.sqsEndpoint")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "SQS endpoint override, e.g. a VPC endpoint or a local SQS-API server for tests.");

  public static final ConfigOption<String> AWS_ACCESS_KEY =
      ConfigOptions.key("cloudFiles.awsAccessKey")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "Access key for the queue (with cloudFiles.awsSecretKey); without it the AWS default"
                  + " credentials chain is used. Never logged.");

  public static final ConfigOption<String> AWS_SECRET_KEY =
      ConfigOptions.key("cloudFiles.awsSecretKey")
          .stringType()
          .noDefaultValue()
          .withDescription("Secret of cloudFiles.awsAccessKey. Never logged.");

  public static final ConfigOption<String> CLEAN_SOURCE =
      ConfigOptions.key("cloudFiles.cleanSource")
          .stringType()
          .defaultValue("OFF")
          .withDescription(
              "OFF, DELETE or MOVE: what to do with an input file once the epoch that read it is"
                  + " committed and cloudFiles.cleanSource.retentionDuration passed.");

  public static final ConfigOption<String> CLEAN_SOURCE_MOVE_DESTINATION =
      ConfigOptions.key("cloudFiles.cleanSource.moveDestination")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "Where MOVE puts processed files (keeping their path relative to the input path)."
                  + " Required for MOVE; same file system (bucket) as the input, outside the input"
                  + " path.");

  public static final ConfigOption<Duration> CLEAN_SOURCE_RETENTION =
      ConfigOptions.key("cloudFiles.cleanSource.retentionDuration")
          .durationType()
          .defaultValue(Duration.ofDays(30))
          .withDescription(
              "How long after its commit a processed file is deleted or moved, e.g. '30 d'.");

  /** Every option, for validation messages. */
  public static List<ConfigOption<?>> all() {
    return List.of(
        FORMAT,
        SCHEMA_LOCATION,
        INCLUDE_EXISTING_FILES,
        MAX_FILES_PER_TRIGGER,
        MAX_BYTES_PER_TRIGGER,
        MAX_FILE_AGE,
        USE_INCREMENTAL_LISTING,
        BACKFILL_INTERVAL,
        INFER_COLUMN_TYPES,
        SCHEMA_HINTS,
        SCHEMA_EVOLUTION_MODE,
        PARTITION_COLUMNS,
        SAMPLE_NUM_FILES,
        SAMPLE_NUM_BYTES,
        USE_NOTIFICATIONS,
        QUEUE_URL,
        REGION,
        SQS_ENDPOINT,
        AWS_ACCESS_KEY,
        AWS_SECRET_KEY,
        CLEAN_SOURCE,
        CLEAN_SOURCE_MOVE_DESTINATION,
        CLEAN_SOURCE_RETENTION);
  }
}
