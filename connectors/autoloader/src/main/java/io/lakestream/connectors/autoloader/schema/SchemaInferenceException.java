package io.lakestream.connectors.autoloader.schema;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.autoloader.AutoLoaderErrorClass;

/**
 * Auto Loader could not determine a schema: the input has no files to sample and no schema was
 * given ({@code CF_EMPTY_DIR_FOR_SCHEMA_INFERENCE}), or the sample or the schema history could not
 * be read ({@code CF_SCHEMA_INFERENCE_FAILED}). The message says what to set.
 */
@PublicEvolving
public class SchemaInferenceException extends LakestreamException {
  private static final long serialVersionUID = 1L;

  /** Error class {@code CF_SCHEMA_INFERENCE_FAILED}. */
  public SchemaInferenceException(String message) {
    super(AutoLoaderErrorClass.CF_SCHEMA_INFERENCE_FAILED, message);
  }

  /** With {@code errorClass}, e.g. {@code CF_EMPTY_DIR_FOR_SCHEMA_INFERENCE}. */
  public SchemaInferenceException(AutoLoaderErrorClass errorClass, String message) {
    super(errorClass, message);
  }

  /** Error class {@code CF_SCHEMA_INFERENCE_FAILED}. */
  public SchemaInferenceException(String message, Throwable cause) {
    super(AutoLoaderErrorClass.CF_SCHEMA_INFERENCE_FAILED, message, cause);
  }
}
