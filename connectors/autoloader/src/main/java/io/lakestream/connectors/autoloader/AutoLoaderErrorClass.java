package io.lakestream.connectors.autoloader;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.ErrorClass;

/**
 * The error classes of Auto Loader, named as Databricks names them where it has a name (Spark's
 * {@code UNKNOWN_FIELD_EXCEPTION}, Databricks' {@code CF_*}). Invalid {@code cloudFiles.*} options
 * carry the options catalog's {@link io.lakestream.connectors.options.OptionErrorClass} classes.
 */
@PublicEvolving
public enum AutoLoaderErrorClass implements ErrorClass {
  /** A file has columns the stream's schema lacks; restart to pick up the recorded schema. */
  UNKNOWN_FIELD_EXCEPTION,
  /** A record that cannot be read with the schema and has no _rescued_data column to go to. */
  MALFORMED_RECORD_IN_PARSING,
  /** A file that is not of its format or is truncated or corrupt (Spark's FAILED_READ_FILE). */
  FAILED_READ_FILE,
  /** No schema was given and the input path has no files to infer one from. */
  CF_EMPTY_DIR_FOR_SCHEMA_INFERENCE,
  /** The sample could not be read or the schema history could not be read or written. */
  CF_SCHEMA_INFERENCE_FAILED,
  /** A given schema (DDL) that cannot be parsed. */
  CF_INVALID_SCHEMA,
  /** A state location (schema location, checkpoint, move destination) is inside the input path. */
  CF_LOCATION_INSIDE_INPUT,
  /**
   * File notification mode could not create, find or remove its queue, its SNS topic
   * (cloudFiles.useSns) or the bucket's event notification (permissions, region or endpoint); or
   * give an existing queue with cloudFiles.queueUrl.
   */
  NOTIFICATION_SETUP_FAILED
}
